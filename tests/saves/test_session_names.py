"""One session per name: free names for new sessions, "save as" in place, demos opened twice, sessions left
empty, rename and delete, finding a session by its listed name, and what the session list shows."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from tests.common import registered
from tests.plugins.skirmish import RULESET as SKIRMISH
from tests.saves.helpers import fingerprint
from tui_combat.engine import actions as a
from tui_combat.engine.errors import RuleError
from tui_combat.fight import session
from tui_combat.fight.store import Store, new_state
from tui_combat.saves.schema import SNAPSHOT
from tui_combat.saves.session_folders import format_time, list_sessions

ADND_DEMO = "demo_adnd2e.toml"
TROLLS = "Trolls and orcs in the tunnel"


def sessions(root: Path) -> list[tuple[str, str]]:
    """(key, name) of every saved session, by key."""
    return sorted((info.key, info.name) for info in list_sessions(root))


def folders(root: Path) -> list[str]:
    parent = root / "sessions"
    return sorted(child.name for child in parent.iterdir()) if parent.exists() else []


def played_demo(root: Path) -> Store:
    """The AD&D demo with one real action done (Raf takes 5: 38 → 33)."""
    store = session.open_demo(root, ADND_DEMO, seed=1)
    store.dispatch(a.Damage(combatant="c2", amount=5))
    return store


# -- new sessions take a free name ----------------------------------------------------------------------
def test_new_fights_and_demos_take_the_next_free_name(tmp_path: Path) -> None:
    for _number in range(3):
        session.new_empty(tmp_path, seed=1).close()
    played_demo(tmp_path).close()
    played_demo(tmp_path).close()
    assert sessions(tmp_path) == [
        ("new-fight", "New fight"),
        ("new-fight-2", "New fight 2"),
        ("new-fight-3", "New fight 3"),
        ("trolls-and-orcs-in-the-tunnel", TROLLS),
        ("trolls-and-orcs-in-the-tunnel-2", f"{TROLLS} 2"),
    ]


def test_a_failed_start_leaves_no_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text(
        'name = "Ford"\n[[sides]]\nname = "A"\n[[sides.combatants]]\nname = "Raf"\nhp = -1\n', encoding="utf-8"
    )
    with pytest.raises(session.SessionError, match="line 6"):
        session.new_from_file(tmp_path, broken)
    assert folders(tmp_path) == []

    calls = 0
    dispatch = Store.dispatch

    def refusing_the_third(store: Store, action: a.Action) -> object:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise RuleError("refused")
        return dispatch(store, action)

    monkeypatch.setattr(Store, "dispatch", refusing_the_third)
    with pytest.raises(session.SessionError, match="refused"):
        session.new_empty(tmp_path, seed=1)
    assert folders(tmp_path) == []  # the folder the build had begun to write is gone


# -- save as ---------------------------------------------------------------------------------------------
def test_save_as_under_its_own_name_saves_in_place(tmp_path: Path) -> None:
    store = played_demo(tmp_path)
    key = session.save_as(store, tmp_path, "  TROLLS and orcs in the tunnel ")
    assert key == "trolls-and-orcs-in-the-tunnel"
    assert folders(tmp_path) == [key]  # no "-2" folder
    store.close()
    assert sessions(tmp_path) == [(key, "TROLLS and orcs in the tunnel")]  # the new spelling is kept
    resumed = session.resume(tmp_path, key)
    assert resumed.state.combatant("c2").hp == 33
    resumed.close()


def test_save_as_refuses_the_name_of_another_session(tmp_path: Path) -> None:
    session.new_empty(tmp_path, seed=1).close()
    store = played_demo(tmp_path)
    with pytest.raises(session.SessionError, match="already a session called New fight"):
        session.save_as(store, tmp_path, "new FIGHT")
    assert session.save_as(store, tmp_path, "Second try") == "second-try"
    store.close()
    assert sessions(tmp_path) == [
        ("new-fight", "New fight"),
        ("second-try", "Second try"),
        ("trolls-and-orcs-in-the-tunnel", TROLLS),
    ]


def test_a_read_only_session_is_not_saved_in_place(tmp_path: Path) -> None:
    writer = played_demo(tmp_path)
    assert writer.folder is not None
    reader = session.resume(tmp_path, writer.folder.folder.name)
    assert reader.read_only
    with pytest.raises(session.SessionError, match="another name"):
        session.save_as(reader, tmp_path, TROLLS)
    reader.close()
    writer.close()


# -- a new fight's rules --------------------------------------------------------------------------------------
def _saved_at(store: Store, when: float) -> None:
    assert store.folder is not None
    for name in os.listdir(store.folder.folder):
        os.utime(store.folder.folder / name, (when, when))


def test_a_new_fight_starts_under_the_rules_of_the_newest_saved_fight(tmp_path: Path) -> None:
    first = session.new_empty(tmp_path, seed=1)
    assert first.state.ruleset == "adnd2e"  # nothing saved: the first installed ruleset
    assert [info.ruleset for info in list_sessions(tmp_path)] == ["adnd2e"]  # the first snapshot says so
    first.close()
    session.discard_if_empty(first)
    trudvang, dnd5e = (session.open_demo(tmp_path, demo, seed=1) for demo in ("demo_trudvang.toml", "demo_dnd5e.toml"))
    for store in (trudvang, dnd5e):
        store.close()
    _saved_at(trudvang, time.time() - 60)
    _saved_at(dnd5e, time.time() - 3600)
    assert session.usual_ruleset(tmp_path) == "trudvang"
    second = session.new_empty(tmp_path, seed=1)
    assert second.state.ruleset == "trudvang"
    second.close()


# -- a demo opened twice -----------------------------------------------------------------------------------
def test_a_demo_opened_again_finds_the_session_of_the_first(tmp_path: Path) -> None:
    assert session.existing_session_for_demo(tmp_path, ADND_DEMO) is None
    played_demo(tmp_path).close()
    found = session.existing_session_for_demo(tmp_path, ADND_DEMO)
    assert found is not None and (found.key, found.name) == ("trolls-and-orcs-in-the-tunnel", TROLLS)
    assert session.existing_session_for_demo(tmp_path, "demo_dnd5e.toml") is None
    assert session.existing_session_for_demo(tmp_path, "no-such-demo.toml") is None
    second = played_demo(tmp_path)  # the GM chose to start another: "… 2"
    second.dispatch(a.Damage(combatant="c2", amount=1))
    second.save_now()
    second.close()
    os.utime(tmp_path / "sessions" / "trolls-and-orcs-in-the-tunnel-2" / SNAPSHOT, (time.time() + 60, time.time() + 60))
    newest = session.existing_session_for_demo(tmp_path, ADND_DEMO)
    assert newest is not None and newest.name == f"{TROLLS} 2"


# -- a new session left empty ------------------------------------------------------------------------------
def test_a_new_session_left_before_any_action_leaves_nothing(tmp_path: Path) -> None:
    empty = session.new_empty(tmp_path, seed=1)
    assert folders(tmp_path) == ["new-fight"]
    assert session.discard_if_empty(empty)
    assert folders(tmp_path) == [] and list_sessions(tmp_path) == []

    undone = session.open_demo(tmp_path, ADND_DEMO, seed=1)
    undone.dispatch(a.Damage(combatant="c2", amount=5))
    undone.undo()  # all of it undone: nothing real was done
    assert session.discard_if_empty(undone)
    assert folders(tmp_path) == []


def test_a_session_with_an_action_or_resumed_is_kept(tmp_path: Path) -> None:
    played = played_demo(tmp_path)
    assert not session.discard_if_empty(played)
    played.close()
    key = folders(tmp_path)[0]
    resumed = session.resume(tmp_path, key)
    resumed.undo()  # back to the demo as it was built, but it was not started here
    assert not session.discard_if_empty(resumed)
    resumed.close()
    assert folders(tmp_path) == [key]


# -- rename and delete -------------------------------------------------------------------------------------
def test_rename_changes_the_listed_name_and_the_folder(tmp_path: Path) -> None:
    played_demo(tmp_path).close()
    assert session.rename(tmp_path, "trolls-and-orcs-in-the-tunnel", "  The tunnel, take two ") == "the-tunnel-take-two"
    assert sessions(tmp_path) == [("the-tunnel-take-two", "The tunnel, take two")]
    resumed = session.resume(tmp_path, "the-tunnel-take-two")
    assert resumed.state.combatant("c2").hp == 33
    resumed.undo()  # the rename is an action like any: undone first
    assert resumed.state.name == TROLLS and resumed.state.combatant("c2").hp == 33
    resumed.close()


def test_rename_keeps_the_folder_when_the_new_one_is_taken(tmp_path: Path) -> None:
    played_demo(tmp_path).close()
    (tmp_path / "sessions" / "bridge").mkdir()  # not a session, but the folder is there
    assert session.rename(tmp_path, "trolls-and-orcs-in-the-tunnel", "Bridge") == "trolls-and-orcs-in-the-tunnel"
    assert sessions(tmp_path) == [("trolls-and-orcs-in-the-tunnel", "Bridge")]


def test_rename_is_refused_for_a_taken_name_an_empty_one_or_an_open_session(tmp_path: Path) -> None:
    session.new_empty(tmp_path, seed=1).close()
    store = played_demo(tmp_path)
    assert store.folder is not None
    key = store.folder.folder.name
    folder = store.folder.folder
    with pytest.raises(session.SessionError, match="already a session called New fight"):
        session.rename(tmp_path, key, "NEW fight")
    with pytest.raises(session.SessionError, match="empty"):
        session.rename(tmp_path, key, "  ")
    before = fingerprint(folder)
    with pytest.raises(session.SessionError, match="another copy"):
        session.rename(tmp_path, key, "Elsewhere")  # the store above holds it
    assert fingerprint(folder) == before
    store.close()


def test_delete_removes_the_folder_unless_the_session_is_open(tmp_path: Path) -> None:
    session.new_empty(tmp_path, seed=1).close()
    store = played_demo(tmp_path)
    assert store.folder is not None
    key = store.folder.folder.name
    with pytest.raises(session.SessionError, match="open in another copy"):
        session.delete(tmp_path, key)
    assert folders(tmp_path) == ["new-fight", key]
    store.close()
    session.delete(tmp_path, key)
    assert folders(tmp_path) == ["new-fight"]
    with pytest.raises(session.SessionError, match="no saved session"):
        session.delete(tmp_path, key)
    with pytest.raises(session.SessionError, match="not the name of a saved session"):
        session.delete(tmp_path, "../new-fight")
    assert folders(tmp_path) == ["new-fight"]


# -- finding a session by name -----------------------------------------------------------------------------
def test_a_session_is_found_by_its_key_or_its_listed_name(tmp_path: Path) -> None:
    played_demo(tmp_path).close()
    for name in (
        "trolls-and-orcs-in-the-tunnel",
        TROLLS,
        "trolls AND ORCS in the tunnel",
        "TROLLS-and-orcs-in-the-tunnel",
    ):
        found = session.find_session(tmp_path, name)
        assert found is not None and found.key == "trolls-and-orcs-in-the-tunnel", name
    assert session.find_session(tmp_path, "goblins") is None


def test_two_sessions_of_one_name_are_ambiguous_unless_one_is_damaged(tmp_path: Path) -> None:
    for folder in ("ford", "ford-old"):  # older versions let two sessions share a name
        store = Store.create(new_state(1, ruleset="adnd2e"), tmp_path / "sessions" / folder)
        store.dispatch(a.SetName(name="Ford"))
        store.save_now()
        store.close()
    with pytest.raises(session.SessionError) as ambiguous:
        session.find_session(tmp_path, "ford ")
    assert "ford\t" in str(ambiguous.value) and "ford-old\t" in str(ambiguous.value)
    found = session.find_session(tmp_path, "ford")  # a folder name is never ambiguous
    assert found is not None and found.key == "ford"
    (tmp_path / "sessions" / "ford-old" / SNAPSHOT).write_bytes(b"{broken")
    found = session.find_session(tmp_path, "FORD")
    assert found is not None and found.key == "ford"


# -- what the list shows -----------------------------------------------------------------------------------
def test_the_list_gives_the_phase_the_round_and_the_step(tmp_path: Path) -> None:
    store = played_demo(tmp_path)
    store.save_now()
    (info,) = list_sessions(tmp_path, steps=True)
    assert (info.phase, info.round, info.step, session.progress_label(info)) == ("setup", 0, -1, "set-up")
    store.dispatch(a.StartFight())
    store.save_now()
    (info,) = list_sessions(tmp_path, steps=True)
    # AD&D 2e: the round opens with the monsters' secret intentions.
    assert (info.phase, info.round, info.step, info.step_label) == ("round", 1, 0, "Monsters")
    assert session.progress_label(info) == "round 1 · Monsters"
    (quick,) = list_sessions(tmp_path)
    assert (quick.step, quick.step_label, session.progress_label(quick)) == (0, "", "round 1")
    store.dispatch(a.NextStep())  # journalled, not in the snapshot: the step is not known without a replay
    (info,) = list_sessions(tmp_path, steps=True)
    assert (info.phase, info.step, session.progress_label(info)) == ("round", -1, "round 1")
    store.close()


def test_the_ruleset_is_listed_by_its_name() -> None:
    assert session.ruleset_label("adnd2e") == "AD&D 2e"
    assert session.ruleset_label("players_option") == "Player's Option"
    with registered(SKIRMISH):
        assert session.ruleset_label("skirmish") == "Skirmish"
    assert session.ruleset_label("not-installed") == "not-installed"


@pytest.fixture
def utc(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.mark.usefixtures("utc")
def test_the_saved_time_reads_today_yesterday_or_a_date() -> None:
    def at(day: int, hour: int, minute: int) -> float:
        return datetime(2026, 3, day, hour, minute, tzinfo=UTC).timestamp()

    now = at(10, 12, 0)
    assert format_time(at(10, 9, 5), now=now) == "today 09:05"
    assert format_time(at(9, 23, 59), now=now) == "yesterday 23:59"
    assert format_time(at(8, 10, 0), now=now) == "2026-03-08 10:00"
    assert format_time(0.0, now=now) == "—"


def test_a_name_with_a_control_character_is_refused_by_save_as_and_rename_and_nothing_is_made(tmp_path: Path) -> None:
    store = played_demo(tmp_path)
    assert store.folder is not None
    key = store.folder.folder.name
    for name in ("Ambush\x1b]0;owned\x07", "Two\nlines"):
        with pytest.raises(session.SessionError, match="control character"):
            session.save_as(store, tmp_path, name)
    assert folders(tmp_path) == [key]  # no copy left in a folder of that name
    store.close()
    with pytest.raises(session.SessionError, match="control character"):
        session.rename(tmp_path, key, "Am\x9bbush")
    assert sessions(tmp_path) == [(key, TROLLS)]
