"""``docs/players-screen.md`` says, per ruleset, what the players read of each line under each setting for rolls,
and this test plays the same short fight in each demo to check that it is so.

The fight: the demo started with the setting chosen in set-up, initiative rolled with fixed dice, then in the turns
the first one acting attacks the first one of another side (a fixed d20), a monster is hurt by rolled damage and a
member of the party by a number, a note and a secret note, and a monster added hidden is hurt. Its table in the guide
is printed by ``python -m tests.engine.test_players_screen_doc``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from tests.engine.test_public import physical, state_of
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply, initiative_asked
from tui_combat.engine.audience import players_line
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import LogEntry, render
from tui_combat.engine.model import ROLLS_OPTION, ROLLS_SHOWN, State
from tui_combat.engine.registry import get

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "players-screen.md"
DEMOS = {
    "adnd2e": "demo_adnd2e.toml",
    "players_option": "demo_players_option.toml",
    "dnd5e": "demo_dnd5e.toml",
    "trudvang": "demo_trudvang.toml",
    "ose": "demo_ose.toml",
}
NOTHING = "—"


def _in_turns(state: State) -> State:
    ruleset = get(state.ruleset)
    for number in range(40):
        if state.phase == "round" and ruleset.steps(state)[state.step].kind == "resolve" and state.order:
            return state
        requests, fresh = initiative_asked(ruleset, state)
        if requests and (fresh and not state.initiative.settled or state.initiative.pending):
            state = apply(
                state,
                a.RollInitiative(
                    rolls={r.key: physical(4 + (i * 3 + number) % 6, r.dice) for i, r in enumerate(requests)}
                ),
            )
        else:
            state = apply(state, a.NextStep())
    raise AssertionError("the demo never reached its turns")


def _attack(state: State, attacker: str, target: str) -> a.Action | None:
    ruleset = get(state.ruleset)
    spec = next((s for s in ruleset.actions if s.name == "attack"), None)
    if spec is None:
        return None
    args: dict[str, Any] = {"combatant": attacker, "target": target}
    for field in ruleset.action_fields(state, "attack", attacker):
        if field.key in args:
            continue
        if field.kind == "roll":
            args[field.key] = msgspec.to_builtins(physical(15, str(field.default) or "1d20"))
        elif field.default not in (None, ""):
            args[field.key] = field.default
        elif field.kind == "choice" and field.choices:
            args[field.key] = field.choices[0][0]
    return a.RulesetAction(name="attack", args=args)


def fight(ruleset_id: str, shown: str) -> list[LogEntry]:
    """The lines the short fight writes after it starts, with ``shown`` set in set-up."""
    state = apply(state_of(DEMOS[ruleset_id]), a.SetOption(key=ROLLS_OPTION, value=shown))
    state = _in_turns(apply(state, a.StartFight()))
    start = state.log_count
    party = [c for c in state.combatants if state.side(c.side).is_party]
    foes = [c for c in state.combatants if not state.side(c.side).is_party]
    monster, hero = foes[0], party[0]
    attacker = state.combatant(state.acting_now()[0]) if state.acting_now() else monster
    target = next(c for c in state.combatants if c.side != attacker.side and c.status == "active")
    attack = _attack(state, attacker.id, target.id)
    if attack is not None:
        try:
            state = apply(state, attack)
        except RuleError:  # not in this step of the round (OSE's phases): the fight goes on without it
            pass
    actions: list[a.Action] = [
        a.Damage(combatant=monster.id, amount=3, roll=physical(3, "1d6")),
        a.Damage(combatant=hero.id, amount=2),
        a.Note(text="The door creaks"),
        a.Note(text="The ogre waits upstairs", secret=True),
        a.AddCombatants(side=monster.side, name="Lurker", hp=monster.max_hp, sheet=dict(monster.sheet), hidden=True),
    ]
    for action in actions:
        try:
            state = apply(state, action)
        except RuleError as error:
            raise AssertionError(f"{ruleset_id}: {action!r}: {error}") from None
    lurker = next(c for c in state.combatants if c.name == "Lurker")
    state = apply(state, a.Damage(combatant=lurker.id, amount=1))
    ruleset = get(state.ruleset)
    if any(spec.name == "morale" for spec in ruleset.actions):  # the monsters' nerve, after a first death
        fallen = next(c for c in foes if c.group and c.status == "active")
        state = apply(state, a.SetStatus(combatant=fallen.id, status="down"))
        while ruleset.steps(state)[state.step].id != "morale":
            state = apply(state, a.NextStep())
        actor = next(c for c in state.combatants if c.group == fallen.group and c.status == "active" and not c.hidden)
        state = apply(
            state,
            a.RulesetAction(
                name="morale",
                args={
                    "combatant": actor.id,
                    "modifier": "0",
                    "whole_side": True,
                    "roll": msgspec.to_builtins(physical(9, "2d6")),
                },
            ),
        )
    return [entry for chunk in state.log for entry in chunk][start - state.log_start :]


def _read(entry: LogEntry) -> str:
    line = players_line(entry)
    return NOTHING if line is None else render(line)


def table(ruleset_id: str) -> list[tuple[str, str, str, str]]:
    """(the GM's line, the players' under outcomes, everything, nothing), line by line."""
    runs = {shown: fight(ruleset_id, shown) for shown in ROLLS_SHOWN}
    gm = [entry.text for entry in runs["everything"]]
    for shown, entries in runs.items():
        assert [entry.text for entry in entries] == gm, f"{ruleset_id}: the GM's lines differ under {shown}"
    return [
        (gm[i], *(_read(runs[shown][i]) for shown in ("outcomes", "everything", "nothing"))) for i in range(len(gm))
    ]


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(ruleset_id: str) -> list[str]:
    rows = ["| the GM reads | outcomes | everything | nothing |", "|---|---|---|---|"]
    rows += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in table(ruleset_id)]
    return rows


def guide_table(ruleset_id: str) -> list[str]:
    """The rows of the guide's table for ``ruleset_id`` (after its ``<!-- lines: ID -->`` mark)."""
    text = GUIDE.read_text(encoding="utf-8")
    found = re.search(rf"<!-- lines: {ruleset_id} -->\n((?:\|.*\n)+)", text)
    assert found, f"docs/players-screen.md has no table of {ruleset_id}'s lines"
    return found.group(1).rstrip("\n").split("\n")


@pytest.mark.parametrize("ruleset_id", sorted(DEMOS))
def test_the_guide_says_what_the_players_read_of_each_line(ruleset_id: str) -> None:
    assert guide_table(ruleset_id) == markdown(ruleset_id)


@pytest.mark.parametrize("ruleset_id", sorted(DEMOS))
def test_in_the_guides_fight_nothing_hidden_or_secret_reaches_the_players(ruleset_id: str) -> None:
    demo = state_of(DEMOS[ruleset_id])
    party = tuple(c.name for c in demo.combatants if demo.side(c.side).is_party)
    for _gm, *read in table(ruleset_id):
        for line in read:
            assert "Lurker" not in line and "upstairs" not in line
            assert line.startswith(party) or not re.search(r"\d+/\d+ (HP|BP)", line), line


if __name__ == "__main__":
    for ruleset_id in sys.argv[1:] or sorted(DEMOS):
        print(f"<!-- lines: {ruleset_id} -->")
        print("\n".join(markdown(ruleset_id)))
        print()
