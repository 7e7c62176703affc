"""The engine ⇄ ruleset contract, one test per wall a new ruleset family ran into.

Each test defines the few hooks a family needs in a small ruleset of its own (5e, Player's Option,
OSE …), registers it, and plays it through ``apply``; the expected numbers are worked out by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from tests.common import Faces, ids, order_names, typed
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply, initiative_asked
from tui_combat.engine.contract import ActionSpec, AnyRuleset, BudgetLine, NoState, Ruleset, StepDef
from tui_combat.engine.dice import Roll, roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.initiative import ask, fresh_key, settle, totals
from tui_combat.engine.log import Msg, log
from tui_combat.engine.model import Combatant, RollRequest, Slot, State, Status
from tui_combat.fight.store import Store
from tui_combat.i18n import N_

Register = Callable[[AnyRuleset], None]


@pytest.fixture
def register() -> Iterator[Register]:
    yield registry.register
    registry.forget()


def named(text: str, **params: str | int | Msg) -> Msg:
    return Msg(id=text, params=dict(params))


def build(ruleset_id: str, sides: Mapping[str, list[tuple[str, int, dict[str, Any]]]]) -> list[a.Action]:
    """The actions that set up a fight: sides s1, s2 … in order, then their combatants."""
    actions: list[a.Action] = [a.SetRuleset(ruleset=ruleset_id)]
    actions += [a.AddSide(name=name, is_party=number == 0) for number, name in enumerate(sides)]
    for number, members in enumerate(sides.values()):
        actions += [
            a.AddCombatants(side=f"s{number + 1}", name=name, hp=hp, sheet=sheet) for name, hp, sheet in members
        ]
    return actions


def play(actions: list[a.Action], state: State | None = None) -> State:
    state = state or State(seed=1)
    for action in actions:
        state = apply(state, action)
    return state


def step_kind(ruleset: AnyRuleset, state: State) -> str:
    return ruleset.steps(state)[state.step].kind


def dex_modifier(combatant: Combatant) -> int:
    return (int(combatant.sheet.get("dex", 10)) - 10) // 2


def members(state: State, side_id: str) -> tuple[str, ...]:
    return tuple(c.id for c in state.combatants if c.side == side_id and c.status == "active")


def roll_history(rolls: Mapping[str, Roll], skip_first: bool = False) -> dict[str, tuple[int, ...]]:
    """Roll key base → the totals rolled under it, in order ("s1", then "s1#2", "s1#3" …)."""
    history: dict[str, tuple[int, ...]] = {}
    for key, rolled in rolls.items():
        base = key.partition("#")[0]
        if skip_first and key == base:
            continue
        history[base] = (*history.get(base, ()), rolled.total)
    return history


def resume(store: Store, folder: Path, compact: bool) -> Store:
    """Quit and start again from the folder; ``compact`` first folds the journal into a snapshot."""
    if compact:
        store.save_now()
    store.close()
    return Store.resume(folder)


# -- a tie reroll through pending requests, across a restart ------------------------------------------
class SideD20(Ruleset[NoState, NoState]):
    """5e side initiative: one d20 per side, highest first; tied sides reroll until one wins."""

    id = "test-side-d20"
    name = "Side d20"
    round_state_type = NoState
    fight_state_type = NoState

    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        return tuple(
            RollRequest(key=s.id, label=named("{name}", name=s.name), dice="1d20", combatants=members(state, s.id))
            for s in state.sides
        )

    def settle_initiative(self, state: State, rolls: Mapping[str, Roll]) -> State:
        history = roll_history(rolls)
        sequences = list(history.values())
        tied = [side for side, sequence in history.items() if sequences.count(sequence) > 1]
        if tied:
            return ask(
                state,
                [
                    RollRequest(
                        key=fresh_key(state, side),
                        dice="1d20",
                        combatants=members(state, side),
                        label=named(N_("{name} (reroll)"), name=state.side(side).name),
                    )
                    for side in tied
                ],
            )
        ranking = sorted(history, key=history.__getitem__, reverse=True)
        return settle(
            state,
            [
                Slot(
                    label=named("{name}", name=state.side(side).name),
                    combatants=members(state, side),
                    value=history[side][0],
                    free=True,
                )
                for side in ranking
            ],
        )


@pytest.mark.parametrize("compact", [False, True], ids=["journal", "snapshot"])
def test_a_tie_reroll_settles_through_pending_requests_and_survives_a_restart(
    register: Register, tmp_path: Path, compact: bool
) -> None:
    register(SideD20())
    folder = tmp_path / "s"
    store = Store.create(State(seed=3), folder)
    for action in build("test-side-d20", {"Party": [("Ada", 10, {})], "Orcs": [("Orc", 6, {})]}):
        store.dispatch(action)
    store.dispatch(a.StartFight())
    store.dispatch(a.RollInitiative(rolls={"s1": typed("1d20", 12), "s2": typed("1d20", 12)}))
    store.dispatch(a.RollInitiative(rolls={"s1#2": typed("1d20", 7), "s2#2": typed("1d20", 7)}))  # tied again
    pending = store.state.initiative.pending
    assert [(r.key, str(r.label)) for r in pending] == [("s1#3", "Party (reroll)"), ("s2#3", "Orcs (reroll)")]
    assert not store.state.initiative.settled

    store = resume(store, folder, compact)
    assert store.state.initiative.pending == pending
    assert initiative_asked(registry.get("test-side-d20"), store.state) == (pending, False)
    with pytest.raises(RuleError, match="Initiative still needs: Party .reroll., Orcs .reroll."):
        store.dispatch(a.NextStep())

    store.dispatch(a.RollInitiative(rolls={"s1#3": typed("1d20", 3), "s2#3": typed("1d20", 17)}))
    state = store.state
    assert state.initiative.settled and state.initiative.pending == ()
    assert order_names(state) == [["Orc"], ["Ada"]]
    assert [str(s.label) for s in state.order] == ["Orcs", "Party"]
    assert list(state.initiative.rolls) == ["s1", "s2", "s1#2", "s2#2", "s1#3", "s2#3"]
    store.close()


# -- a roll-off: ties by Dexterity, then a roll-off for those still tied ---------------------------------
class SpeedFactor(Ruleset[NoState, NoState]):
    """5e speed factor: a secret d20 + Dex modifier each; ties go to the higher Dexterity, then to a roll-off."""

    id = "test-speed-factor"
    name = "Speed factor"
    round_state_type = NoState
    fight_state_type = NoState

    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        return tuple(
            RollRequest(
                key=c.id,
                label=named("{name}", name=c.name),
                dice="1d20",
                modifier=dex_modifier(c),
                combatants=(c.id,),
                secret=True,
            )
            for c in state.combatants
            if c.status == "active"
        )

    def settle_initiative(self, state: State, rolls: Mapping[str, Roll]) -> State:
        first = totals(self.initiative_requests(state), rolls)
        roll_offs = roll_history(rolls, skip_first=True)
        rank = {cid: (first[cid], int(state.combatant(cid).sheet["dex"]), *roll_offs.get(cid, ())) for cid in first}
        ranks = list(rank.values())
        tied = [cid for cid, value in rank.items() if ranks.count(value) > 1]
        if tied:
            return ask(
                state,
                [
                    RollRequest(
                        key=fresh_key(state, cid),
                        dice="1d20",
                        combatants=(cid,),
                        secret=True,
                        label=named(N_("{name}, roll-off"), name=state.combatant(cid).name),
                    )
                    for cid in tied
                ],
            )
        ranking = sorted(rank, key=rank.__getitem__, reverse=True)
        return settle(
            state,
            [Slot(label=named("{value}", value=first[cid]), combatants=(cid,), value=first[cid]) for cid in ranking],
        )


@pytest.mark.parametrize("compact", [False, True], ids=["journal", "snapshot"])
def test_a_roll_off_breaks_what_dexterity_cannot_and_survives_a_restart(
    register: Register, tmp_path: Path, compact: bool
) -> None:
    register(SpeedFactor())
    folder = tmp_path / "s"
    store = Store.create(State(seed=3), folder)
    sides = {
        "Party": [("Ada", 10, {"dex": 14}), ("Bram", 10, {"dex": 12})],
        "Orcs": [("Orc", 6, {"dex": 12}), ("Ogre", 20, {"dex": 8})],
    }
    for action in build("test-speed-factor", sides):
        store.dispatch(action)
    store.dispatch(a.StartFight())
    who = ids(store.state)
    # Ada 13 + 2 = 15 (Dex 14), Bram 14 + 1 = 15 (Dex 12), Orc 14 + 1 = 15 (Dex 12), Ogre 10 − 1 = 9.
    store.dispatch(
        a.RollInitiative(
            rolls={
                who["Ada"]: typed("1d20", 13),
                who["Bram"]: typed("1d20", 14),
                who["Orc"]: typed("1d20", 14),
                who["Ogre"]: typed("1d20", 10),
            }
        )
    )
    pending = store.state.initiative.pending
    assert [str(r.label) for r in pending] == ["Bram, roll-off", "Orc, roll-off"]  # Ada's Dexterity already wins
    assert all(r.secret for r in pending)

    store = resume(store, folder, compact)
    assert store.state.initiative.pending == pending
    store.dispatch(a.RollInitiative(rolls={pending[0].key: typed("1d20", 8), pending[1].key: typed("1d20", 13)}))
    state = store.state
    assert order_names(state) == [["Ada"], ["Orc"], ["Bram"], ["Ogre"]]
    assert [s.value for s in state.order] == [15, 15, 15, 9]
    order_entry = state.log_entries()[-1]
    assert order_entry.text.startswith("Order: ") and order_entry.secret  # speed factor rolls are the GM's
    store.close()


# -- surprise per combatant, with disadvantage on initiative ----------------------------------------------
class Surprise5e(Ruleset[NoState, NoState]):
    """5e (2024): surprise is per creature, and a surprised creature rolls initiative with disadvantage.
    The surprise roll itself is a house rule here (1d6, surprised on 1–2) to exercise per-combatant rolls."""

    id = "test-surprise-5e"
    name = "Surprise 5e"
    surprise_scope = "combatant"
    order_policy = "fight"
    round_state_type = NoState
    fight_state_type = NoState

    def surprise_dice(self) -> str:
        return "1d6"

    def is_surprised(self, total: int) -> bool:
        return total <= 2

    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        return tuple(
            RollRequest(
                key=c.id,
                label=named("{name}", name=c.name),
                modifier=dex_modifier(c),
                dice="d20dis" if c.id in state.surprised else "1d20",
                combatants=(c.id,),
            )
            for c in state.combatants
            if c.status == "active"
        )


def test_a_surprised_creature_rolls_initiative_with_disadvantage(register: Register) -> None:
    ruleset = Surprise5e()
    register(ruleset)
    state = play(
        build(
            "test-surprise-5e",
            {"Party": [("Ada", 10, {"dex": 14}), ("Bram", 10, {"dex": 10})], "Goblins": [("Goblin", 7, {"dex": 14})]},
        )
    )
    who = ids(state)
    state = apply(state, a.BeginSurprise())
    assert [r.key for r in ruleset.surprise_requests(state)] == [who["Ada"], who["Bram"], who["Goblin"]]
    state = apply(
        state,
        a.RollSurprise(
            rolls={who["Ada"]: typed("1d6", 5), who["Bram"]: typed("1d6", 3), who["Goblin"]: typed("1d6", 2)}
        ),
    )
    assert state.surprised == (who["Goblin"],)  # a combatant, not his side
    assert state.log_entries()[-1].text == "Surprise — Goblin: 1d6 (typed): 2: surprised."

    state = apply(state, a.StartFight())
    asked, _fresh = initiative_asked(ruleset, state)
    assert [(r.key, r.dice, r.modifier) for r in asked] == [
        (who["Ada"], "1d20", 2),
        (who["Bram"], "1d20", 0),
        (who["Goblin"], "d20dis", 2),
    ]
    # The goblin's two d20s show 15 and 4: the lower, 4, counts, + 2 = 6. Ada 9 + 2 = 11, Bram 5.
    state = apply(
        state,
        a.RollInitiative(
            rolls={
                who["Ada"]: roll("1d20", Faces(9)),
                who["Bram"]: roll("1d20", Faces(5)),
                who["Goblin"]: roll("d20dis", Faces(15, 4)),
            }
        ),
    )
    goblin_entry = next(e for e in state.log_entries() if e.text.startswith("Initiative — Goblin"))
    assert goblin_entry.rolls[0].faces == (15, 4) and goblin_entry.rolls[0].total == 4
    assert goblin_entry.facts == {"total": 6}
    assert goblin_entry.text == "Initiative — Goblin: d20dis: [(15), 4] = 4 +2 = 6."
    assert order_names(state) == [["Ada"], ["Goblin"], ["Bram"]]
    assert [s.value for s in state.order] == [11, 6, 5]


def test_the_gm_can_mark_single_combatants_surprised(register: Register) -> None:
    register(Surprise5e())
    state = play(
        build("test-surprise-5e", {"Party": [("Ada", 10, {}), ("Bram", 10, {})], "Goblins": [("Goblin", 7, {})]})
    )
    state = apply(state, a.BeginSurprise())
    state = apply(state, a.SetSurprised(combatants=(ids(state)["Bram"],)))
    assert state.surprised == (ids(state)["Bram"],)
    assert state.log_entries()[-1].text == "The GM rules who is surprised: Bram."


# -- a fixed order for the whole fight, joined by a newcomer ------------------------------------------------
class TurnsTaken(msgspec.Struct, frozen=True, kw_only=True):
    started: tuple[str, ...] = ()
    """Names of those whose turn started this round, in order."""


class FixedOrder(Ruleset[TurnsTaken, NoState]):
    """5e standard initiative: rolled once (d20 + Dex modifier), kept all fight; a newcomer rolls and joins."""

    id = "test-fixed-order"
    name = "Fixed order"
    order_policy = "fight"
    round_state_type = TurnsTaken
    fight_state_type = NoState

    def steps(self, state: State) -> tuple[StepDef, ...]:
        resolve = StepDef(id="resolve", label=N_("Resolve"), kind="resolve")
        end = StepDef(id="end", label=N_("End of round"), kind="end")
        if state.round <= 1:
            return (StepDef(id="initiative", label=N_("Initiative"), kind="initiative"), resolve, end)
        return (resolve, end)

    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        return tuple(
            RollRequest(
                key=c.id, label=named("{name}", name=c.name), dice="1d20", modifier=dex_modifier(c), combatants=(c.id,)
            )
            for c in state.combatants
            if c.status == "active"
        )

    def settle_initiative(self, state: State, rolls: Mapping[str, Roll]) -> State:
        values = {key: rolled.total + dex_modifier(state.combatant(key)) for key, rolled in rolls.items()}
        ranking = sorted(values, key=values.__getitem__, reverse=True)
        return settle(
            state, [Slot(label=named("{value}", value=values[c]), combatants=(c,), value=values[c]) for c in ranking]
        )

    def on_join(self, state: State, combatant_ids: tuple[str, ...]) -> State:
        if not state.initiative.settled:
            return state  # the order is still to be rolled: the newcomer is among the first requests
        return ask(
            state,
            [
                RollRequest(
                    key=fresh_key(state, cid),
                    label=named("{name}", name=state.combatant(cid).name),
                    dice="1d20",
                    modifier=dex_modifier(state.combatant(cid)),
                    combatants=(cid,),
                )
                for cid in combatant_ids
            ],
        )

    def on_turn_start(self, state: State, slot: int) -> State:
        names = state.names()
        started = self.round_of(state).started + tuple(names[c] for c in state.order[slot].combatants)
        return self.with_round(state, TurnsTaken(started=started))


def test_a_fixed_order_is_kept_and_a_newcomer_joins_it(register: Register) -> None:
    ruleset = FixedOrder()
    register(ruleset)
    state = play(
        build(
            "test-fixed-order",
            {"Party": [("Ada", 10, {"dex": 16}), ("Bram", 10, {"dex": 10})], "Orcs": [("Orc", 6, {"dex": 12})]},
        )
    )
    state = apply(state, a.StartFight())
    who = ids(state)
    # Ada 12 + 3 = 15, Bram 8, Orc 10 + 1 = 11.
    state = apply(
        state,
        a.RollInitiative(
            rolls={who["Ada"]: typed("1d20", 12), who["Bram"]: typed("1d20", 8), who["Orc"]: typed("1d20", 10)}
        ),
    )
    round_1_order = state.order
    assert order_names(state) == [["Ada"], ["Orc"], ["Bram"]]
    for _step in range(4):  # Ada → Orc → Bram → end of round → round 2
        state = apply(state, a.NextStep())
    assert state.round == 2

    # Round 2: no roll asked for; the same order, and Ada's turn has started.
    assert state.order == round_1_order and state.initiative.settled
    assert step_kind(ruleset, state) == "resolve" and state.cursor == 0
    assert initiative_asked(ruleset, state) == ((), False)
    assert ruleset.round_of(state).started == ("Ada",)
    assert not [e for e in state.log_entries() if e.round == 2 and e.text.startswith("Initiative")]

    # During the orc's turn a wolf (Dex 14) joins and rolls 10: 10 + 2 = 12, between Ada (15) and the orc (11).
    state = apply(state, a.NextStep())
    assert state.acting_now() == (who["Orc"],)
    state = apply(state, a.AddCombatants(side="s2", name="Wolf", hp=11, sheet={"dex": 14}))
    wolf = ids(state)["Wolf"]
    assert [(r.key, str(r.label), r.modifier) for r in state.initiative.pending] == [(wolf, "Wolf", 2)]
    assert initiative_asked(ruleset, state) == (state.initiative.pending, False)
    state = apply(state, a.RollInitiative(rolls={wolf: typed("1d20", 10)}))
    assert order_names(state) == [["Ada"], ["Wolf"], ["Orc"], ["Bram"]]
    assert [s.value for s in state.order] == [15, 12, 11, 8]
    # The orc's turn goes on: the cursor follows him and his turn does not start twice.
    assert state.acting_now() == (who["Orc"],) and step_kind(ruleset, state) == "resolve"
    assert ruleset.round_of(state).started == ("Ada", "Orc")
    state = apply(state, a.NextStep())
    assert ruleset.round_of(state).started == ("Ada", "Orc", "Bram")

    for _step in range(2):  # end of round 2 → round 3
        state = apply(state, a.NextStep())
    assert state.round == 3 and order_names(state) == [["Ada"], ["Wolf"], ["Orc"], ["Bram"]]
    state = apply(state, a.NextStep())
    assert ruleset.round_of(state).started == ("Ada", "Wolf")


# -- a turn-start hook refreshing a per-turn budget --------------------------------------------------------
class ReactionsSpent(msgspec.Struct, frozen=True, kw_only=True):
    spent: tuple[str, ...] = ()
    """Who has used his reaction since his own turn last started."""


class Reactions(Ruleset[TurnsTaken, ReactionsSpent]):
    """5e static initiative (10 + Dex modifier, no roll) and a reaction that comes back at the start of
    its owner's turn, whenever that is."""

    id = "test-reactions"
    name = "Reactions"
    actions = (ActionSpec(name="opportunity_attack", key="o", label=N_("Opportunity attack")),)
    round_state_type = TurnsTaken
    fight_state_type = ReactionsSpent

    def steps(self, state: State) -> tuple[StepDef, ...]:
        return (
            StepDef(id="resolve", label=N_("Resolve"), kind="resolve"),
            StepDef(id="end", label=N_("End of round"), kind="end"),
        )

    def on_round_start(self, state: State) -> State:
        values = {c.id: 10 + dex_modifier(c) for c in state.combatants if c.status == "active"}
        ranking = sorted(values, key=values.__getitem__, reverse=True)
        return settle(
            super().on_round_start(state),
            [Slot(label=named("{value}", value=values[c]), combatants=(c,), value=values[c]) for c in ranking],
        )

    def on_turn_start(self, state: State, slot: int) -> State:
        fight = self.fight_of(state)
        refreshed = tuple(c for c in fight.spent if c not in state.order[slot].combatants)
        names = state.names()
        started = self.round_of(state).started + tuple(names[c] for c in state.order[slot].combatants)
        state = self.with_round(state, TurnsTaken(started=started))
        return self.with_fight(state, replace(fight, spent=refreshed))

    def action_available(self, state: State, name: str, combatant_id: str | None) -> bool:
        return (
            state.phase == "round"
            and combatant_id is not None
            and state.combatant(combatant_id).status == "active"
            and combatant_id not in self.fight_of(state).spent
        )

    def apply_action(self, state: State, name: str, args: dict[str, object]) -> State:
        attacker = self.actor(state, str(args["combatant"]))
        fight = self.fight_of(state)
        state = self.with_fight(state, replace(fight, spent=(*fight.spent, attacker.id)))
        return log(state, N_("{name} makes an opportunity attack."), name=attacker.name, facts={"reaction": True})

    def budget(self, state: State, combatant_id: str) -> tuple[BudgetLine, ...]:
        return (BudgetLine(label="Reaction", left=0 if combatant_id in self.fight_of(state).spent else 1, total=1),)


