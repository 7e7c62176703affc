"""Death in the AD&D family (DM's Guide): at 0 hit points a creature is dead, or, by the option ``death``,
a character of the party lies unconscious down to −10, losing 1 hit point a round until his wounds are
bound or he is healed, and is dead at −10.

Readings: the option covers the party's side only (the book's "character"); monsters and NPCs of other
sides die at 0. Hit points never go below 0 when the option is off, nor below −10 when it is on. A heal
that leaves him at 0 or less stops the loss as binding does; one that brings him above 0 puts him back in
the fight (the engine's rule for "down" above 0).

The log says each at its moment: "X is dead." as the blow brings him to 0 (:func:`fallen`); under the option
"X is bleeding: …" as a character falls, each round's loss at the round's end (:func:`bleed`), "X is dead at
−10." as the loss or a blow (:func:`dead_at_minus_10`) brings him there.
"""

from __future__ import annotations

from msgspec.structs import replace

from tui_combat.engine.audience import hint, who
from tui_combat.engine.contract import ActionSpec, Health, OptionSpec
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, log
from tui_combat.engine.model import Combatant, State
from tui_combat.i18n import N_, NC_, _
from tui_combat.rulesets.adnd2e.state import AdndFight

__all__ = [
    "BIND_ACTION",
    "DEATH_OPTION",
    "DEAD_AT",
    "bind",
    "bleed",
    "condition",
    "dead_at_minus_10",
    "fallen",
    "health_after",
    "hit_while_dying",
    "note_damage",
]

DEATH_OPTION = OptionSpec(
    key="death",
    label=N_("At 0 hit points"),
    choices=(
        ("dead", N_("dead (DM's Guide)")),
        ("minus_10", N_("the party unconscious to −10, losing 1 HP a round")),
    ),
)
DEAD_AT = -10
"""Option ``minus_10``: dead at this many hit points."""

BIND_KEY = Msg(id=N_(" (key {key})"), params={"key": "w"})
"""Where the GM binds a dying character's wounds: a hint the players' line leaves out."""
BIND_ACTION = ActionSpec(name="bind", key="w", label=N_("Bind wounds"))
"""Stop a dying character's loss of 1 hit point a round (option ``minus_10``): offered in the footer while the one
selected is dying, in place of his attack and main action."""


def lies_dying(state: State, combatant: Combatant) -> bool:
    """Whether the option lets him lie dying rather than dead: the option is on and he is of the party."""
    return state.options.get("death") == "minus_10" and state.side(combatant.side).is_party


def health_after(state: State, combatant: Combatant, amount: int) -> Health:
    floor = DEAD_AT if lies_dying(state, combatant) else 0
    hp = max(combatant.hp - amount, min(floor, combatant.hp))
    return Health(hp=hp, status="down" if hp <= 0 and combatant.status == "active" else combatant.status)


def note_damage(state: State, fight: AdndFight, combatant_id: str) -> AdndFight:
    """After a hit: the dying are counted (their hit points as they are now); the dead are no longer."""
    combatant = state.combatant(combatant_id)
    bleeding = {cid: hp for cid, hp in fight.bleeding.items() if cid != combatant_id}
    bound = tuple(cid for cid in fight.bound if cid != combatant_id)
    if lies_dying(state, combatant) and DEAD_AT < combatant.hp <= 0:
        bleeding[combatant_id] = combatant.hp
        if combatant_id in fight.bound:
            bound = fight.bound  # bound wounds stay bound; a new hit does not open them (a reading)
    if bleeding == fight.bleeding and bound == fight.bound:
        return fight  # (the same object: what was worked out from the fight's state is kept, the budgets shown)
    return replace(fight, bleeding=bleeding, bound=bound)


