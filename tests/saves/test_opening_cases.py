"""Opening never crashes and never writes what it did not make: a session that holds no fight one can read (not
even its rules), a recovery of nothing, an index that is no file or far too big, a journal record written twice,
a stray file in ``history/`` and a snapshot of a newer state are each refused or flagged, and left as they are."""

from __future__ import annotations

import os
import threading
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest

import tui_combat.fight.store as store_module
from tests.saves.helpers import damage_round, fingerprint, small_fight
from tui_combat.__main__ import main
from tui_combat.engine.encounter import ENCOUNTER_DIR, load_encounter
from tui_combat.engine.model import SCHEMA_VERSION
from tui_combat.fight import session
from tui_combat.fight.store import Store, store_from_encounter
from tui_combat.saves.errors import DamagedSession
from tui_combat.saves.index import INDEX_FILE, read_index
from tui_combat.saves.locations import sessions_dir
from tui_combat.saves.schema import HISTORY, JOURNAL, SNAPSHOT, STATE_SCHEMA
from tui_combat.saves.session_folders import DAMAGED, NEWER, RECOVERABLE
from tui_combat.saves.sums import seal


# -- a session saved through the engine API, unreadable from its first action --------------------------------
def engine_api_session(root: Path, key: str = "ambush") -> Path:
    """A session as ``store_from_encounter`` saves it: its first snapshot holds an empty fight (no name, no
    rules), and every step of the build is in its journal."""
    folder = sessions_dir(root) / key
    store_from_encounter(load_encounter(ENCOUNTER_DIR / "demo_adnd2e.toml"), folder, seed=3).close()
    return folder


def _lines(folder: Path) -> list[bytes]:
    return (folder / JOURNAL).read_bytes().split(b"\n")


FROM_LINE_1: dict[str, Callable[[Path], None]] = {
    "an empty journal": lambda folder: (folder / JOURNAL).write_bytes(b""),
    "a garbled header": lambda folder: (folder / JOURNAL).write_bytes(b"garbage" + (folder / JOURNAL).read_bytes()[7:]),
    "a garbled first action": lambda folder: (folder / JOURNAL).write_bytes(
        b"\n".join([_lines(folder)[0], b"garbage" + _lines(folder)[1][7:], *_lines(folder)[2:]])
    ),
}