def reactions_left(ruleset: AnyRuleset, state: State) -> dict[str, int]:
    return {c.name: ruleset.budget(state, c.id)[0].left for c in state.combatants}


def test_a_reaction_comes_back_only_when_its_owners_turn_starts(register: Register) -> None:
    ruleset = Reactions()
    register(ruleset)
    state = play(
        build(
            "test-reactions",
            {"Party": [("Ada", 10, {"dex": 16}), ("Bram", 10, {"dex": 10})], "Orcs": [("Orc", 6, {"dex": 12})]},
        )
    )
    who = ids(state)
    state = apply(state, a.StartFight())
    # Static initiative: Ada 10 + 3 = 13, Orc 10 + 1 = 11, Bram 10. The round opens on Ada's turn.
    assert order_names(state) == [["Ada"], ["Orc"], ["Bram"]] and [s.value for s in state.order] == [13, 11, 10]
    assert step_kind(ruleset, state) == "resolve" and state.acting_now() == (who["Ada"],)
    assert ruleset.round_of(state).started == ("Ada",)

    state = apply(state, a.NextStep())  # the orc's turn
    state = apply(state, a.NextStep())  # Bram's turn: the orc, his own turn over, strikes at Bram as he moves away
    state = apply(state, a.RulesetAction(name="opportunity_attack", args={"combatant": who["Orc"]}))
    assert reactions_left(ruleset, state) == {"Ada": 1, "Bram": 1, "Orc": 0}
    state = apply(state, a.NextStep())  # end of round 1
    state = apply(state, a.NextStep())  # round 2: Ada's turn
    assert state.round == 2 and state.acting_now() == (who["Ada"],)
    assert ruleset.round_of(state).started == ("Ada",)
    assert reactions_left(ruleset, state) == {"Ada": 1, "Bram": 1, "Orc": 0}  # not at the round's start
    state = apply(state, a.NextStep())  # the orc's own turn
    assert state.acting_now() == (who["Orc"],)
    assert reactions_left(ruleset, state) == {"Ada": 1, "Bram": 1, "Orc": 1}


