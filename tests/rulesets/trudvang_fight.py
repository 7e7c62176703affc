"""Building and playing Trudvang fights in tests: everything goes through the real engine (``apply``)."""

from __future__ import annotations

from typing import Any

from tests.common import die
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.dice import Roll
from tui_combat.engine.log import LogEntry
from tui_combat.engine.model import ROLLS_OPTION, State
from tui_combat.rulesets.trudvang import RULESET

FRIDGAR = {
    "sv": 9,
    "weapons": "seax, broadsword",
    "disciplines": "Armed combat 1",
    "specialties": "One-handed light weapons 2",
}
WRESTLER = {
    "sv": 10,
    "weapons": "seax",
    "disciplines": "Unarmed combat 2",
    "specialties": "Wrestling 2",
    "wrestling": 6,
    "str_mod": 1,
    "ambidexter": 3,
}


def d20(total: int) -> Roll:
    return die("1d20", total)


def d10(*faces: int) -> Roll:
    return Roll(expr="1d10!", total=sum(faces), faces=faces)


def fight(
    *people: tuple[str, str, dict[str, Any]],
    count: dict[str, int] | None = None,
    surprised: str = "",
    rolls_shown: str = "",
) -> State:
    """A Trudvang fight in its first round's declare step; people are (side name, name, sheet); ``rolls_shown``:
    what the players see of rolls, set before anything is logged."""
    state = apply(State(), a.SetRuleset(ruleset="trudvang"))
    if rolls_shown:
        state = apply(state, a.SetOption(key=ROLLS_OPTION, value=rolls_shown))
    sides: dict[str, str] = {}
    for side, _name, _sheet in people:
        if side not in sides:
            state = apply(state, a.AddSide(name=side, is_party=not sides))
            sides[side] = state.sides[-1].id
    for side, name, sheet in people:
        state = apply(
            state, a.AddCombatants(side=sides[side], name=name, hp=20, count=(count or {}).get(name, 1), sheet=sheet)
        )
    state = apply(state, a.BeginSurprise())
    if surprised:
        state = apply(state, a.SetSurprised(sides=(sides[surprised],)))
    return apply(state, a.StartFight())


def cid(state: State, name: str) -> str:
    return next(c.id for c in state.combatants if c.name == name)


def act(state: State, name: str, **args: Any) -> State:
    return apply(state, a.RulesetAction(name=name, args=args))


def declare(state: State, name: str, **declaration: Any) -> State:
    return apply(state, a.Declare(combatant=cid(state, name), declaration=declaration))


def roll_initiative(state: State, **rolls: Roll) -> State:
    """Go to the initiative step (if needed) and roll: keyword = combatant name (or a group's base name)."""
    if RULESET.steps(state)[state.step].kind == "declare":
        state = apply(state, a.NextStep())
    chosen = {}
    for request in RULESET.initiative_requests(state):
        name = str(request.label).split(" ×")[0]
        chosen[request.key] = rolls[name.replace(" ", "_")]
    return apply(state, a.RollInitiative(rolls=chosen))


def labels(state: State) -> list[tuple[str, list[str]]]:
    return [(str(slot.label), [state.combatant(c).name for c in slot.combatants]) for slot in state.order]


def budget(state: State, name: str) -> dict[str, tuple[int, int]]:
    return {line.label: (line.left, line.total) for line in RULESET.budget(state, cid(state, name))}


def last_entry(state: State) -> LogEntry:
    return state.log_entries()[-1]


def last_log(state: State) -> str:
    return last_entry(state).text


def next_round(state: State) -> State:
    start = state.round
    while state.round == start:
        state = apply(state, a.NextStep())
    return state


def two(
    fridgar: dict[str, Any] | None = None,
    ulf: dict[str, Any] | None = None,
    decl: dict[str, dict[str, Any]] | None = None,
    **kwargs: Any,
) -> State:
    """Fridgar (first, at 10) against Ulf (at 5), in the countdown; ``decl`` is declared before the roll."""
    state = fight(
        ("Heroes", "Fridgar", fridgar or FRIDGAR), ("Foes", "Ulf", ulf or {"sv": 8, "weapons": "broadsword"}), **kwargs
    )
    for name, declaration in (decl or {}).items():
        state = declare(state, name, **declaration)
    return roll_initiative(state, Fridgar=d10(10, 4), Ulf=d10(9))


def three() -> State:
    people = [
        ("Heroes", "Fridgar", FRIDGAR),
        ("Heroes", "Sigrid", {"sv": 12, "weapons": "seax"}),
        ("Foes", "Ulf", {"sv": 8, "weapons": "broadsword"}),
        ("Foes", "Orm", {"sv": 12, "weapons": "seax"}),
    ]
    # Fridgar 14−1 = 13 (call 10); Sigrid 12−1 = 11 (call 10); Ulf 9−4 = 5; Orm 4−1 = 3
    return roll_initiative(fight(*people), Fridgar=d10(10, 4), Sigrid=d10(10, 2), Ulf=d10(9), Orm=d10(4))
