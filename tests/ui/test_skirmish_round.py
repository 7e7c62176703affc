"""The round screen with a ruleset it was never written for: Skirmish, the documentation's example
(``tests/plugins/skirmish.py``), at 80×24 from the keyboard.

* Initiative 1d6 per side, highest first; tied sides roll again. Typed 4 and 4: a tie, the screen says
  initiative waits for the two rerolls; typed 6 and 2: the party acts first.
* Ada (attack +2) attacks the bandit (AC 14) with a form of two rolls: the to-hit typed from real dice
  (13 → 15, a hit, 12 needed), the damage (1d8) left empty for the app to roll with the session's dice.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.widgets import DataTable

from tests.common import BRIDGE, encounter_file, registered
from tests.plugins.skirmish import RULESET, Skirmish
from tests.ui.fights import until_help
from tests.ui.steps import (
    SEED,
    SIZE,
    dialog_error,
    field_labels,
    footer_now,
    store,
    to_round_from_setup,
    until_form,
    until_setup,
    visible_text,
)
from tests.waiting import until_screen
from tui_combat.app import CombatApp
from tui_combat.engine.actions import RulesetAction
from tui_combat.engine.contract import AnyRuleset
from tui_combat.engine.dice import Roll, parse, roll
from tui_combat.engine.log import render
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.surprise import SurpriseScreen
from tui_combat.widgets.phase_bar import PhaseBar

ADA, BANDIT = "c2", "c4"


@pytest.fixture
def skirmish_app(tmp_path: Path, make_app: Callable[..., CombatApp]) -> Iterator[CombatApp]:
    with registered(RULESET):
        yield make_app(encounter=encounter_file(tmp_path, BRIDGE, "bridge.toml"))


async def test_a_tie_asks_for_rerolls_and_a_two_roll_attack_form(skirmish_app: CombatApp) -> None:
    app = skirmish_app
    async with app.run_test(size=SIZE) as pilot:
        await to_round_from_setup(pilot)
        screen = app.screen
        assert isinstance(screen, RoundScreen)
        assert "Attack" not in (await footer_now(pilot))  # nobody's turn yet: the ruleset's key is not shown
        palette = {command.title: command.help for command in app.get_system_commands(screen)}
        assert palette["Attack"] == "a"  # the palette lists it all the same, by its key (never an id)
        assert "Roll" in (await footer_now(pilot)) and "Typed" in (await footer_now(pilot))

        # A tie: both sides typed 4.
        await pilot.press("t")
        assert isinstance(app.screen, FormDialog)
        await pilot.press("4", "enter", "4", "enter")
        assert isinstance(app.screen, RoundScreen), dialog_error(app)
        state = store(app).state
        assert not state.initiative.settled and state.order == ()
        assert [(r.key, render(r.label), r.dice) for r in state.initiative.pending] == [
            ("s1#2", "Party, tie reroll", "1d6"),
            ("s3#2", "Bandits, tie reroll", "1d6"),
        ]
        bar = visible_text(screen.query_one(PhaseBar))
        assert "initiative waits for Party, tie reroll, Bandits, tie reroll" in bar, bar
        assert "Party, tie reroll: 1d6" in visible_text(screen.query_one("#card"))

        # The rerolls, typed: the form asks for exactly those two.
        await pilot.press("t")
        form = app.screen
        assert isinstance(form, FormDialog)
        assert [(f.key, f.kind, f.default) for f in form.fields] == [("s1#2", "roll", "1d6"), ("s3#2", "roll", "1d6")]
        await pilot.press("6", "enter", "2", "enter")
        assert isinstance(app.screen, RoundScreen), dialog_error(app)
        state = store(app).state
        assert state.initiative.settled and state.initiative.pending == ()
        assert [render(slot.label) for slot in state.order] == ["Party", "Bandits"]
        assert "initiative waits" not in visible_text(screen.query_one(PhaseBar))
        assert screen.selected() == ADA
        assert "Attack" in (await footer_now(pilot))  # Ada's turn: now the key applies

        # The attack form: target, to-hit (typed), damage (left for the app).
        await pilot.press("a")
        form = await until_form(pilot, "the attack form")
        assert [(f.key, f.kind) for f in form.fields] == [("target", "choice"), ("to_hit", "roll"), ("damage", "roll")]
        labels = field_labels(form)
        assert labels == ["Target", "To-hit roll (1d20)", "Damage roll (1d8)"]
        journal_before = store(app).state

        # Enter moves from the to-hit to the damage field, and submits from there.
        await pilot.press("tab", "2", "5", "enter", "enter")  # 25 cannot be a d20: the form stays, nothing changes
        assert form.is_open
        assert "To-hit roll (1d20)" in dialog_error(app) and "25" in dialog_error(app)
        assert store(app).state == journal_before

        await pilot.press("shift+tab", "backspace", "backspace", "1", "3", "enter", "enter")  # the damage left empty
        assert not form.is_open, dialog_error(app)
        state = store(app).state
        entries = state.log_entries()
        attack = next(e for e in entries if e.facts.get("hit") is not None)
        assert attack.rolls == (Roll(expr="1d20", total=13, physical=True),)
        assert (attack.facts["needed"], attack.facts["total"], attack.facts["hit"]) == (12, 15, True)
        damage_roll = roll(parse("1d8"), random.Random(SEED))  # the first roll of the session's dice
        damage = entries[-1]
        assert damage.rolls == (damage_roll,) and not damage.rolls[0].physical and len(damage.rolls[0].faces) == 1
        assert state.combatant(BANDIT).hp == 9 - damage_roll.total
        assert "Attack" not in (await footer_now(pilot))  # her one attack is spent

        # The journal holds the rolls as plain data: the typed one without faces, the rolled one with them.
        (action,) = [done for done in store(app).done_actions() if isinstance(done, RulesetAction)]
        assert action.args == {
            "combatant": ADA,
            "target": BANDIT,
            "to_hit": {"expr": "1d20", "total": 13, "faces": [], "physical": True},
            "damage": {"expr": "1d8", "total": damage_roll.total, "faces": list(damage_roll.faces), "physical": False},
        }

        # Help lists the ruleset's key even when the footer does not show it.
        await pilot.press("f1")
        rows = {description: keys for keys, description in await until_help(pilot)}
        assert rows.get("Attack") == "a"


async def test_r_rolls_the_pending_rerolls_with_the_sessions_dice(skirmish_app: CombatApp) -> None:
    """Seed 1 gives 2 and then 5 on a d6: after the typed tie the party rerolls 2, the bandits 5."""
    app = skirmish_app
    async with app.run_test(size=SIZE) as pilot:
        await to_round_from_setup(pilot)
        await pilot.press("t", "3", "enter", "3", "enter")
        assert len(store(app).state.initiative.pending) == 2, dialog_error(app)
        await pilot.press("r")
        state = store(app).state
        rolls = state.initiative.rolls
        assert {key: (r.total, r.faces, r.physical) for key, r in rolls.items()} == {
            "s1": (3, (), True),
            "s3": (3, (), True),
            "s1#2": (2, (2,), False),
            "s3#2": (5, (5,), False),
        }
        assert [render(slot.label) for slot in state.order] == ["Bandits", "Party"]
        assert isinstance(app.screen, RoundScreen) and app.screen.selected() == BANDIT
        assert "Roll" not in (await footer_now(pilot))  # the order stands: nothing more to roll this round


class PerCreature(Skirmish):
    """Skirmish with surprise ruled creature by creature (as 5e does) instead of side by side."""

    id = "skirmish_per_creature"
    surprise_scope = "combatant"


AMBUSH = """
name = "Ambush"
ruleset = "{ruleset}"
[[sides]]
name = "Party"
party = true
[[sides.combatants]]
name = "Ada"
hp = 10
[[sides]]
name = "Bandits"
[[sides.combatants]]
name = "Bandit"
hp = 9
count = 2
"""


@pytest.mark.parametrize(
    ("ruleset", "rows", "marked", "action"),
    [
        (RULESET, ["Party", "Bandits"], ("c5", "c6"), {"t": "set_surprised", "sides": ["s3"], "combatants": []}),
        (
            PerCreature(),
            ["Ada", "Bandit 1", "Bandit 2"],
            ("c5",),
            {"t": "set_surprised", "sides": [], "combatants": ["c5"]},
        ),
    ],
    ids=["per-side", "per-combatant"],
)
async def test_without_a_surprise_roll_the_gm_marks_by_the_rulesets_scope(
    tmp_path: Path,
    make_app: Callable[..., CombatApp],
    ruleset: AnyRuleset,
    rows: list[str],
    marked: tuple[str, ...],
    action: dict[str, object],
) -> None:
    """Ambush: Ada against Bandit 1 and Bandit 2 (ids c5, c6 of side s3). The second row is marked."""
    import msgspec

    with registered(ruleset):
        app = make_app(encounter=encounter_file(tmp_path, AMBUSH.format(ruleset=ruleset.id), "ambush.toml"))
        async with app.run_test(size=SIZE) as pilot:
            await until_setup(pilot)
            await pilot.press("c")
            screen = await until_screen(pilot, SurpriseScreen, "the surprise screen")
            table = screen.query_one(DataTable)
            assert [str(table.get_row_at(i)[0]) for i in range(table.row_count)] == rows
            await pilot.press("down", "s")
            assert store(app).state.surprised == marked
            assert json.loads(msgspec.json.encode(store(app).done_actions()[-1])) == action
            assert [str(table.get_row_at(i)[3]) for i in range(table.row_count)][1] == "surprised"
            await pilot.press("s")  # and back
            assert store(app).state.surprised == ()
            await pilot.press("s", "c")
            assert isinstance(app.screen, RoundScreen)
            assert store(app).state.surprised == marked