# -- colliding keys are refused when a ruleset is loaded ---------------------------------------------------
class ShoveOnNext(Ruleset[NoState, NoState]):
    id = "test-clash-app"
    name = "Clash with the app"
    actions = (ActionSpec(name="shove", key="n", label=N_("Shove")),)
    round_state_type = NoState
    fight_state_type = NoState


class TwoOnOneKey(Ruleset[NoState, NoState]):
    id = "test-clash-actions"
    name = "Clash between actions"
    actions = (
        ActionSpec(name="shove", key="s", label=N_("Shove")),
        ActionSpec(name="grapple", key="g,s", label=N_("Grapple")),
    )
    round_state_type = NoState
    fight_state_type = NoState


def test_a_key_colliding_with_the_apps_is_refused_at_load(register: Register) -> None:
    with pytest.raises(RuleError) as refused:
        register(ShoveOnNext())
    assert str(refused.value) == "Ruleset Clash with the app: the key n of Shove is already the app's key for Next."
    with pytest.raises(RuleError, match="Unknown ruleset"):
        registry.get("test-clash-app")


def test_two_actions_on_one_key_are_refused_at_load(register: Register) -> None:
    with pytest.raises(RuleError) as refused:
        register(TwoOnOneKey())
    assert str(refused.value) == "Ruleset Clash between actions: the key s is used by both Grapple and Shove."


