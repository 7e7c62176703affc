"""A hidden combatant at 80×24: the GM adds an ogre hidden from the players (the add form's tick), he takes his
turn and attacks on the GM's screen, marked; the players' view and ``export --public`` know nothing of him;
``H`` reveals him ("Ogre appears.") and he is in both, and ``u`` hides him again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.widgets import Checkbox

from tests.ui.fights import opened
from tests.ui.steps import (
    SIZE,
    combatant_id,
    dialog_error,
    log_texts,
    select,
    store,
    until_closed,
    until_form,
    until_prompt,
    until_prompt_closed,
    visible_text,
)
from tests.ui.test_attack_flow import fight
from tests.ui.test_player_view import shown
from tests.waiting import until, until_screen
from tui_combat.__main__ import main
from tui_combat.app import CombatApp
from tui_combat.fight.store import Store
from tui_combat.saves.locations import sessions_dir
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.player_view import PlayerViewApp
from tui_combat.screens.round import RoundScreen
from tui_combat.widgets.order_list import OrderList


def public_report(data_root: Path, tmp_path: Path) -> str:
    """``tui-combat export hammer --public -o FILE``, as the GM would run it while the fight goes on."""
    written = tmp_path / "players.md"
    written.unlink(missing_ok=True)
    assert main(["--data-dir", str(data_root), "export", "hammer", "--public", "-o", str(written)]) == 0
    report = written.read_text()
    assert "## Round 2" in report
    return report


async def test_a_hidden_ogre_acts_for_the_gm_only_until_he_appears(
    make_app: Callable[..., CombatApp], data_root: Path, tmp_path: Path
) -> None:
    Store.create(fight("adnd2e"), sessions_dir(data_root) / "hammer").close()
    app = make_app(resume="hammer")
    viewer = PlayerViewApp(
        data_root, "hammer", settings_path=tmp_path / "none.toml", poll_seconds=0.02, handle_hangup=False
    )
    async with app.run_test(size=SIZE) as pilot, viewer.run_test(size=SIZE) as view:
        await opened(pilot)
        await select(pilot, combatant_id(app, "Orc 1"))  # the add form takes his side
        await pilot.press("i")
        form = await until_form(pilot, "the add form")
        await pilot.press(*"Ogre", "tab", "tab", "ctrl+u", *"30")
        form.query(Checkbox).last().focus()  # "Hidden from the players", the form's last field
        await pilot.press("space", "ctrl+s")
        await until_closed(pilot, form, "the ogre added")
        ogre = combatant_id(app, "Ogre")
        assert store(app).state.combatant(ogre).hidden, dialog_error(app)
        await until(
            pilot,
            lambda: "⊘" in str(app.screen.query_one(OrderList).get_option(ogre).prompt),
            "the ogre marked hidden on the GM's list",
        )
        await select(pilot, ogre)
        await until(
            pilot,
            lambda: "Hidden from the players (H reveals him)" in visible_text(app.screen.query_one("#card")),
            "the card saying he is hidden",
        )

        # Round 2: initiative typed (party 3, monsters 7), Raf's turn, then the monsters' with the ogre in it.
        await pilot.press(*"nnnnn", "t")
        await until_screen(pilot, FormDialog, "the initiative form")
        await pilot.press("3", "enter", "7", "enter")
        await until_screen(pilot, RoundScreen, "the round screen after initiative")
        await pilot.press("n")
        await until(pilot, lambda: ogre in store(app).state.acting_now(), "the ogre's turn")
        await select(pilot, ogre)
        await pilot.press("a")
        attack = await until_form(pilot, "the ogre's attack form")
        attack.query_one("#f-roll").focus()
        await pilot.press("1", "9", "enter")
        await until_prompt(pilot, "the damage the hit calls for")
        await pilot.press(*"5", "enter")
        await until_prompt_closed(pilot, "the round screen after the hit")
        assert any(line.startswith("Ogre attacks Raf") for line in log_texts(app))

        await until(view, lambda: "Raf  33/38" in shown(viewer), "the players seeing Raf hurt")
        assert "Ogre" not in shown(viewer) and "Ogre" not in public_report(data_root, tmp_path)

        await pilot.press("H")
        await until(
            view,
            lambda: "Ogre appears." in shown(viewer) and "Ogre  unhurt" in shown(viewer),
            "the ogre appearing to the players",
        )
        report = public_report(data_root, tmp_path)
        assert "Ogre appears." in report and "Ogre: unhurt" in report
        assert "Ogre attacks" not in shown(viewer) and "Ogre attacks" not in report  # what he did hidden stays the GM's

        await pilot.press("u")  # revealing is undone like any action
        await until(view, lambda: "Ogre" not in shown(viewer), "the ogre hidden again")
        assert store(app).state.combatant(ogre).hidden
