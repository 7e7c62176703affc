"""The session lifecycle without a screen: new, from a file, a demo, resume by key, save as, list."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tui_combat.engine import actions as a
from tui_combat.engine.model import SCHEMA_VERSION
from tui_combat.fight import session
from tui_combat.saves import codec
from tui_combat.saves.schema import JOURNAL, SNAPSHOT


def test_a_new_empty_fight_has_two_sides_and_its_own_folder(tmp_path: Path) -> None:
    store = session.new_empty(tmp_path, seed=4)
    state = store.state
    assert (state.name, state.phase, state.seed) == ("New fight", "setup", 4)
    assert [(side.name, side.is_party) for side in state.sides] == [("Party", True), ("Monsters", False)]
    assert store.folder is not None and store.folder.folder == tmp_path / "sessions" / "new-fight"
    store.close()
    second = session.new_empty(tmp_path, seed=4)
    assert second.folder is not None and second.folder.folder.name == "new-fight-2"  # never the same folder
    second.close()


def test_a_demo_opens_in_set_up_and_an_unknown_one_is_refused(tmp_path: Path) -> None:
    store = session.open_demo(tmp_path, session.DEMOS[0].file_name, seed=1)
    assert store.state.name == "Trolls and orcs in the tunnel" and len(store.state.combatants) == 12
    store.close()
    with pytest.raises(session.SessionError, match="no demo"):
        session.open_demo(tmp_path, "../secrets.toml")


def test_a_broken_encounter_file_is_refused_with_its_name(tmp_path: Path) -> None:
    path = tmp_path / "typo.toml"
    path.write_text(
        'name = "Ambush"\n[[sides]]\nname = "Party"\n[[sides.combatants]]\nname = "Raf"\nhpp = 3\n', encoding="utf-8"
    )
    with pytest.raises(session.SessionError) as refused:
        session.new_from_file(tmp_path / "data", path)
    assert refused.value.title == "Cannot start the encounter"
    assert str(path) in str(refused.value) and "hpp" in str(refused.value)
    assert not (tmp_path / "data" / "sessions").exists()  # nothing was saved


@pytest.mark.parametrize("key", ["missing", "", "../data", "a/b"])
def test_resuming_what_is_not_a_saved_session_is_refused(tmp_path: Path, key: str) -> None:
    (tmp_path / "sessions" / "a" / "b").mkdir(parents=True)
    with pytest.raises(session.SessionError) as refused:
        session.resume(tmp_path, key)
    assert refused.value.title == "Cannot open the session"


def test_save_as_goes_on_in_a_new_folder_and_leaves_the_old_one(tmp_path: Path) -> None:
    store = session.open_demo(tmp_path, session.DEMOS[0].file_name, seed=1)
    assert store.folder is not None
    old_folder = store.folder.folder
    store.dispatch(a.Damage(combatant="c2", amount=5))  # Raf: 38 → 33
    with pytest.raises(session.SessionError, match="empty"):
        session.save_as(store, tmp_path, "   ")
    key = session.save_as(store, tmp_path, "Tunnel, second try")
    assert key == "tunnel-second-try"
    store.dispatch(a.Damage(combatant="c2", amount=1))  # only in the new folder
    store.close()

    resumed = session.resume(tmp_path, key)
    assert resumed.state.name == "Tunnel, second try"
    assert resumed.state.combatant("c2").hp == 32
    resumed.close()
    old = session.resume(tmp_path, old_folder.name)
    assert old.state.name == "Trolls and orcs in the tunnel" and old.state.combatant("c2").hp == 33
    old.close()

    listed = {info.key: (info.name, info.ruleset, info.round) for info in session.list_sessions(tmp_path)}
    assert listed[key] == ("Tunnel, second try", "adnd2e", 0)
    assert set(listed) == {old_folder.name, key}


def test_a_new_session_is_written_in_todays_format(tmp_path: Path) -> None:
    store = session.new_empty(tmp_path, seed=1)
    assert store.folder is not None
    folder = store.folder.folder
    store.close()
    snapshot = json.loads((folder / SNAPSHOT).read_bytes())
    assert (snapshot["schema"], snapshot["current"]["schema"]) == (codec.SNAPSHOT_SCHEMA, SCHEMA_VERSION) == (5, 3)
    header = json.loads((folder / JOURNAL).read_bytes().splitlines()[0])
    assert (header["k"], header["schema"], header["app"], header["after"]) == ("header", 2, "tui-combat", 0)
    assert (
        header["start"]["schema"] == SCHEMA_VERSION
    )  # the first state, to rebuild the session should every snapshot be lost


def test_check_builds_an_encounter_in_memory(tmp_path: Path) -> None:
    from tests.common import DEMO

    state = session.check_encounter(DEMO)
    assert len(state.combatants) == 12 and state.ruleset == "adnd2e"