# -- Player's Option: the faces of the side rolls, and a critical event on a tie ---------------------------
PHASES = {1: N_("very fast"), 2: N_("fast"), 3: N_("average"), 4: N_("slow"), 5: N_("very slow")}
CRITICAL_EVENTS = (
    (2, N_("armour trouble")),
    (4, N_("battlefield damaged")),
    (5, N_("battlefield shifts")),
    (6, N_("close quarters")),
    (7, N_("item damaged")),
    (8, N_("item dropped")),
    (11, N_("knock down")),
    (12, N_("lucky break")),
    (13, N_("lucky opening")),
    (15, N_("mount trouble")),
    (16, N_("reinforcements")),
    (17, N_("retreat")),
    (18, N_("slip")),
    (20, N_("weapon trouble")),
)


class PhasedSides(Ruleset[NoState, NoState]):
    """Player's Option: a d10 per side, lowest wins; a natural 1 makes the side's phases one faster, a
    10 one slower; equal rolls call for a d20 on the critical events table, and the tied sides then act
    together within each phase."""

    id = "test-phased-sides"
    name = "Phased sides"
    round_state_type = NoState
    fight_state_type = NoState

    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        return tuple(
            RollRequest(key=s.id, label=named("{name}", name=s.name), dice="1d10", combatants=members(state, s.id))
            for s in state.sides
        )

    def settle_initiative(self, state: State, rolls: Mapping[str, Roll]) -> State:
        sides = {s.id: rolls[s.id] for s in state.sides if s.id in rolls}
        lowest = min(r.total for r in sides.values())
        if [r.total for r in sides.values()].count(lowest) > 1:
            if "critical" not in rolls:
                return ask(state, [RollRequest(key="critical", label=named(N_("Critical event")), dice="1d20")])
            event = next(name for last, name in CRITICAL_EVENTS if rolls["critical"].total <= last)
            state = log(state, N_("Critical event: {event}."), event=named(event), facts={"critical_event": event})
        places: dict[tuple[int, int], list[str]] = {}
        for side_id, side_roll in sides.items():
            natural = side_roll.faces[0] if side_roll.faces else side_roll.total
            shift = -1 if natural == 1 else 1 if natural == 10 else 0
            for cid in members(state, side_id):
                phase = min(max(int(state.combatant(cid).sheet["phase"]) + shift, 1), 5)
                places.setdefault((phase, side_roll.total), []).append(cid)
        return settle(
            state,
            [
                Slot(label=named(PHASES[phase]), combatants=tuple(ids), value=phase)
                for (phase, _total), ids in sorted(places.items())
            ],
        )


