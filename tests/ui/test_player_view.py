"""The players' screen following a session: the follower on its own (undo, restart, "save as", another
fight, never a write), then the GM's app and a players' view side by side, each with its own store on the
same session folder, driven by real key presses."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from tests.ui.steps import SIZE, combatant_id, store, to_round, type_initiative, until_form, visible_text
from tests.ui.steps import select as select_id
from tests.waiting import until as wait_until
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine.model import State
from tui_combat.engine.public import HealthScale
from tui_combat.fight import session
from tui_combat.fight.store import Store
from tui_combat.saves.follow import POLL_SECONDS, Follower
from tui_combat.saves.watch import FolderWatch
from tui_combat.screens.player_view import PlayerViewApp, PlayerViewScreen, load_settings
from tui_combat.screens.round import RoundScreen

DEMO = "demo_adnd2e.toml"


def read_only(folder: Path) -> State:
    store = Store.resume(folder, read_only=True)
    try:
        return store.state
    finally:
        store.close()


class CountingLoader:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, folder: Path) -> State:
        self.calls += 1
        return read_only(folder)


def troll_hp(state: State | None) -> int:
    assert state is not None
    return next(c.hp for c in state.combatants if c.name == "Troll 1")


# -- the follower ------------------------------------------------------------------------------------------
def test_the_poll_interval_leaves_room_within_a_quarter_of_a_second() -> None:
    assert POLL_SECONDS <= 0.1  # a change is seen at the next poll: well within 0.25 s of the GM's action


def test_it_reads_again_only_when_the_files_change_and_follows_undo_and_a_restart(tmp_path: Path) -> None:
    gm = session.open_demo(tmp_path, DEMO, seed=1)
    assert gm.folder is not None
    key = gm.folder.folder.name
    loader = CountingLoader()
    follower = Follower(tmp_path, key, loader)
    first = follower.poll(now=0.0)
    assert first is not None and first.state == gm.state and loader.calls == 1
    assert follower.poll(now=0.1) is None and follower.poll(now=0.2) is None
    assert loader.calls == 1  # unchanged files: a few stat calls, no reading

    troll = next(c for c in gm.state.combatants if c.name == "Troll 1")
    gm.dispatch(a.Damage(combatant=troll.id, amount=5))
    update = follower.poll(now=0.3)
    assert update is not None and troll_hp(update.state) == 36 - 5 and loader.calls == 2
    gm.undo()
    update = follower.poll(now=0.4)
    assert update is not None and troll_hp(update.state) == 36

    gm.save_now()  # the GM quits: a new snapshot and journal
    gm.close()
    gm = Store.resume(tmp_path / "sessions" / key)  # and comes back
    gm.dispatch(a.Damage(combatant=troll.id, amount=7))
    update = follower.poll(now=0.5)
    assert update is not None and troll_hp(update.state) == 36 - 7
    assert update.key == key and update.moved == "" and update.problem == ""
    gm.close()


def test_it_follows_a_save_as_into_the_new_folder(tmp_path: Path) -> None:
    gm = session.open_demo(tmp_path, DEMO, seed=1)
    assert gm.folder is not None
    follower = Follower(tmp_path, gm.folder.folder.name, read_only)
    assert follower.poll(now=0.0) is not None
    new_key = session.save_as(gm, tmp_path, "Tunnel, second night")
    troll = next(c for c in gm.state.combatants if c.name == "Troll 1")
    gm.dispatch(a.Damage(combatant=troll.id, amount=3))
    update = follower.poll(now=1.5)  # past the next look at the sessions folder
    assert update is not None and update.key == new_key == "tunnel-second-night"
    assert "tunnel-second-night" in update.moved
    assert troll_hp(update.state) == 36 - 3 and update.state is not None and update.state.name == "Tunnel, second night"
    gm.close()


def test_with_no_name_it_follows_the_fight_written_last(tmp_path: Path) -> None:
    follower = Follower(tmp_path, None, read_only)
    update = follower.poll(now=0.0)
    assert update is not None and update.state is None and "waiting for the GM" in update.problem
    first = session.open_demo(tmp_path, DEMO, seed=1)
    update = follower.poll(now=0.1)
    assert update is not None and update.state is not None and update.state.ruleset == "adnd2e"
    second = session.open_demo(tmp_path, "demo_ose.toml", seed=2)
    for store_ in (first, second):
        assert store_.folder is not None
    os.utime(second.folder.folder / "journal.jsonl", ns=(1, 1))  # written long ago …
    os.utime(second.folder.folder / "snapshot.json", ns=(1, 1))
    assert follower.poll(now=1.2) is None  # … so the first stays the latest
    second.dispatch(a.Note(text="The ogre wakes"))  # now the GM plays the other fight
    update = follower.poll(now=2.4)
    assert update is not None and update.state is not None and update.state.ruleset == "ose"
    assert "goblins-at-the-mossy-bridge" in update.moved
    first.close()
    second.close()


def test_following_never_opens_a_session_file_for_writing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gm = session.open_demo(tmp_path, DEMO, seed=1)  # the GM's copy: it holds the session's lock throughout
    troll = next(c for c in gm.state.combatants if c.name == "Troll 1")
    gm.dispatch(a.Damage(combatant=troll.id, amount=2))
    opened: list[tuple[str, int]] = []
    real_open = os.open

    def spy(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        opened.append((str(path), flags))
        return real_open(path, flags, *args, **kwargs)

    follower = Follower(tmp_path, None, read_only)
    for now, damage, left in ((0.0, 0, 34), (0.1, 1, 33), (0.2, 4, 29)):
        if damage:
            gm.dispatch(a.Damage(combatant=troll.id, amount=damage))
        monkeypatch.setattr(os, "open", spy)
        update = follower.poll(now=now)
        monkeypatch.setattr(os, "open", real_open)
        assert update is not None and troll_hp(update.state) == left
    writes = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
    assert {path for path, _flags in opened} >= {"snapshot.json", "journal.jsonl"}
    assert [(path, flags) for path, flags in opened if flags & writes] == []
    gm.close()


def test_the_gms_settings_choose_the_words(tmp_path: Path) -> None:
    path = tmp_path / "players-view.toml"
    assert load_settings(path) == (HealthScale(), "")
    path.write_text(
        '[health]\nwounded_below = 90\nbloodied_at = 30\n[health.words]\nbloodied = "reeling"\n', encoding="utf-8"
    )
    assert load_settings(path) == (HealthScale(wounded_below=90, bloodied_at=30, words={"bloodied": "reeling"}), "")
    path.write_text("[health]\nwounded_below = 20\nbloodied_at = 30\n", encoding="utf-8")
    scale, problem = load_settings(path)
    assert scale == HealthScale() and "bloodied_at ≤ wounded_below" in problem
    path.write_text('[health.words]\nhurt = "ouch"\n', encoding="utf-8")
    scale, problem = load_settings(path)
    assert scale == HealthScale() and "hurt" in problem and "unhurt" in problem


# -- the GM's app and the players' view side by side -------------------------------------------------------
def shown(app: PlayerViewApp) -> str:
    screen = app.screen
    assert isinstance(screen, PlayerViewScreen), type(screen).__name__
    return "\n".join(
        visible_text(widget) for widget in screen.query("Static, TextLines, LogView, ManyLines") if widget.display
    )


async def until(view: Pilot[None], test: Callable[[str], bool], what: str) -> str:
    """Let the view poll until what it shows passes ``test``; what it shows then."""
    app = view.app
    assert isinstance(app, PlayerViewApp)
    await wait_until(
        view, lambda: isinstance(app.screen, PlayerViewScreen) and test(shown(app)), f"the view to show {what}"
    )
    return shown(app)


async def select(pilot: Pilot[None], name: str) -> None:
    app = pilot.app
    assert isinstance(app, CombatApp)
    await select_id(pilot, combatant_id(app, name))


@pytest.fixture
def viewer(data_root: Path, tmp_path: Path) -> PlayerViewApp:
    return PlayerViewApp(
        data_root, None, settings_path=tmp_path / "no-settings.toml", poll_seconds=0.02, handle_hangup=False
    )


async def test_the_view_follows_the_gms_actions_and_his_undo(
    make_app: Callable[..., CombatApp], viewer: PlayerViewApp
) -> None:
    gm = make_app()
    async with gm.run_test(size=SIZE) as pilot, viewer.run_test(size=SIZE) as view:
        await until(view, lambda text: "waiting for the GM" in text, "that no fight was started yet")
        await to_round(pilot)
        await type_initiative(pilot, "7", "10")  # the party (7) acts before the monsters (10)
        assert isinstance(gm.screen, RoundScreen)
        text = await until(view, lambda text: "▶ Raf" in text, "Raf acting")
        assert "Trolls and orcs in the tunnel" in text and "Round 1" in text
        assert "── 7" in text and "── 10" in text and "Troll 1  unhurt" in text and "Raf  38/38" in text

        await select(pilot, "Troll 1")
        await pilot.press("d", *"20", "enter")  # 16 of 36 HP left: 44 %, bloodied
        await wait_until(
            pilot,
            lambda: (
                isinstance(gm.screen, RoundScreen) and store(gm).state.combatant(combatant_id(gm, "Troll 1")).hp == 16
            ),
            "the troll's 20 damage",
        )
        text = await until(view, lambda text: "Troll 1  bloodied" in text, "the troll bloodied")
        assert "Troll 1 takes 20 damage." in text and "16/36" not in text

        await pilot.press("u")  # the GM takes it back
        text = await until(view, lambda text: "Troll 1  unhurt" in text, "the undo")
        assert "takes 20 damage" not in text

        await pilot.press("n")  # the party's turn is over: the monsters act
        text = await until(view, lambda text: "✓ Raf" in text and "▶ Troll 1" in text, "the next turn")


async def test_a_secret_step_shows_nothing_of_its_content(
    make_app: Callable[..., CombatApp], viewer: PlayerViewApp
) -> None:
    """AD&D 2e opens each round with the monsters' intentions, decided in secret."""
    gm = make_app()
    async with gm.run_test(size=SIZE) as pilot, viewer.run_test(size=SIZE) as view:
        await to_round(pilot)
        await until(view, lambda text: "Monsters 🔒" in text, "the secret step")
        entries = len(store(gm).state.log_entries())
        await select(pilot, "Troll 1")
        await pilot.press("e")
        form = await until_form(pilot, "the declaration form")
        form.query_one("#f-text", Input).focus()
        await pilot.press(*"grabs the wizard", "enter")
        assert isinstance(gm.screen, RoundScreen)
        assert combatant_id(gm, "Troll 1") in store(gm).state.round_state.declarations  # the GM's state has it
        await pilot.press("d", "3", "enter")  # and whatever the GM does in this step is logged in secret
        assert isinstance(gm.screen, RoundScreen)
        assert [(e.text, e.secret) for e in store(gm).state.log_entries()[entries:]] == [
            ("Troll 1 takes 3 damage: 33/36 HP.", True)
        ]
        watched = store(gm).state

        def read_and_shown() -> bool:  # a poll that read the state shows it before it ends
            screen = viewer.screen
            return isinstance(screen, PlayerViewScreen) and not screen._polling and screen.follower.state == watched

        await wait_until(view, read_and_shown, "the view to read and show the state with the declaration")
        text = shown(viewer)
        assert "grabs the wizard" not in text and "Declared" not in text and "takes 3 damage" not in text
        assert "Monsters 🔒" in text and "Round 1 begins." in text


