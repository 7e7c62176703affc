"""Savage Worlds, as much of it as a GM needs to run a fight at the table.

* **Action cards**: each Wild Card, and each group of Extras, is dealt a card from a 54-card deck every round;
  the highest acts first (Ace high, Deuce low), ties by suit ♠ > ♥ > ♦ > ♣. *Level Headed* draws two cards
  (*Improved*: three) and acts on the best; *Quick* draws again while the best is a Five or lower. The GM may
  type the cards a real deck dealt ("K♠", "10h", "Joker"; Level Headed: every card drawn, "3♣ 9♥").
* **Jokers**: whoever is dealt one acts whenever he likes this round (outside the order: the GM brings him in)
  with +2 to his trait and damage rolls; the deck is shuffled at the end of a round a Joker was dealt in.
* **Hold**: a combatant whose turn it is may go on hold, outside the order, and come in later to act before
  whoever acts then; a hold lasts into the next rounds (he is dealt no card) until he comes in.
* **Attacks**: the trait die (and, for a Wild Card, the Wild Die: the higher counts), +2 with a Joker, −1 a
  wound (at most −3), against the target's Parry in melee or 4 at range; a raise (4 over) adds 1d6 to damage.
* **Damage** against Toughness: a success Shakes, each raise is a wound; a Shaken target shaken again takes a
  wound. A Wild Card takes three wounds and is incapacitated by the fourth; an Extra is out at his first. A
  Shaken combatant may not attack until he recovers (a Spirit roll of 4, or a Benny spent). A foe's Toughness
  stays behind the GM's screen: the players read what the hit did ("Grunt takes 9: Shaken.").

Health is counted as the wounds a combatant can still take: a Wild Card joins with 4 (the fourth wound
incapacitates him, at 0), an Extra with 1, whatever the set-up form was given as HP.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
from msgspec.structs import asdict, replace

from savage_worlds import cards, odds
from tui_combat.engine.audience import behind, group_ref, who, whos
from tui_combat.engine.contract import (
    ActionSpec,
    DamageDue,
    FieldSpec,
    Health,
    RuleError,
    Ruleset,
    StepDef,
    Waiting,
    new_attack,
)
from tui_combat.engine.dice import DiceError, Roll, parse, with_bonus
from tui_combat.engine.initiative import settle
from tui_combat.engine.log import Msg, Param, log, plural_msg, roll_param
from tui_combat.engine.mistakes import convert_sheet, refuse
from tui_combat.engine.model import Combatant, RollRequest, Slot, State
from tui_combat.i18n import N_, _

WILD_DIE = "1d6!"
JOKER_BONUS = 2
TARGET_NUMBER = 4
RAISE = 4
MOST_WOUNDS = 3


class Sheet(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    wild_card: bool = False
    skill: str = "1d6!"
    """The attack's trait die (Fighting or Shooting), open-ended."""
    spirit: str = "1d6!"
    damage: str = "1d6!+1d6!"
    """Strength and weapon dice in melee, the weapon's at range."""
    parry: int = 4
    toughness: int = 5
    """Armour included."""
    level_headed: str = "no"
    quick: bool = False


class SavageRound(msgspec.Struct, frozen=True, kw_only=True):
    cards: dict[str, int] = msgspec.field(default_factory=dict)
    """Combatant id → the card he acts on this round."""
    drawn: tuple[int, ...] = ()
    """Every card drawn this round (Level Headed's and Quick's too), out of the deck."""
    jokers: tuple[str, ...] = ()
    """Dealt a Joker and not yet come in."""
    shuffled: bool = False
    """The deck ran out during this round's deal and was shuffled."""


class SavageFight(msgspec.Struct, frozen=True, kw_only=True):
    out: tuple[int, ...] = ()
    """The cards dealt in earlier rounds since the last shuffle."""
    held: tuple[str, ...] = ()
    shaken: tuple[str, ...] = ()