def test_the_faces_of_the_side_rolls_shift_phases(register: Register) -> None:
    register(PhasedSides())
    state = play(
        build(
            "test-phased-sides",
            {
                "Party": [("Raf", 38, {"phase": 3}), ("Delsenora", 14, {"phase": 5})],
                "Monsters": [("Troll", 36, {"phase": 2})],
            },
        )
    )
    state = apply(state, a.StartFight())
    # Party rolls a natural 1 (one phase faster), monsters a 10 (one slower): Raf average → fast,
    # Delsenora very slow → slow, troll fast → average. Unshifted, the troll would have gone first.
    state = apply(state, a.RollInitiative(rolls={"s1": roll("1d10", Faces(1)), "s2": roll("1d10", Faces(10))}))
    assert order_names(state) == [["Raf"], ["Troll"], ["Delsenora"]]
    assert [str(s.label) for s in state.order] == ["fast", "average", "slow"]


def test_a_tie_of_the_side_rolls_asks_for_a_critical_event(register: Register) -> None:
    ruleset = PhasedSides()
    register(ruleset)
    state = play(
        build(
            "test-phased-sides",
            {
                "Party": [("Raf", 38, {"phase": 3}), ("Delsenora", 14, {"phase": 5})],
                "Monsters": [("Troll", 36, {"phase": 2}), ("Orc", 5, {"phase": 3})],
            },
        )
    )
    state = apply(state, a.StartFight())
    state = apply(state, a.RollInitiative(rolls={"s1": roll("1d10", Faces(5)), "s2": roll("1d10", Faces(5))}))
    assert not state.initiative.settled and state.order == ()
    assert [(r.key, str(r.label), r.dice) for r in state.initiative.pending] == [("critical", "Critical event", "1d20")]
    assert state.log_entries()[-1].text == "Initiative needs more rolls: Critical event."
    assert initiative_asked(ruleset, state) == (state.initiative.pending, False)

    # A 9 on the critical events table is "knock down" (9–11); the tied sides share each phase.
    state = apply(state, a.RollInitiative(rolls={"critical": typed("1d20", 9)}))
    event = next(e for e in state.log_entries() if "critical_event" in e.facts)
    assert event.facts == {"critical_event": "knock down"} and event.text == "Critical event: knock down."
    assert order_names(state) == [["Troll"], ["Raf", "Orc"], ["Delsenora"]]
    assert step_kind(ruleset, state) == "resolve"