@pytest.mark.parametrize("damage", sorted(FROM_LINE_1))
def test_a_session_unreadable_from_its_first_action_is_refused_listed_as_damaged_and_not_recovered(
    tmp_path: Path, damage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "data"
    folder = engine_api_session(root)
    FROM_LINE_1[damage](folder)
    before = fingerprint(folder)
    with pytest.raises(session.SessionError, match="cannot be rebuilt"):
        session.resume(root, "ambush")
    (info,) = session.list_sessions(root, steps=True)
    assert (info.problem, info.recoverable) == (DAMAGED, False)
    assert main(["--data-dir", str(root), "recover", "ambush"]) == 2
    assert "can be rebuilt: no snapshot in it can be read, nor anything that names" in capsys.readouterr().err
    assert sorted(os.listdir(sessions_dir(root))) == ["ambush"]  # no empty ambush-recovered/
    assert fingerprint(folder) == before


def test_a_session_damaged_later_is_listed_with_its_name_and_rules_and_opens_as_far_as_it_reads(tmp_path: Path) -> None:
    root = tmp_path / "data"
    folder = engine_api_session(root)
    lines = _lines(folder)
    (folder / JOURNAL).write_bytes(b"\n".join([*lines[:-2], b"garbage", b""]))
    (info,) = session.list_sessions(root, steps=True)
    assert (info.name, info.ruleset, info.problem) == ("Trolls and orcs in the tunnel", "adnd2e", RECOVERABLE)
    store = session.resume(root, "ambush")
    assert store.read_only and store.state.ruleset == "adnd2e"
    store.close()


def test_a_session_that_names_no_rules_is_refused_plainly(tmp_path: Path) -> None:
    from tui_combat.fight.store import new_state

    root = tmp_path / "data"
    Store.create(new_state(seed=1), sessions_dir(root) / "empty").close()
    with pytest.raises(session.SessionError, match="no ruleset"):
        session.resume(root, "empty")


# -- recover ---------------------------------------------------------------------------------------------------
def test_recover_of_a_session_that_does_not_exist_makes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "data"
    small_fight(sessions_dir(root) / "fight").close()
    for _attempt in range(2):
        assert main(["--data-dir", str(root), "recover", "nowhere"]) == 2
        assert "no saved session nowhere" in capsys.readouterr().err
    assert sorted(os.listdir(sessions_dir(root))) == ["fight"]


# -- the session list's index ------------------------------------------------------------------------------------
def _returns(call: Callable[[], object]) -> bool:
    """Whether ``call`` returns (in a thread given the run's deadline): a read of a FIFO would wait forever."""
    from tests.waiting import deadline

    done = threading.Event()
    worker = threading.Thread(target=lambda: (call(), done.set()), daemon=True)
    worker.start()
    worker.join(deadline())
    return done.is_set()


def test_a_fifo_as_the_index_hangs_nothing_and_is_left_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "data"
    small_fight(sessions_dir(root) / "fight").close()
    os.mkfifo(root / INDEX_FILE)
    assert _returns(lambda: session.list_sessions(root, steps=True))
    assert [info.key for info in session.list_sessions(root)] == ["fight"]
    assert _returns(lambda: main(["--data-dir", str(root), "list"]))
    assert _returns(lambda: main(["--data-dir", str(root), "export", "fight"]))
    assert "fight" in capsys.readouterr().out
    assert (root / INDEX_FILE).is_fifo()  # not replaced: it is not the index this app writes


def test_an_index_far_too_big_is_refused_without_being_read(tmp_path: Path) -> None:
    root = tmp_path / "data"
    small_fight(sessions_dir(root) / "fight").close()
    with (root / INDEX_FILE).open("wb") as index:
        index.truncate(200 << 20)  # 200 MB (sparse: nothing is written)
    tracemalloc.start()
    try:
        assert read_index(root) == {}
        _size, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20 << 20, f"{peak >> 20} MB read"
    assert [info.key for info in session.list_sessions(root)] == ["fight"]


# -- a journal record written twice -----------------------------------------------------------------------------
@pytest.mark.parametrize("where", ["at the end", "in the middle"])
def test_a_record_written_twice_opens_read_only_and_is_never_rewritten(tmp_path: Path, where: str) -> None:
    root = tmp_path / "data"
    folder = sessions_dir(root) / "fight"
    store = small_fight(folder)
    store.save_now()
    damage_round(store, 3)
    store.close()
    lines = _lines(folder)[:-1]
    doubled = len(lines) - 1 if where == "at the end" else 2
    (folder / JOURNAL).write_bytes(b"\n".join([*lines[: doubled + 1], lines[doubled], *lines[doubled + 1 :]]) + b"\n")
    before = fingerprint(folder)
    with pytest.raises(DamagedSession, match="line"):
        Store.resume(folder)
    (info,) = session.list_sessions(root, steps=True)
    assert info.problem == RECOVERABLE
    opened = session.resume(root, "fight")
    assert opened.read_only and opened.damaged
    opened.save_now()
    opened.close()
    assert fingerprint(folder) == before


# -- history/ ---------------------------------------------------------------------------------------------------
def test_a_stray_file_in_the_history_folder_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "BLOCK_SIZE", 3)
    folder = tmp_path / "fight"
    store = small_fight(folder)
    store.save_now()
    strays = {"README.txt": b"my notes", "old.json.z": b"not a block", "000001-x.json.z": b"nor this"}
    for name, data in strays.items():
        (folder / HISTORY / name).write_bytes(data)
    for _round in range(4):
        damage_round(store, 4)
        store.save_now()
    store.close()
    assert {name: (folder / HISTORY / name).read_bytes() for name in strays} == strays


# -- a newer state ----------------------------------------------------------------------------------------------
def test_a_snapshot_of_a_newer_state_is_listed_as_newer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "data"
    folder = sessions_dir(root) / "fight"
    small_fight(folder).close()
    data = (folder / SNAPSHOT).read_bytes()
    unsealed = b"{" + data[len(b'{"sum":"12345678",') :]
    (folder / SNAPSHOT).write_bytes(seal(unsealed.replace(b'"schema":%d' % SCHEMA_VERSION, b'"schema":99')))
    (info,) = session.list_sessions(root, steps=True)
    assert (info.problem, info.recoverable) == (NEWER, False)
    assert main(["--data-dir", str(root), "list"]) == 0
    assert "(newer version)" in capsys.readouterr().out
    assert STATE_SCHEMA == SCHEMA_VERSION