async def test_the_view_shows_an_action_when_it_is_saved_told_by_the_system_on_linux(tmp_path: Path) -> None:
    """On Linux its look at the files is an hour apart: only being told by the system can show the damage.
    Elsewhere (no inotify) its poll shows it."""
    watch = FolderWatch.open()
    assert watch is not None or not sys.platform.startswith("linux"), "Linux tells of a change through inotify"
    told = watch is not None
    if watch is not None:
        watch.close()
    gm = session.open_demo(tmp_path, DEMO, seed=1)
    assert gm.folder is not None
    viewer = PlayerViewApp(
        tmp_path,
        gm.folder.folder.name,
        settings_path=tmp_path / "no-settings.toml",
        poll_seconds=3600 if told else POLL_SECONDS,
        handle_hangup=False,
    )
    try:
        async with viewer.run_test(size=SIZE) as view:
            await until(view, lambda text: "Troll 1" in text, "the fight")
            troll = next(c for c in gm.state.combatants if c.name == "Troll 1")
            gm.dispatch(a.Damage(combatant=troll.id, amount=5))
            await until(view, lambda text: "Troll 1 takes 5 damage." in text, "the damage")
            gm.undo()
            await until(view, lambda text: "takes 5 damage" not in text, "the undo")
            gm.save_now()  # a new snapshot and journal: the folder is still the one watched
            gm.dispatch(a.Damage(combatant=troll.id, amount=7))
            await until(view, lambda text: "Troll 1 takes 7 damage." in text, "a damage after the files were rotated")
    finally:
        gm.close()


def test_the_command_refuses_a_name_that_is_not_a_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tui_combat.__main__ import main

    assert main(["--data-dir", str(tmp_path), "view", "../elsewhere"]) == 2
    assert main(["--data-dir", str(tmp_path), "view", "no-such-fight"]) == 2
    assert "There is no saved session no-such-fight." in capsys.readouterr().err