# -- hooks: a status change (OSE first death) and damage (a lone creature first hurt) -----------------------
class MoraleCheck(msgspec.Struct, frozen=True, kw_only=True):
    side: str
    reason: str


class MoraleWatch(msgspec.Struct, frozen=True, kw_only=True):
    checks: tuple[MoraleCheck, ...] = ()
    """Morale checks the referee has been prompted for, in order."""


class Morale(Ruleset[NoState, MoraleWatch]):
    """OSE morale triggers: a side's first death and half the side out; a lone creature first damaged
    and at a quarter of its HP or less."""

    id = "test-morale"
    name = "Morale"
    round_state_type = NoState
    fight_state_type = MoraleWatch

    def prompt(self, state: State, side_id: str, reason: str) -> State:
        watch = self.fight_of(state)
        if MoraleCheck(side=side_id, reason=reason) in watch.checks:
            return state
        state = self.with_fight(state, replace(watch, checks=(*watch.checks, MoraleCheck(side=side_id, reason=reason))))
        return log(
            state,
            N_("Morale check for {side}: {reason}."),
            side=state.side(side_id).name,
            reason=named(reason),
            facts={"morale": reason},
        )

    def on_status(self, state: State, combatant_id: str, before: Status) -> State:
        side = state.combatant(combatant_id).side
        side_members = [c for c in state.combatants if c.side == side]
        out = [c for c in side_members if c.status != "active"]
        if before != "active" or len(side_members) == 1 or not out:
            return state
        state = self.prompt(state, side, N_("first death"))
        if 2 * len(out) >= len(side_members):
            state = self.prompt(state, side, N_("half the side is out"))
        return state

    def on_damage(self, state: State, combatant_id: str, amount: int, *, critical: bool = False) -> State:
        combatant = state.combatant(combatant_id)
        if [c.id for c in state.combatants if c.side == combatant.side] != [combatant_id]:
            return state
        state = self.prompt(state, combatant.side, N_("first damaged"))
        if 4 * combatant.hp <= combatant.max_hp:
            state = self.prompt(state, combatant.side, N_("a quarter of its HP or less"))
        return state


