"""D&D 5e rounds played with real key presses at 80×24.

Standard initiative with a surprised creature (the 2024 rule): Ada and Bram against two goblins; the DM
marks Bram surprised. In the initiative form Ada's d20 is typed (12 + 2 = 14), the goblins' too (9 + 2 =
11), and Bram's is left for the app: seed 1 gives a d20 with disadvantage showing 5 and 19, the lower
kept, 5. Ada attacks Goblin 1 (+4 against AC 15: 50 % to hit, shown in the form), rolls 15 (19, a hit)
and 5 damage; Bram, on his turn, moves 10 of his 25 feet. Round 2 keeps the order with no roll.

Speed factor: Oswin (the seed's paladin: a 2nd-level spell as a bonus action and a shortsword, +0) and a
goblin (small +2, scimitar +2, Dex +2: +6) declare, then roll in secret: Oswin 14, the goblin 8 + 6 = 14;
the tie goes to the goblin's higher Dexterity. Round 2 asks for declarations and a new roll.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

from textual.widget import Widget
from textual.widgets import Select

from tests.common import encounter_file
from tests.ui.steps import (
    SEED,
    SIZE,
    budget_text,
    combatant_id,
    dialog_error,
    field_labels,
    footer_now,
    prompt_line,
    store,
    to_round_from_setup,
    until_form,
    until_prompt,
    until_prompt_closed,
    visible_text,
)
from tests.waiting import until
from tui_combat.app import CombatApp
from tui_combat.engine.dice import roll
from tui_combat.engine.log import render
from tui_combat.rulesets.dnd5e import RULESET
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.round import RoundScreen
from tui_combat.widgets.phase_bar import PhaseBar
from tui_combat.widgets.redraw import LogView

AMBUSH = """
name = "Ambush"
ruleset = "dnd5e"
[options]
initiative = "{initiative}"
[[sides]]
name = "Party"
party = true
[[sides.combatants]]
name = "Ada"
hp = 20
sheet = {{ dex = 14, attack = 4, damage = "1d8+2", ac = 15 }}
[[sides.combatants]]
name = "Bram"
hp = 24
sheet = {{ dex = 10, speed = 25, ac = 16 }}
[[sides]]
name = "Goblins"
[[sides.combatants]]
name = "Goblin"
hp = 7
count = 2
sheet = {{ dex = 14, ac = 15, attack = 4, damage = "1d6+2", size = "small" }}
"""

SPEED = """
name = "Speed"
ruleset = "dnd5e"
[options]
initiative = "speed_factor"
[[sides]]
name = "Party"
party = true
[[sides.combatants]]
name = "Oswin"
hp = 42
sheet = { dex = 10, ac = 18, attack = 6, damage = "1d6+3", weapons = "shortsword" }
[[sides]]
name = "Goblins"
[[sides.combatants]]
name = "Goblin"
hp = 7
sheet = { dex = 14, ac = 15, attack = 4, damage = "1d6+2", size = "small", weapons = "scimitar" }
"""


def log_text(app: CombatApp) -> str:
    """The log as shown, its wrapped lines joined again."""
    return "".join(strip.text for strip in app.screen.query_one("#log", LogView).lines)


def shown(widget: Widget) -> str:
    """What a widget and the widgets inside it show on the terminal."""
    return "\n".join(visible_text(part) for part in (widget, *widget.query("*")))


async def test_a_standard_round_with_a_surprised_creature(tmp_path: Path, make_app: Callable[..., CombatApp]) -> None:
    app = make_app(encounter=encounter_file(tmp_path, AMBUSH.format(initiative="standard")))
    async with app.run_test(size=SIZE) as pilot:
        await to_round_from_setup(pilot, mark=1)  # the rows: Ada, Bram, Goblin 1, Goblin 2
        bram, ada, goblin_1 = combatant_id(app, "Bram"), combatant_id(app, "Ada"), combatant_id(app, "Goblin 1")
        state = store(app).state
        assert state.surprised == (bram,)
        assert "Surprised, they roll initiative with disadvantage: Bram." in log_text(app)

        # Initiative: Ada and the goblins typed, Bram's two dice left for the app.
        await pilot.press("t")
        form = app.screen
        assert isinstance(form, FormDialog)
        assert [(f.label, f.default) for f in form.fields] == [("Ada", "1d20"), ("Bram", "d20dis"), ("Goblin", "1d20")]
        assert field_labels(form) == ["Ada (1d20 +2)", "Bram (d20dis)", "Goblin (1d20 +2)"]
        await pilot.press("1", "2", "enter", "enter", "9", "enter")
        assert isinstance(app.screen, RoundScreen), dialog_error(app)
        expected = roll("d20dis", random.Random(SEED))
        assert expected.faces == (5, 19) and expected.total == 5
        state = store(app).state
        bram_entry = next(e for e in state.log_entries() if e.text.startswith("Initiative — Bram"))
        assert bram_entry.rolls == (expected,) and bram_entry.text == "Initiative — Bram: d20dis: [5, (19)] = 5."
        assert "Initiative — Bram: d20dis: [5, (19)] = 5." in log_text(app)
        assert [render(s.label) for s in state.order] == ["14", "11", "5"]
        assert [[state.combatant(c).name for c in s.combatants] for s in state.order] == [
            ["Ada"],
            ["Goblin 1", "Goblin 2"],
            ["Bram"],
        ]
        assert state.acting_now() == (ada,) and app.screen.selected() == ada  # type: ignore[attr-defined]
        footer = await footer_now(pilot)
        assert "Roll" not in footer and "Attack" in footer
        await until(pilot, lambda: "Movement (ft)" in budget_text(app) and "30/30" in budget_text(app), "Ada's 30 ft")

        # Ada attacks: the chance is in the form before anything is rolled.
        await pilot.press("a")
        form = await until_form(pilot, "the attack form")
        target = form.query_one("#f-target", Select)
        assert target.value == goblin_1 and "Goblin 1 — AC 15: 50% to hit" in shown(target)
        assert [(f.key, f.kind) for f in form.fields] == [
            ("target", "choice"),
            ("uses", "choice"),
            ("edge", "choice"),
            ("close", "bool"),
            ("to_hit", "roll"),
        ]
        await until(pilot, lambda: visible_text(form.query_one("#dialog-preview")), "the form's preview")
        assert (
            visible_text(form.query_one("#dialog-preview")).strip()
            == "Needs 11 or more on the d20 (AC 15, +4 to hit): 50% to hit."
        )
        await pilot.press("tab", "tab", "tab", "tab", "1", "5", "enter")
        # A hit: the damage comes next, her dice filled in; 5 is what the real dice showed.
        damage = await until_prompt(pilot, "the damage the hit calls for")
        assert prompt_line(app, "title") == "Damage to Goblin 1" and damage.placeholder == "1d8+2"
        await pilot.press("5", "enter")
        await until_prompt_closed(pilot)
        state = store(app).state
        attack = next(e for e in state.log_entries() if e.text.startswith("Ada attacks"))
        assert attack.text == "Ada attacks Goblin 1: 1d20 (typed): 15, +4 → 19 against AC 15: hit."
        assert state.combatant(goblin_1).hp == 2
        assert RULESET.budget(state, ada)[0].left == 0  # her action is spent

        # The goblins' turn, then Bram's: he moves 10 of his 25 feet.
        await pilot.press("n")
        assert store(app).state.acting_now() == (goblin_1, combatant_id(app, "Goblin 2"))
        await pilot.press("n")
        assert store(app).state.acting_now() == (bram,)
        await until(pilot, lambda: "25/25" in budget_text(app), "Bram's 25 ft")
        await pilot.press("m")
        form = await until_form(pilot, "the move form")
        await pilot.press("backspace", "1", "0", "enter")
        assert not form.is_open, dialog_error(app)
        assert "Bram moves 10 ft (15 ft left)." in log_text(app)
        await until(pilot, lambda: "15/25" in budget_text(app), "Bram's 15 ft left")

        # End of round 1, round 2: the same order, Ada's turn, nothing to roll.
        await pilot.press("n", "n")
        state = store(app).state
        assert state.round == 2 and [render(s.label) for s in state.order] == ["14", "11", "5"]
        assert state.acting_now() == (ada,)
        assert "Roll" not in (await footer_now(pilot))
        await until(
            pilot, lambda: "Round 2" in visible_text(app.screen.query_one(PhaseBar)), "round 2 on the phase bar"
        )
        assert "Round 2" in visible_text(app.screen.query_one(PhaseBar))


async def test_a_speed_factor_round(tmp_path: Path, make_app: Callable[..., CombatApp]) -> None:
    app = make_app(encounter=encounter_file(tmp_path, SPEED))
    async with app.run_test(size=SIZE) as pilot:
        await to_round_from_setup(pilot)
        oswin, goblin = combatant_id(app, "Oswin"), combatant_id(app, "Goblin")
        assert [s.id for s in RULESET.steps(store(app).state)] == ["declare", "initiative", "resolve", "end"]
        assert app.screen.selected() == oswin  # type: ignore[attr-defined]

        # Oswin: an attack with the shortsword (the defaults), and a 2nd-level spell as a bonus action.
        await pilot.press("e")
        form = app.screen
        assert isinstance(form, FormDialog)
        await pilot.press("tab", "tab", "tab")  # the bonus action
        await pilot.press("down", "down", "down", "enter")  # ↓ opens the list: no bonus action → attack → spell
        await until(pilot, lambda: form.query_one("#f-bonus", Select).value == "spell", "a spell as the bonus action")
        await pilot.press("tab", "tab", "backspace", "2", "ctrl+s")
        assert isinstance(app.screen, RoundScreen), dialog_error(app)
        assert (
            "Oswin declares an attack with shortsword, and as a bonus action a spell of level 2: speed factor +0 "
            "(spell of level 2 -2, light or finesse melee weapon +2)."
        ) in log_text(app)

        # The goblin keeps the defaults: an attack with his scimitar.
        await pilot.press("down", "e")
        assert isinstance(app.screen, FormDialog)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, RoundScreen), dialog_error(app)
        assert "Goblin declares an attack with scimitar: speed factor +4" in log_text(app)

        # Initiative, in secret: both at 14; the goblin's Dexterity (14) beats Oswin's (10).
        await pilot.press("n", "t")
        form = app.screen
        assert isinstance(form, FormDialog)
        assert [(f.label, f.default) for f in form.fields] == [("Oswin", "1d20"), ("Goblin", "1d20")]
        assert field_labels(form) == ["Oswin (1d20)", "Goblin (1d20 +6)"]
        await pilot.press("1", "4", "enter", "8", "enter")
        assert isinstance(app.screen, RoundScreen), dialog_error(app)
        state = store(app).state
        assert [(render(s.label), s.combatants) for s in state.order] == [("14", (goblin,)), ("14", (oswin,))]
        assert all(e.secret for e in state.log_entries() if e.text.startswith(("Initiative —", "Order:")))
        assert state.acting_now() == (goblin,)

        # The goblin's turn, Oswin's, the end of the round; round 2 asks for actions and a new roll.
        await pilot.press("n", "n", "n")
        state = store(app).state
        assert state.round == 2 and state.order == () and RULESET.steps(state)[state.step].id == "declare"
        footer = await footer_now(pilot)
        assert "Roll" in footer and "Declare" in footer