def fallen(state: State, combatant_id: str) -> State:
    """He has just gone down at 0 hit points or less: dead (a monster, or anyone by the book), or, under the
    option, bleeding until his wounds are bound or he is healed (dead already if the blow took him to −10)."""
    combatant = state.combatant(combatant_id)
    if combatant.status != "down" or combatant.hp > 0:
        return state  # knocked out by the GM's word, not by his hit points
    if not lies_dying(state, combatant):
        return log(state, N_("{name} is dead."), facts={"dead": True}, name=who(state, combatant))
    if combatant.hp <= DEAD_AT:
        return dead_at_minus_10(state, combatant)
    return log(
        state,
        N_("{name} is bleeding: −1 hit point a round until the wounds are bound{key} or healed; dead at −10."),
        facts={"bleeding": True},
        name=who(state, combatant),
        key=hint(BIND_KEY),
    )


def dead_at_minus_10(state: State, combatant: Combatant) -> State:
    return log(state, N_("{name} is dead at −10."), facts={"dead": True}, name=who(state, combatant))


def hit_while_dying(state: State, fight: AdndFight, combatant_id: str) -> State:
    """A blow on one who lay dying (or bound) that takes him to −10: dead (told before the blow is counted)."""
    combatant = state.combatant(combatant_id)
    if combatant_id in fight.bleeding and combatant.hp <= DEAD_AT:
        return dead_at_minus_10(state, combatant)
    return state


def condition(state: State, fight: AdndFight, combatant_id: str) -> str | None:
    """ "dead", "dying" or, once bound, "unconscious"; None while he stands."""
    combatant = state.combatant(combatant_id)
    if combatant.status != "down" or combatant.hp > 0:
        return None
    if not lies_dying(state, combatant) or combatant.hp <= DEAD_AT or combatant_id not in fight.bleeding:
        return N_("dead")
    return N_("unconscious") if combatant_id in fight.bound else N_("dying")


UNCONSCIOUS_AFTER_A_NAME = NC_("after a name", "unconscious")
"""The players' screen says it after his name: in words that say nothing of him being a man or a woman."""


def bind(state: State, fight: AdndFight, combatant: Combatant) -> tuple[AdndFight, State]:
    if combatant.id not in fight.bleeding or condition(state, fight, combatant.id) != N_("dying"):
        raise RuleError(_("{name} is not dying: there is nothing to bind.", name=combatant.name))
    state = log(state, N_("{name}'s wounds are bound: he no longer loses hit points."), name=who(state, combatant))
    return replace(fight, bound=(*fight.bound, combatant.id)), state


def bleed(state: State, fight: AdndFight) -> tuple[AdndFight, State]:
    """The end of a round: every dying character not bound nor healed loses 1 hit point; at −10 he is dead."""
    if state.options.get("death") != "minus_10":
        return replace(fight, bleeding={}, bound=()), state  # the option turned off: nobody lies dying
    bleeding: dict[str, int] = {}
    bound = list(fight.bound)
    names = state.names()
    for cid, seen in fight.bleeding.items():
        if cid not in names:
            continue
        combatant = state.combatant(cid)
        if combatant.hp > 0 or combatant.status != "down":
            bound = [b for b in bound if b != cid]
            continue  # healed up and back in the fight (or set otherwise by the GM)
        if cid in bound:
            bleeding[cid] = combatant.hp
            continue
        if combatant.hp > seen:  # healed, though not above 0: the loss stops
            bound.append(cid)
            bleeding[cid] = combatant.hp
            state = log(state, N_("{name} was healed: he no longer loses hit points."), name=who(state, combatant))
            continue
        hp = combatant.hp - 1
        state = state.with_combatant(replace(combatant, hp=hp))
        if hp <= DEAD_AT:
            state = log(
                state, N_("{name} loses 1 hit point: {hp}."), facts={"hp": hp}, name=who(state, combatant), hp=hp
            )
            state = dead_at_minus_10(state, combatant)
        else:
            bleeding[cid] = hp
            state = log(
                state,
                N_("{name} is dying and loses 1 hit point: {hp}."),
                facts={"hp": hp},
                name=who(state, combatant),
                hp=hp,
            )
    return replace(fight, bleeding=bleeding, bound=tuple(bound)), state