def test_status_and_damage_hooks_prompt_morale_checks(register: Register) -> None:
    ruleset = Morale()
    register(ruleset)
    state = play(
        build(
            "test-morale",
            {
                "Party": [("Ada", 10, {})],
                "Goblins": [("Goblin A", 4, {}), ("Goblin B", 4, {}), ("Goblin C", 4, {}), ("Goblin D", 4, {})],
                "Ogre": [("Ogre", 20, {})],
            },
        )
    )
    who = ids(state)
    state = apply(state, a.StartFight())

    state = apply(state, a.Damage(combatant=who["Goblin A"], amount=4))  # 4 → 0: down, the goblins' first death
    state = apply(state, a.Damage(combatant=who["Goblin B"], amount=1))  # hurt, still up: nothing
    state = apply(state, a.SetStatus(combatant=who["Goblin C"], status="fled"))  # 2 of 4 out: half the side
    state = apply(state, a.SetStatus(combatant=who["Goblin D"], status="down"))  # both already prompted
    state = apply(state, a.Damage(combatant=who["Ogre"], amount=3))  # 20 → 17: a lone creature first damaged
    state = apply(state, a.Damage(combatant=who["Ogre"], amount=11))  # 17 → 6: more than a quarter (5)
    assert ruleset.fight_of(state).checks == (
        MoraleCheck(side="s2", reason="first death"),
        MoraleCheck(side="s2", reason="half the side is out"),
        MoraleCheck(side="s3", reason="first damaged"),
    )
    state = apply(state, a.Damage(combatant=who["Ogre"], amount=1))  # 6 → 5: a quarter of 20
    assert ruleset.fight_of(state).checks[-1] == MoraleCheck(side="s3", reason="a quarter of its HP or less")
    assert [e.text for e in state.log_entries() if "morale" in e.facts] == [
        "Morale check for Goblins: first death.",
        "Morale check for Goblins: half the side is out.",
        "Morale check for Ogre: first damaged.",
        "Morale check for Ogre: a quarter of its HP or less.",
    ]


