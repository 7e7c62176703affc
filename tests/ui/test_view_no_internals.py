"""The players' screen never shows the GM's folders or an error's own text: a session the GM deleted reads
"The fight has ended", one that cannot be read "The fight cannot be shown right now"."""

from __future__ import annotations

from pathlib import Path

from tests.ui.steps import SIZE
from tests.ui.test_player_view import shown
from tests.waiting import until
from tui_combat.engine import actions as a
from tui_combat.fight import session
from tui_combat.saves.session_folders import delete_session_folder
from tui_combat.screens.player_view import PlayerViewApp

DEMO = "demo_adnd2e.toml"


def started(data_root: Path) -> str:
    """The AD&D demo saved and started; its session's key."""
    gm = session.open_demo(data_root, DEMO, seed=1)
    gm.dispatch(a.StartFight())
    assert gm.folder is not None
    key = gm.folder.folder.name
    gm.close()
    return key


def viewer(data_root: Path, key: str, tmp_path: Path) -> PlayerViewApp:
    return PlayerViewApp(
        data_root, key, settings_path=tmp_path / "no-settings.toml", poll_seconds=0.02, handle_hangup=False
    )


async def test_a_deleted_session_reads_the_fight_has_ended(data_root: Path, tmp_path: Path) -> None:
    key = started(data_root)
    app = viewer(data_root, key, tmp_path)
    async with app.run_test(size=SIZE) as view:
        await until(view, lambda: "Round 1" in shown(app), "the fight")
        delete_session_folder(data_root, key)
        await until(view, lambda: "The fight has ended." in shown(app), "the fight ended")
        text = shown(app)
        assert str(data_root) not in text and "sessions" not in text and "Error" not in text, text


async def test_a_damaged_session_cannot_be_shown_and_says_no_more(data_root: Path, tmp_path: Path) -> None:
    key = started(data_root)
    app = viewer(data_root, key, tmp_path)
    async with app.run_test(size=SIZE) as view:
        await until(view, lambda: "Round 1" in shown(app), "the fight")
        folder = data_root / "sessions" / key
        for name in ("snapshot.json", "journal.jsonl"):
            (folder / name).write_bytes(b"{ this is not a session")
        await until(view, lambda: "The fight cannot be shown right now." in shown(app), "the damaged session")
        text = shown(app)
        assert str(data_root) not in text and ".json" not in text and "Error" not in text, text
        assert "Round 1" in text  # the last view stays


async def test_a_mistake_in_the_gms_settings_is_not_shown_with_its_path(data_root: Path, tmp_path: Path) -> None:
    key = started(data_root)
    settings = tmp_path / "players-view.toml"
    settings.write_text("[health]\nbloodied_at = 90\nwounded_below = 10\n")
    app = PlayerViewApp(data_root, key, settings_path=settings, poll_seconds=0.02, handle_hangup=False)
    async with app.run_test(size=SIZE) as view:
        await until(view, lambda: "Round 1" in shown(app), "the fight")
        text = shown(app)
        assert "The GM's settings for this screen have a mistake" in text and str(tmp_path) not in text, text
