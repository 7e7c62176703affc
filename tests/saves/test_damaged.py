"""Opening a damaged session never changes it and never crashes: it says what is wrong and what can be rebuilt."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import msgspec
import pytest

import tui_combat.fight.store as store_module
from tests.saves.helpers import damage_round, fingerprint, small_fight
from tui_combat.__main__ import main
from tui_combat.engine import actions as a
from tui_combat.engine.model import SCHEMA_VERSION
from tui_combat.fight.store import Store, recover
from tui_combat.saves import codec
from tui_combat.saves.errors import DamagedSession, NewerVersionError, SaveError
from tui_combat.saves.schema import JOURNAL, MAX_TORN_TAIL, PREV_JOURNAL, PREV_SNAPSHOT, SNAPSHOT
from tui_combat.saves.session_folders import RECOVERABLE, list_sessions
from tui_combat.saves.sums import seal


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def folder(root: Path) -> Path:
    return root / "sessions" / "fight"


def saved_session(folder: Path) -> Store:
    """A closed session with a previous snapshot and journal, a snapshot, and three actions journalled after it."""
    store = small_fight(folder)
    store.save_now()
    damage_round(store, 3)
    store.close()
    return store


def line(entry: codec.Entry) -> bytes:
    return seal(codec.line_encoder.encode(entry)) + b"\n"


def append(path: Path, data: bytes) -> None:
    with path.open("ab") as handle:
        handle.write(data)


def open_damaged(folder: Path) -> DamagedSession:
    before = fingerprint(folder)
    with pytest.raises(DamagedSession) as caught:
        Store.resume(folder)
    assert fingerprint(folder) == before, "opening a damaged session changed it"
    return caught.value


def last_seq(folder: Path) -> int:
    lines = (folder / JOURNAL).read_bytes().split(b"\n")[:-1]
    decoded = codec.line_decoder.decode(lines[-1])
    assert not isinstance(decoded, codec.JournalHeader)
    return decoded.seq


def journal_line_count(folder: Path) -> int:
    return (folder / JOURNAL).read_bytes().count(b"\n")


# -- a torn tail is an interrupted write: skipped, the file kept until the next write --------------------
@pytest.mark.parametrize(
    "tail", [b'{"k":"do","seq":9', b"\0" * 300, b"{" + b"x" * (MAX_TORN_TAIL - 1)], ids=["prefix", "zeros", "longest"]
)
def test_a_torn_tail_opens_with_a_warning_and_the_file_unchanged(folder: Path, root: Path, tail: bytes) -> None:
    store = saved_session(folder)
    append(folder / JOURNAL, tail)
    (info,) = list_sessions(root)
    assert info.problem == ""
    before = fingerprint(folder)
    resumed = Store.resume(folder)
    assert resumed.state == store.state
    assert len(resumed.warnings) == 1 and "cut off" in resumed.warnings[0]
    resumed.close()
    assert fingerprint(folder) == before


# -- damage: refused, reported, nothing changed ----------------------------------------------------------
@pytest.mark.parametrize(
    "tail",
    [b"garbage\n", b'{"k":"undo"\n', b"garbage", b"{" + b"x" * MAX_TORN_TAIL, b"\x89PNG" * 1_000_000],
    ids=["unreadable-last-line", "incomplete-but-ended", "short-junk", "longer-than-any-line", "4MB-of-junk"],
)
def test_damage_at_the_end_is_reported_and_recoverable(folder: Path, root: Path, tail: bytes, tmp_path: Path) -> None:
    store = saved_session(folder)
    lines = journal_line_count(folder)
    append(folder / JOURNAL, tail)
    if len(tail) < 4096:  # the list looks at the journal's last 4 KiB only; opening reads it all
        (info,) = list_sessions(root)
        assert info.problem == RECOVERABLE and info.recoverable
    damaged = open_damaged(folder)
    report = damaged.report
    assert report.recoverable and report.source == SNAPSHOT
    assert report.last_line == lines and report.actions == 3
    assert str(folder / JOURNAL) in str(damaged)
    assert f"tui-combat recover {folder.name}" in str(damaged)

    before = fingerprint(folder)
    rebuilt = recover(folder, tmp_path / "rebuilt")
    assert fingerprint(folder) == before
    assert rebuilt.state == store.state
    assert rebuilt.done_actions() == store.done_actions()
    rebuilt.close()
    assert Store.resume(tmp_path / "rebuilt").state == store.state


def test_an_unreadable_line_in_the_middle_names_its_line_and_recovers_up_to_it(folder: Path, tmp_path: Path) -> None:
    store = small_fight(folder)
    store.save_now()
    states = []
    for amount in range(1, 6):
        store.dispatch(a.Damage(combatant="c5", amount=amount))
        states.append(store.state)
    store.close()
    lines = (folder / JOURNAL).read_bytes().split(b"\n")
    lines[3] = b'{"k":"do","seq":' + b"?" * 10  # line 4: the third action after the header
    (folder / JOURNAL).write_bytes(b"\n".join(lines))

    damaged = open_damaged(folder)
    assert "line 4" in str(damaged)
    assert damaged.report.last_line == 3 and damaged.report.actions == 2

    rebuilt = recover(folder, tmp_path / "rebuilt")
    assert rebuilt.state == states[1]
    rebuilt.close()
    earlier = recover(folder, tmp_path / "earlier", up_to_line=2)
    assert earlier.state == states[0]
    earlier.close()


def replay_error_cases(store: Store) -> dict[str, bytes]:
    seq = last_seq_of(store)
    return {
        "unknown-combatant": line(codec.Done(seq=seq + 1, round=0, a=a.Damage(combatant="c99", amount=3))),
        "redo-with-nothing-to-redo": line(codec.Redone(seq=seq + 1, round=0)),
        "malformed-roll": (
            b'{"k":"do","seq":%d,"round":0,"a":{"t":"damage","combatant":"c5","amount":2,'
            b'"roll":{"expr":"1d6","total":"six"}}}\n'
        )
        % (seq + 1),
        "unknown-action": b'{"k":"do","seq":%d,"round":0,"a":{"t":"fireball","radius":20}}\n' % (seq + 1),
    }


def last_seq_of(store: Store) -> int:
    return store._seq


@pytest.mark.parametrize("case", ["unknown-combatant", "redo-with-nothing-to-redo", "malformed-roll", "unknown-action"])
def test_a_journal_line_that_cannot_be_replayed_is_a_clear_error(folder: Path, case: str, tmp_path: Path) -> None:
    store = saved_session(folder)
    lines = journal_line_count(folder)
    append(folder / JOURNAL, replay_error_cases(store)[case])
    damaged = open_damaged(folder)
    message = str(damaged)
    assert f"line {lines + 1}" in message and str(folder / JOURNAL) in message
    assert "Traceback" not in message
    assert damaged.report.last_line == lines
    rebuilt = recover(folder, tmp_path / "rebuilt")
    assert rebuilt.state == store.state
    rebuilt.close()


def test_an_undo_with_nothing_to_undo_is_a_clear_error(folder: Path) -> None:
    store = Store.create(store_module.new_state(seed=3, ruleset="adnd2e"), folder)
    store.close()
    append(folder / JOURNAL, line(codec.Undone(seq=1, round=0)))
    damaged = open_damaged(folder)
    assert "nothing to undo" in str(damaged) and "line 2" in str(damaged)


def test_whatever_a_ruleset_raises_while_replaying_is_reported(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    saved_session(folder)
    real_apply = store_module.apply

    def broken_apply(state: object, action: a.Action) -> object:
        if isinstance(action, a.Damage):
            raise ZeroDivisionError("a ruleset bug")
        return real_apply(state, action)  # type: ignore[arg-type]

    monkeypatch.setattr(store_module, "apply", broken_apply)
    damaged = open_damaged(folder)
    assert "ZeroDivisionError: a ruleset bug" in str(damaged)


def test_a_gap_in_the_journal_is_damage(folder: Path) -> None:
    store = saved_session(folder)
    append(folder / JOURNAL, line(codec.Done(seq=store._seq + 2, round=0, a=a.Note(text="later"))))
    damaged = open_damaged(folder)
    assert "missing" in str(damaged)
    assert damaged.report.actions == 3


# -- missing, empty or headless journals -----------------------------------------------------------------
def test_a_missing_journal_is_reported(folder: Path, tmp_path: Path) -> None:
    saved_session(folder)
    (folder / JOURNAL).unlink()
    damaged = open_damaged(folder)
    assert str(folder / JOURNAL) in str(damaged) and "missing" in str(damaged)
    assert damaged.report.recoverable
    (info,) = list_sessions(folder.parent.parent)
    assert info.problem == RECOVERABLE


def test_an_empty_journal_is_reported(folder: Path) -> None:
    saved_session(folder)
    (folder / JOURNAL).write_bytes(b"")
    damaged = open_damaged(folder)
    assert "empty" in str(damaged)
    assert damaged.report.recoverable and damaged.report.actions == 0


def test_a_journal_without_its_header_is_reported_and_its_lines_recovered(folder: Path, tmp_path: Path) -> None:
    store = saved_session(folder)
    data = (folder / JOURNAL).read_bytes()
    (folder / JOURNAL).write_bytes(data[data.index(b"\n") + 1 :])
    damaged = open_damaged(folder)
    assert "no header" in str(damaged)
    rebuilt = recover(folder, tmp_path / "rebuilt")
    assert rebuilt.state == store.state
    rebuilt.close()


# -- snapshots ------------------------------------------------------------------------------------------
def test_a_corrupt_newest_snapshot_falls_back_to_the_previous_one_and_loses_nothing(
    folder: Path, root: Path, tmp_path: Path
) -> None:
    store = saved_session(folder)
    store = Store.resume(folder)
    damage_round(store, 2)
    store.save_now()  # snapshot.prev.json now holds the state three actions earlier
    damage_round(store, 2)
    store.close()
    assert (folder / PREV_SNAPSHOT).exists() and (folder / PREV_JOURNAL).exists()
    data = (folder / SNAPSHOT).read_bytes()
    (folder / SNAPSHOT).write_bytes(data[: len(data) // 3])

    damaged = open_damaged(folder)
    assert damaged.report.recoverable and damaged.report.source == PREV_SNAPSHOT
    (info,) = list_sessions(root)
    assert info.problem == RECOVERABLE and info.recoverable
    rebuilt = recover(folder, tmp_path / "rebuilt")
    assert rebuilt.state == store.state
    assert rebuilt.done_actions() == store.done_actions()
    rebuilt.close()


@pytest.mark.parametrize("rotated", [False, True], ids=["young-session", "after-a-snapshot"])
def test_a_missing_snapshot_with_an_intact_journal_is_listed_as_recoverable(
    folder: Path, root: Path, tmp_path: Path, rotated: bool
) -> None:
    store = small_fight(folder)
    if rotated:
        store.save_now()
    damage_round(store, 2)
    store.close()
    (folder / SNAPSHOT).unlink()

    (info,) = list_sessions(root)
    assert info.key == "fight" and info.problem == RECOVERABLE and info.recoverable
    damaged = open_damaged(folder)
    assert damaged.report.recoverable
    assert damaged.report.source == (PREV_SNAPSHOT if rotated else JOURNAL)
    before = fingerprint(folder)
    rebuilt = recover(folder, tmp_path / "rebuilt")
    assert fingerprint(folder) == before
    assert rebuilt.state == store.state
    rebuilt.close()


def test_nothing_recoverable_is_said_plainly(folder: Path, root: Path, tmp_path: Path) -> None:
    store = small_fight(folder)
    store.save_now()
    store.close()
    for name in (SNAPSHOT, PREV_SNAPSHOT, PREV_JOURNAL):
        (folder / name).write_bytes(b"{}garbage")
    damaged = open_damaged(folder)
    assert not damaged.report.recoverable
    (info,) = list_sessions(root)
    assert info.problem == "damaged" and not info.recoverable
    with pytest.raises(SaveError, match="Nothing in"):
        recover(folder, tmp_path / "rebuilt")
    assert not (tmp_path / "rebuilt").exists()


@pytest.mark.parametrize(
    "schema", [f'"schema":{codec.SNAPSHOT_SCHEMA}', f'"schema":{SCHEMA_VERSION}'], ids=["format", "state"]
)
def test_a_newer_snapshot_is_refused_not_reported_as_damage(folder: Path, schema: str) -> None:
    saved_session(folder)
    data = (folder / SNAPSHOT).read_bytes()
    assert schema.encode() in data
    (folder / SNAPSHOT).write_bytes(data.replace(schema.encode(), b'"schema":99', 1))
    before = fingerprint(folder)
    with pytest.raises(NewerVersionError):
        Store.resume(folder)
    assert fingerprint(folder) == before
    with pytest.raises(NewerVersionError):  # nor rebuilt by this older version from the journal's first state
        recover(folder, folder.parent / "rebuilt")
    assert fingerprint(folder) == before and not (folder.parent / "rebuilt").exists()


# -- recovering -----------------------------------------------------------------------------------------
def test_recovery_never_writes_over_anything(folder: Path, tmp_path: Path) -> None:
    saved_session(folder)
    append(folder / JOURNAL, b"garbage\n")
    occupied = tmp_path / "occupied"
    occupied.mkdir()
    (occupied / "keep.txt").write_text("mine")
    with pytest.raises(SaveError, match="already exists"):
        recover(folder, occupied)
    assert (occupied / "keep.txt").read_text() == "mine"
    with pytest.raises(SaveError, match="already exists"):
        recover(folder, folder)


def test_the_command_line_recovers_beside_the_damaged_session(
    folder: Path, root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = saved_session(folder)
    append(folder / JOURNAL, b"garbage\n")
    before = fingerprint(folder)
    assert main(["--data-dir", str(root), "recover", "fight"]) == 0
    assert "fight-recovered" in capsys.readouterr().out
    assert fingerprint(folder) == before
    assert Store.resume(root / "sessions" / "fight-recovered").state == store.state
    assert main(["--data-dir", str(root), "recover", "no-such-fight"]) == 2
    assert "There is no saved session no-such-fight." in capsys.readouterr().err


# -- leftovers ------------------------------------------------------------------------------------------
def test_leftover_temp_files_are_removed_when_a_writer_opens(folder: Path) -> None:
    saved_session(folder)
    leftovers = [folder / ".snapshot.json.1a2b3c.tmp", folder / ".journal.prev.jsonl.ffff.tmp"]
    for path in leftovers:
        path.write_bytes(b"half a snapshot")
    (folder / "notes.txt").write_text("the GM's own file")
    Store.resume(folder).close()
    assert not any(path.exists() for path in leftovers)
    assert (folder / "notes.txt").read_text() == "the GM's own file"


def test_temp_files_stay_when_the_session_is_damaged(folder: Path) -> None:
    saved_session(folder)
    (folder / ".snapshot.json.1a2b3c.tmp").write_bytes(b"half a snapshot")
    append(folder / JOURNAL, b"garbage\n")
    open_damaged(folder)


def test_decoding_a_report_round_trips(folder: Path) -> None:
    saved_session(folder)
    append(folder / JOURNAL, b"garbage\n")
    report = open_damaged(folder).report
    assert msgspec.json.decode(msgspec.json.encode(report), type=type(report)) == report


def _flipped(path: Path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0x01
    path.write_bytes(bytes(data))


def test_a_flipped_byte_anywhere_in_any_file_is_damage_and_nothing_is_rewritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "BLOCK_SIZE", 3)
    original = tmp_path / "original"
    store = small_fight(original)
    store.save_now()
    damage_round(store, 5)
    store.save_now()
    damage_round(store, 2)
    store.close()
    files = sorted(path.relative_to(original) for path in original.rglob("*") if path.is_file())
    assert {SNAPSHOT, PREV_SNAPSHOT, JOURNAL, PREV_JOURNAL} <= {str(name) for name in files}
    assert any(str(name).startswith("history/") for name in files)
    for name in files:
        size = (original / name).stat().st_size
        for at in sorted({0, 1, size // 5, size // 2, size - 2, size - 1}):
            folder = tmp_path / f"copy-{str(name).replace('/', '-')}-{at}"
            shutil.copytree(original, folder)
            _flipped(folder / name, at)
            before = fingerprint(folder)
            try:
                opened = Store.resume(folder, damaged_read_only=True)  # as the app opens a session
            except DamagedSession as error:  # only when nothing in it can be rebuilt
                assert not error.report.recoverable, (name, at, str(error))
                assert name.name in str(error) or str(name.parent) in str(error), (name, at, str(error))
            else:
                assert opened.read_only, f"{name} with byte {at} flipped opened for writing"
                assert name.name in opened.read_only_reason
                opened.save_now()
                opened.close()
            assert fingerprint(folder) == before, (name, at)
            shutil.rmtree(folder)


def _damages(folder: Path) -> dict[str, Callable[[], None]]:
    journal, snapshot = folder / JOURNAL, folder / SNAPSHOT

    def edit_that_stays_json() -> None:
        data = journal.read_bytes()
        journal.write_bytes(data.replace(b'"amount":3', b'"amount":9', 1))

    def flip_mid_journal() -> None:
        data = bytearray(journal.read_bytes())
        data[len(data) // 2] ^= 0x01
        journal.write_bytes(bytes(data))

    return {
        "an unreadable complete last line": lambda: append(journal, b"this is no entry\n"),
        "a flipped byte mid-journal": flip_mid_journal,
        "an empty journal": lambda: journal.write_bytes(b""),
        "trailing garbage": lambda: append(journal, b"\x01garbage" * 1000),
        "an edit that stays valid JSON": edit_that_stays_json,
        "a foreign snapshot": lambda: snapshot.write_bytes(b'{"hello": "world"}'),
        "a missing previous snapshot's partner": lambda: (folder / PREV_JOURNAL).write_bytes(b"{}\n"),
    }


@pytest.mark.parametrize("damage", sorted(_damages(Path("."))))
def test_the_session_list_marks_damage_exactly_when_opening_finds_it(root: Path, folder: Path, damage: str) -> None:
    saved_session(folder)
    assert [info.problem for info in list_sessions(root)] == [""]
    before = (folder / JOURNAL).read_bytes()
    _damages(folder)[damage]()
    assert (folder / JOURNAL).read_bytes() != before or damage in (
        "a foreign snapshot",
        "a missing previous snapshot's partner",
    )
    try:
        opened = Store.resume(folder)
    except DamagedSession:
        damaged = True
    else:
        damaged = opened.read_only
        opened.close()
    assert damaged, f"{damage} opened as if sound"
    (info,) = list_sessions(root)
    assert info.problem == RECOVERABLE and info.phase == "" and info.step == -1


def test_the_session_list_replays_what_follows_the_snapshot_as_opening_does(root: Path, folder: Path) -> None:
    from tui_combat.fight import session

    store = small_fight(folder)
    store.dispatch(a.StartFight())
    store.save_now()
    store.dispatch(a.NextStep())
    store.close()  # killed: the Next is only in the journal
    opened = Store.resume(folder, read_only=True)
    (info,) = session.list_sessions(root, steps=True)
    assert (info.problem, info.phase, info.round, info.step) == ("", "round", opened.state.round, opened.state.step)
    opened.close()
    append(folder / JOURNAL, line(codec.Redone(seq=last_seq(folder) + 1, round=1)))  # nothing to redo
    with pytest.raises(DamagedSession):
        Store.resume(folder)
    (info,) = session.list_sessions(root, steps=True)
    assert info.problem == RECOVERABLE and info.step == -1  # a replay error is damage in the list too


def test_recover_says_what_it_could_not_keep(root: Path, folder: Path) -> None:
    saved_session(folder)
    append(folder / JOURNAL, b"this is no entry\n")
    rebuilt = recover(folder, root / "sessions" / "rebuilt")
    rebuilt.close()
    assert any(
        warning.startswith("Not kept: ") and f"{JOURNAL} cannot be read at line 5" in warning
        for warning in rebuilt.warnings
    ), rebuilt.warnings