class Reckoning(NamedTuple):
    """What an attack needs (:meth:`SavageWorlds.reckon`)."""

    target: Combatant
    needed: int
    """His Parry in melee, 4 at range."""
    melee: bool
    joker: int
    """+2 with a Joker, else 0."""
    added: int
    """Everything added to the roll: the modifiers typed, the Joker's +2, −1 a wound."""


def roll_of(args: Mapping[str, Any], key: str, label: str) -> Roll:
    try:
        return msgspec.convert(args[key], Roll)
    except (KeyError, msgspec.ValidationError):
        raise RuleError(_("{field} is missing.", field=_(label))) from None


def card_word(card: int) -> str | Msg:
    """A card as a log parameter: "K♠", or the translatable word Joker."""
    return Msg(id=N_("Joker")) if cards.is_joker(card) else cards.card_text(card)


def card_shown(card: int) -> str:
    return _("Joker") if cards.is_joker(card) else cards.card_text(card)


class SavageWorlds(Ruleset[SavageRound, SavageFight]):
    id = "savage_worlds"
    name = N_("Savage Worlds")
    demo = Path(__file__).with_name("demo.toml")  # offered in the session list beside the app's demos
    catalogs = Path(__file__).resolve().parent / "locale"  # ru.po, uk.po: python -m tui_combat.i18n.update --plugin
    health_label = N_("Wounds")
    health_help = N_("set by the sheet: a Wild Card takes three wounds, an Extra none")
    sheet_fields = (
        FieldSpec(key="wild_card", label=N_("Wild Card"), kind="bool", default=False),
        FieldSpec(key="skill", label=N_("Attack die"), default="1d6!", help=N_("Fighting or Shooting, e.g. 1d8!")),
        FieldSpec(key="damage", label=N_("Damage dice"), default="1d6!+1d6!"),
        FieldSpec(key="parry", label=N_("Parry"), kind="int", default=4, minimum=0, maximum=30),
        FieldSpec(key="toughness", label=N_("Toughness"), kind="int", default=5, minimum=1, maximum=40),
        FieldSpec(key="spirit", label=N_("Spirit die"), default="1d6!"),
        FieldSpec(
            key="level_headed",
            label=N_("Level Headed"),
            kind="choice",
            default="no",
            choices=(("no", N_("no")), ("yes", N_("Level Headed")), ("improved", N_("Improved Level Headed"))),
        ),
        FieldSpec(key="quick", label=N_("Quick"), kind="bool", default=False),
    )
    actions = (
        ActionSpec(name="attack", key="a", label=N_("Attack"), in_turn=True),
        ActionSpec(name="hold", key="o", label=N_("Hold")),
        ActionSpec(name="recover", key="s", label=N_("Recover from Shaken")),
    )
    round_state_type = SavageRound
    fight_state_type = SavageFight

    # -- the sheet and health --------------------------------------------------------------------
    def check_sheet(self, sheet: dict[str, Any]) -> dict[str, Any]:
        checked, mistakes = convert_sheet(sheet, Sheet, strict=True)  # the fields of the wrong kind, in the GM's words
        for key in ("skill", "spirit", "damage"):
            try:
                parse(getattr(checked, key))
            except DiceError as error:
                mistakes.append(_("Sheet, {field}: {error}", field=key, error=error))
        if checked.level_headed not in ("no", "yes", "improved"):
            mistakes.append(_("Sheet, level_headed: no, yes or improved, not {value}.", value=checked.level_headed))
        refuse(mistakes)
        return asdict(checked)

    @staticmethod
    def sheet(combatant: Combatant) -> Sheet:
        return msgspec.convert(combatant.sheet, Sheet)

    def starting_hp(self, sheet: dict[str, Any], typed: int) -> int:
        return MOST_WOUNDS + 1 if sheet.get("wild_card") else 1

    @staticmethod
    def wounds(combatant: Combatant) -> int:
        return max(combatant.max_hp - combatant.hp, 0)

    def health_shown(self, state: State, combatant_id: str, *, brief: bool = False) -> str:
        """Wounds taken of the most he can take ("1/3"); in the set-up table, the most ("3"; an Extra: "0")."""
        combatant = state.combatant(combatant_id)
        most = max(combatant.max_hp - 1, 0)
        return str(most) if brief else f"{min(self.wounds(combatant), most)}/{most}"

    def after_damage(self, state: State, combatant: Combatant, amount: int, *, critical: bool = False) -> Health:
        toughness = self.sheet(combatant).toughness
        margin = amount - toughness
        shaken = combatant.id in self.fight_of(state).shaken
        wounds = margin // RAISE if margin >= 0 else 0
        if margin >= 0 and wounds == 0 and shaken:
            wounds = 1  # Shaken again: a wound
        hp = combatant.hp - wounds
        status = "down" if hp <= 0 and combatant.status == "active" else combatant.status
        if margin < 0:
            outcome: Msg = Msg(id=N_("no effect"))
        elif wounds == 0:
            outcome = Msg(id=N_("Shaken"))
        elif status == "down" and combatant.status == "active":
            outcome = plural_msg("{n} wound: incapacitated", "{n} wounds: incapacitated", wounds)
        elif margin < RAISE:
            outcome = Msg(id=N_("Shaken again: a wound"))
        else:
            outcome = plural_msg("{n} wound and Shaken", "{n} wounds and Shaken", wounds)
        name = who(state, combatant)
        # A foe's Toughness is behind the GM's screen (the posse's is the players' own): the players read what the
        # hit did, as they do when the damage was rolled and they see only the outcome of rolls.
        party = state.side(combatant.side).is_party
        said = Msg(
            id=N_("{name} takes {amount} against Toughness {toughness}: {outcome}."),
            params={
                "name": name,
                "amount": amount,
                "toughness": toughness if party else behind(toughness),
                "outcome": outcome,
            },
        )
        said_public = Msg(
            id=N_("{name} takes {amount}: {outcome}."), params={"name": name, "amount": amount, "outcome": outcome}
        )
        return Health(hp=hp, status=status, said=said, said_public=said_public)

    def after_healing(self, state: State, combatant: Combatant, amount: int) -> Health:
        health = super().after_healing(state, combatant, amount)
        healed = health.hp - combatant.hp
        return replace(
            health,
            said=plural_msg(
                "{name}: {n} wound healed.", "{name}: {n} wounds healed.", healed, name=who(state, combatant)
            ),
        )

    def on_damage(self, state: State, combatant_id: str, amount: int, *, critical: bool = False) -> State:
        combatant = state.combatant(combatant_id)
        fight = self.fight_of(state)
        if combatant.status != "active" or amount < self.sheet(combatant).toughness or combatant_id in fight.shaken:
            return state
        return self.with_fight(state, replace(fight, shaken=(*fight.shaken, combatant_id)))

    def on_status(self, state: State, combatant_id: str, before: Any) -> State:
        fight = self.fight_of(state)
        if state.combatant(combatant_id).status == "active":
            return state
        return self.with_fight(
            state,
            replace(
                fight,
                shaken=tuple(c for c in fight.shaken if c != combatant_id),
                held=tuple(c for c in fight.held if c != combatant_id),
            ),
        )

    def condition_word(self, state: State, combatant_id: str) -> str | None:
        combatant = state.combatant(combatant_id)
        if combatant.status == "down":
            return N_("incapacitated")
        wounds = self.wounds(combatant)
        return (None, N_("1 wound"), N_("2 wounds"), N_("3 wounds"))[min(wounds, MOST_WOUNDS)]

    def public_conditions(self, state: State, combatant_id: str) -> tuple[str, ...]:
        return (_("Shaken"),) if combatant_id in self.fight_of(state).shaken else ()

    # -- the round -------------------------------------------------------------------------------
    def steps(self, state: State) -> tuple[StepDef, ...]:
        return (
            StepDef(
                id="deal",
                label=N_("Action cards"),
                kind="initiative",
                help=N_("highest card first; ties by suit ♠ ♥ ♦ ♣"),
            ),
            StepDef(id="resolve", label=N_("Turns"), kind="resolve"),
            StepDef(id="end", label=N_("End of round"), kind="end"),
        )

    def on_round_start(self, state: State) -> State:
        fight, last = self.fight_of(state), self.round_of(state)
        # A Joker who never came in keeps his chance as a hold: he is dealt no card.
        held = (*fight.held, *(c for c in last.jokers if c not in fight.held))
        return self.with_fight(replace(state, round_state=SavageRound()), replace(fight, held=held))

    def on_round_end(self, state: State) -> State:
        fight, this = self.fight_of(state), self.round_of(state)
        out = this.drawn if this.shuffled else (*fight.out, *this.drawn)
        if any(cards.is_joker(card) for card in this.drawn):
            state = log(state, N_("A Joker was dealt this round: the deck is shuffled."))
            out = ()
        return self.with_fight(state, replace(fight, out=out))

    def on_turn_start(self, state: State, slot: int) -> State:
        shaken = self.fight_of(state).shaken
        for combatant_id in state.order[slot].combatants:
            if combatant_id in shaken:
                state = log(
                    state,
                    N_("{name} is Shaken: a Spirit roll of 4 (or a Benny) before acting."),
                    name=who(state, combatant_id),
                )
        return state

    def on_join(self, state: State, combatant_ids: tuple[str, ...]) -> State:
        return log(state, N_("{names}: dealt in from the next round."), names=whos(state, combatant_ids))

    # -- action cards ----------------------------------------------------------------------------
    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        held = set(self.fight_of(state).held)
        requests: list[RollRequest] = []
        groups: dict[str, list[Combatant]] = {}
        for combatant in state.combatants:
            if combatant.status != "active" or combatant.id in held:
                continue
            if combatant.group and not self.sheet(combatant).wild_card:
                groups.setdefault(combatant.group, []).append(combatant)
            else:
                requests.append(
                    RollRequest(key=combatant.id, label=who(state, combatant), dice="", combatants=(combatant.id,))
                )
        for group, members in groups.items():
            common = members[0].name.rpartition(" ")[0] or members[0].name
            ids = tuple(c.id for c in members)
            requests.append(
                RollRequest(
                    key=group,
                    label=Msg(id=N_("{name} (group)"), params={"name": group_ref(state, common, ids, group)}),
                    dice="",
                    combatants=ids,
                )
            )
        return tuple(requests)

    def draws_initiative(self, state: State, request: RollRequest) -> bool:
        return True

    def cards_to_draw(self, state: State, request: RollRequest) -> tuple[int, bool]:
        """How many cards the request draws at first (Level Headed: 2, Improved: 3), and whether it is Quick."""
        sheet = self.sheet(state.combatant(request.combatants[0]))
        return {"no": 1, "yes": 2, "improved": 3}[sheet.level_headed], sheet.quick

    def initiative_help(self, state: State, request: RollRequest) -> str:
        count, quick = self.cards_to_draw(state, request)
        if count > 1 or quick:
            return _("cards drawn, the best kept: 3♣ 9h")
        return _("a card: K♠, 10h, Joker")

    def draw_initiative(
        self,
        state: State,
        requests: tuple[RollRequest, ...],
        rng: random.Random,
        taken: Mapping[str, Roll] | None = None,
    ) -> dict[str, Roll]:
        out = [*self.fight_of(state).out, *(face for r in state.initiative.rolls.values() for face in r.faces)]
        out += [face for r in (taken or {}).values() for face in r.faces]
        this_deal = [face for r in (taken or {}).values() for face in r.faces]
        dealt: dict[str, Roll] = {}
        for request in requests:
            count, quick = self.cards_to_draw(state, request)
            drawn: list[int] = []
            while len(drawn) < count or (quick and cards.low_card(cards.best(drawn))):
                card = cards.deal(out, rng)
                if card is None:  # the deck ran out: shuffled, without the cards of this deal
                    out = list(this_deal)
                    card = cards.deal(out, rng)
                    if card is None:
                        raise RuleError(_("The deck has no card left to deal."))
                drawn.append(card)
                out.append(card)
                this_deal.append(card)
            dealt[request.key] = Roll(expr="", total=cards.best(drawn), faces=tuple(drawn))
        return dealt

    def read_initiative(self, state: State, request: RollRequest, typed: str) -> Roll:
        try:
            drawn = cards.read_cards(typed)
        except cards.CardError:
            raise RuleError(_("type a card such as K♠, 10h or Joker, not “{typed}”.", typed=typed.strip())) from None
        return Roll(expr="", total=cards.best(drawn), faces=drawn, physical=True)

    def initiative_line(self, state: State, request: RollRequest, result: Roll) -> Msg:
        if len(result.faces) > 1:
            return Msg(
                id=N_("{label} draws {cards} and acts on {card}."),
                params={
                    "label": request.label,
                    "cards": [card_word(face) for face in result.faces],
                    "card": card_word(result.total),
                },
            )
        return Msg(id=N_("{label} is dealt {card}."), params={"label": request.label, "card": card_word(result.total)})

    def initiative_value(self, state: State, request: RollRequest, result: Roll) -> int:
        return cards.order_value(result.total)

    def settle_initiative(self, state: State, rolls: Mapping[str, Roll]) -> State:
        drawn = [face for result in rolls.values() for face in result.faces]
        twice = next((card for card in drawn if drawn.count(card) > 1 and not cards.is_joker(card)), None)
        if twice is not None:
            raise RuleError(_("{card} is dealt twice: a deck holds one.", card=card_shown(twice)))
        if drawn.count(cards.JOKERS[0]) + drawn.count(cards.JOKERS[1]) > 2:
            raise RuleError(_("A deck holds two Jokers."))
        fight = self.fight_of(state)
        short = len(cards.DECK) - len(fight.out) < len(drawn)
        stale = next((card for card in drawn if card in fight.out), None)
        if stale is not None and not short:
            raise RuleError(
                _("{card} is out of the deck: it was dealt since the last shuffle.", card=card_shown(stale))
            )
        requests = {request.key: request for request in self.initiative_requests(state)}
        kept: dict[str, int] = {}
        jokers: list[str] = []
        slots: list[tuple[int, Slot]] = []
        for key, result in rolls.items():
            request = requests.get(key)
            if request is None:
                continue
            members = tuple(c for c in request.combatants if state.combatant(c).status == "active")
            kept.update({c: result.total for c in members})
            if cards.is_joker(result.total):
                jokers.extend(members)
                continue
            label = Msg(id="{card}", params={"card": cards.card_text(result.total)})
            slots.append(
                (
                    self.initiative_value(state, request, result),
                    Slot(label=label, combatants=members, value=self.initiative_value(state, request, result)),
                )
            )
        this = SavageRound(cards=kept, drawn=tuple(drawn), jokers=tuple(jokers), shuffled=short)
        state = self.with_round(state, this)
        if short:
            state = log(state, N_("The deck ran out during the deal and was shuffled."))
        if jokers:
            state = log(
                state,
                N_("Joker: {names} may act at any time this round, +2 to trait and damage rolls."),
                names=whos(state, jokers),
            )
        return settle(state, [slot for _value, slot in sorted(slots, key=lambda pair: pair[0], reverse=True)])

    # -- out of the order: Jokers and holds ------------------------------------------------------
    def out_of_order(self, state: State) -> tuple[Waiting, ...]:
        if state.phase != "round":
            return ()
        held, jokers = self.fight_of(state).held, self.round_of(state).jokers
        return (
            *(Waiting(combatant=c, label=Msg(id=N_("Joker: acts at any time"))) for c in jokers),
            *(Waiting(combatant=c, label=Msg(id=N_("on hold"))) for c in held if c not in jokers),
        )

    def bring_in(self, state: State, combatant_id: str) -> State:
        fight, this = self.fight_of(state), self.round_of(state)
        state = self.with_round(state, replace(this, jokers=tuple(c for c in this.jokers if c != combatant_id)))
        return self.with_fight(state, replace(fight, held=tuple(c for c in fight.held if c != combatant_id)))

    def has_joker(self, state: State, combatant_id: str) -> bool:
        card = self.round_of(state).cards.get(combatant_id)
        return card is not None and cards.is_joker(card)

    # -- actions ---------------------------------------------------------------------------------
    def action_available(self, state: State, name: str, combatant_id: str | None) -> bool:
        if state.phase != "round" or combatant_id is None or state.combatant(combatant_id).status != "active":
            return False
        if name == "recover":
            return combatant_id in self.fight_of(state).shaken
        if self.step_kind(state) != "resolve":
            return False
        if name == "hold":
            return combatant_id in state.acting_now()
        return True

    def action_fields(self, state: State, name: str, combatant_id: str) -> tuple[FieldSpec, ...]:
        combatant = state.combatant(combatant_id)
        sheet = self.sheet(combatant)
        wild = (FieldSpec(key="wild", label=N_("Wild Die"), kind="roll", default=WILD_DIE),) if sheet.wild_card else ()
        if name == "recover":
            return (
                FieldSpec(key="benny", label=N_("A Benny spent"), kind="bool", default=False),
                FieldSpec(
                    key="spirit",
                    label=N_("Spirit roll"),
                    kind="roll",
                    default=sheet.spirit,
                    help=N_("Not used when a Benny is spent."),
                ),
                *wild,
            )
        if name != "attack":
            return ()
        foes = [c for c in state.combatants if c.side != combatant.side and c.status == "active"]
        return (
            FieldSpec(key="target", label=N_("Target"), kind="choice", choices=tuple((c.id, c.name) for c in foes)),
            FieldSpec(
                key="range",
                label=N_("Attack"),
                kind="choice",
                default="melee",
                choices=(("melee", N_("melee: against Parry")), ("ranged", N_("ranged: against 4"))),
            ),
            FieldSpec(key="modifier", label=N_("Other modifiers"), kind="int", default=0, minimum=-20, maximum=20),
            FieldSpec(key="trait", label=N_("Attack roll"), kind="roll", default=sheet.skill),
            *wild,
        )

    def apply_action(self, state: State, name: str, args: dict[str, Any]) -> State:
        combatant = self.actor(state, str(args.get("combatant", "")))
        if name == "hold":
            return self.hold(state, combatant)
        if name == "recover":
            return self.recover(state, combatant, args)
        if name == "attack":
            return self.attack(state, combatant, args)
        raise RuleError(_("Unknown action {name}.", name=name))

    def hold(self, state: State, combatant: Combatant) -> State:
        order = tuple(
            replace(slot, combatants=tuple(c for c in slot.combatants if c != combatant.id)) for slot in state.order
        )
        fight = self.fight_of(state)
        state = self.with_fight(replace(state, order=order), replace(fight, held=(*fight.held, combatant.id)))
        return log(state, N_("{name} goes on hold."), name=who(state, combatant))

    def trait_total(
        self, combatant: Combatant, args: Mapping[str, Any], key: str, label: str
    ) -> tuple[int, tuple[Roll, ...], Param]:
        """The trait die (and the Wild Die for a Wild Card: the higher counts): the total, the rolls, and the
        rolls as a log parameter."""
        trait = roll_of(args, key, label)
        if not self.sheet(combatant).wild_card:
            return trait.total, (trait,), roll_param(trait)
        wild = roll_of(args, "wild", N_("Wild Die"))
        shown = Msg(id=N_("{trait}, Wild Die {wild}"), params={"trait": roll_param(trait), "wild": roll_param(wild)})
        return max(trait.total, wild.total), (trait, wild), shown

    def recover(self, state: State, combatant: Combatant, args: Mapping[str, Any]) -> State:
        fight = self.fight_of(state)
        if combatant.id not in fight.shaken:
            raise RuleError(_("{name} is not Shaken.", name=combatant.name))
        unshaken = replace(fight, shaken=tuple(c for c in fight.shaken if c != combatant.id))
        name = who(state, combatant)
        if args.get("benny"):
            return log(self.with_fight(state, unshaken), N_("{name} spends a Benny: no longer Shaken."), name=name)
        total, rolls, shown = self.trait_total(combatant, args, "spirit", N_("Spirit roll"))
        total -= min(self.wounds(combatant), MOST_WOUNDS)
        success = total >= TARGET_NUMBER
        result = Msg(id=N_("no longer Shaken") if success else N_("still Shaken"))
        state = log(
            state,
            N_("{name}: Spirit {roll} → {total} against 4: {result}."),
            rolls=rolls,
            facts={"total": total, "recovered": success},
            public=Msg(id=N_("{name}: {result}."), params={"name": name, "result": result}),
            name=name,
            roll=shown,
            total=total,
            result=result,
        )
        return self.with_fight(state, unshaken) if success else state

    def reckon(self, state: State, attacker: Combatant, args: Mapping[str, Any]) -> Reckoning:
        """What an attack needs, as the form stands or as it is made: the target, the number to reach (his Parry in
        melee, 4 at range) and what is added to the roll (the modifiers typed, +2 with a Joker, −1 a wound). The
        attack and the form's chance before the roll both read it, so the two cannot disagree."""
        try:
            target = state.combatant(str(args.get("target", "")))
        except KeyError:
            raise RuleError(_("Choose a target.")) from None
        try:
            modifier = int(args.get("modifier", 0) or 0)
        except (TypeError, ValueError):
            raise RuleError(_("Other modifiers: a whole number.")) from None
        joker = JOKER_BONUS if self.has_joker(state, attacker.id) else 0
        wounds = min(self.wounds(attacker), MOST_WOUNDS) if self.sheet(attacker).wild_card else 0
        melee = args.get("range", "melee") == "melee"
        needed = self.sheet(target).parry if melee else TARGET_NUMBER
        return Reckoning(target=target, needed=needed, melee=melee, joker=joker, added=modifier + joker - wounds)

    def chance(self, combatant: Combatant, trait: str, target: int) -> float | None:
        """The chance that his trait die (and the Wild Die for a Wild Card: the higher counts) reaches ``target``."""
        if self.sheet(combatant).wild_card:
            return odds.wild_card_reaches(trait, WILD_DIE, target)
        return odds.trait_reaches(trait, target)

    def form_preview(self, state: State, name: str, combatant_id: str, values: Mapping[str, Any]) -> str:
        """Before the roll: what the attack needs and the chance of a hit and of a raise; what recovering needs."""
        if not combatant_id:
            return ""
        combatant = state.combatant(combatant_id)
        sheet = self.sheet(combatant)
        if name == "recover":
            if values.get("benny") in (True, "true", "yes"):
                return ""
            added = -min(self.wounds(combatant), MOST_WOUNDS)
            chance = self.chance(combatant, sheet.spirit, TARGET_NUMBER - added)
            if chance is None:
                return ""
            shown = f"{added:+d}"
            return _(
                "Needs 4 on Spirit, {added} on the roll: {chance}% to recover.", added=shown, chance=round(chance * 100)
            )
        if name != "attack" or not values.get("target"):
            return ""
        reckoning = self.reckon(state, combatant, values)
        hit = self.chance(combatant, sheet.skill, reckoning.needed - reckoning.added)
        raised = self.chance(combatant, sheet.skill, reckoning.needed + RAISE - reckoning.added)
        if hit is None or raised is None:
            return ""
        against = _("Parry") if reckoning.melee else _("at range")
        on_the_roll = f"{reckoning.added:+d}"
        return _(
            "Needs {needed} ({against}), {added} on the roll: {hit}% to hit, {raised}% with a raise.",
            needed=reckoning.needed,
            against=against,
            added=on_the_roll,
            hit=round(hit * 100),
            raised=round(raised * 100),
        )

    def attack(self, state: State, attacker: Combatant, args: Mapping[str, Any]) -> State:
        if attacker.id in self.fight_of(state).shaken:
            raise RuleError(_("{name} is Shaken: recovery comes first.", name=attacker.name))
        reckoning = self.reckon(state, attacker, args)
        target = reckoning.target
        if target.side == attacker.side or target.status != "active":
            raise RuleError(_("{name} cannot be attacked now.", name=target.name))
        rolled, rolls, shown = self.trait_total(attacker, args, "trait", N_("Attack roll"))
        total = rolled + reckoning.added
        needed = reckoning.needed
        hit, raised = total >= needed, total >= needed + RAISE
        result = Msg(id=N_("a hit with a raise") if raised else N_("a hit") if hit else N_("a miss"))
        return log(
            state,
            N_("{attacker} attacks {target}: {roll}, {modifiers} → {total} against {needed}: {result}."),
            rolls=rolls,
            facts={
                "attacker": attacker.id,
                "target": target.id,
                "hit": hit,
                "raise": raised,
                "total": total,
                "needed": needed,
                "joker": bool(reckoning.joker),
            },
            attacker=who(state, attacker),
            target=who(state, target),
            roll=shown,
            modifiers=f"{reckoning.added:+d}",
            total=total,
            needed=needed,
            result=result,
        )

    def damage_due(self, before: State, after: State, name: str, args: Mapping[str, Any]) -> DamageDue | None:
        facts = new_attack(before, after, args.get("combatant")) if name == "attack" else None
        if not facts or not facts.get("hit"):
            return None
        attacker = after.combatant(str(args["combatant"]))
        dice = self.sheet(attacker).damage + ("+1d6!" if facts.get("raise") else "")
        dice = with_bonus(dice, JOKER_BONUS if facts.get("joker") else 0)
        what = Msg(id=N_("a raise: +1d6")) if facts.get("raise") else ""
        return DamageDue(
            target=str(facts["target"]),
            dice=dice,
            what=what,
            note=Msg(
                id=N_("Against Toughness {toughness}: a success Shakes, each raise is a wound."),
                params={"toughness": self.sheet(after.combatant(str(facts["target"]))).toughness},
            ),
        )

    # -- what the screens show -------------------------------------------------------------------
    def details(self, state: State, combatant_id: str) -> tuple[tuple[str, str], ...]:
        combatant = state.combatant(combatant_id)
        sheet = self.sheet(combatant)
        lines: list[tuple[str, str]] = []
        card = self.round_of(state).cards.get(combatant_id) if state.phase == "round" else None
        if card is not None:
            lines.append((_("Card"), card_shown(card)))
        if combatant_id in self.fight_of(state).held:
            lines.append((_("Card"), _("on hold")))
        if combatant_id in self.fight_of(state).shaken:
            lines.append((_("Shaken"), _("yes")))
        if sheet.wild_card:
            lines.append((_("Wounds"), _("{n} of {most}", n=self.wounds(combatant), most=MOST_WOUNDS)))
        lines.append((_("Parry / Toughness"), f"{sheet.parry} / {sheet.toughness}"))
        return tuple(lines)

    def summary_columns(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        # Parry is on the card: the set-up table has room for three short columns at 80 columns.
        return ((N_("Wild Card"), ("wild_card",)), (N_("Attack die"), ("skill",)), (N_("Toughness"), ("toughness",)))


RULESET = SavageWorlds()