def test_no_hook_fires_when_nothing_changed(register: Register) -> None:
    ruleset = Morale()
    register(ruleset)
    state = play(build("test-morale", {"Party": [("Ada", 10, {})], "Ogre": [("Ogre", 20, {})]}))
    state = apply(state, a.Damage(combatant=ids(state)["Ogre"], amount=3))  # before the fight: not a fight's damage
    state = apply(state, a.StartFight())
    state = apply(state, a.Damage(combatant=ids(state)["Ogre"], amount=0))
    state = apply(state, a.SetStatus(combatant=ids(state)["Ada"], status="active"))
    assert ruleset.fight_of(state).checks == ()


# -- an action that does not apply now is refused by the engine ---------------------------------------------
def test_an_action_not_available_now_is_refused_with_a_message(register: Register) -> None:
    ruleset = Reactions()
    register(ruleset)
    state = play(build("test-reactions", {"Party": [("Ada", 10, {"dex": 16})], "Orcs": [("Orc", 6, {"dex": 12})]}))
    orc = ids(state)["Orc"]
    with pytest.raises(RuleError, match="^Opportunity attack cannot be done now.$"):  # not in a round yet
        apply(state, a.RulesetAction(name="opportunity_attack", args={"combatant": orc}))
    state = apply(state, a.StartFight())
    state = apply(state, a.RulesetAction(name="opportunity_attack", args={"combatant": orc}))
    with pytest.raises(RuleError, match="^Opportunity attack cannot be done now.$"):  # spent until his turn
        apply(state, a.RulesetAction(name="opportunity_attack", args={"combatant": orc}))
    with pytest.raises(RuleError, match="^Unknown action fly.$"):  # not in the catalogue
        apply(state, a.RulesetAction(name="fly", args={"combatant": orc}))
    assert [e.text for e in state.log_entries() if "reaction" in e.facts] == ["Orc makes an opportunity attack."]
