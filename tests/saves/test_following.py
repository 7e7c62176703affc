"""The players' view follows a session by reading only the journal lines appended since its last read: after
every change the GM's copy writes, it holds exactly the state (and so the public view) a whole read gives, and
where the files did more than grow (a snapshot, a cut, damage, another session) it reads the whole again."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.saves.helpers import damage_round, small_fight
from tui_combat.engine import actions as a
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.engine.public import public_view
from tui_combat.fight.following import SessionReader
from tui_combat.fight.store import Store
from tui_combat.saves.errors import DamagedSession
from tui_combat.saves.schema import JOURNAL

FIGHTERS = ("c3", "c5", "c6")


def read_whole(folder: Path) -> State:
    store = Store.resume(folder, read_only=True)
    try:
        return store.state
    finally:
        store.close()


def assert_same_as_whole(reader: SessionReader, folder: Path) -> State:
    state = reader(folder)
    whole = read_whole(folder)
    assert state == whole
    assert public_view(state) == public_view(whole)
    return state


step = st.one_of(
    st.tuples(st.just("damage"), st.sampled_from(FIGHTERS), st.integers(1, 9)),
    st.tuples(st.just("heal"), st.sampled_from(FIGHTERS), st.integers(1, 9)),
    st.tuples(st.just("undo"), st.just(""), st.just(0)),
    st.tuples(st.just("redo"), st.just(""), st.just(0)),
    st.tuples(st.just("snapshot"), st.just(""), st.just(0)),
    st.tuples(st.just("reopen"), st.just(""), st.just(0)),
)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(st.lists(step, min_size=1, max_size=4), min_size=1, max_size=8))
def test_following_gives_what_a_whole_read_gives_after_every_change(
    tmp_path_factory: pytest.TempPathFactory, steps: list[list[tuple[str, str, int]]]
) -> None:
    folder = tmp_path_factory.mktemp("data") / "fight"
    gm = small_fight(folder)
    reader = SessionReader()
    try:
        assert_same_as_whole(reader, folder)
        for batch in steps:  # the view looks after one change or after several
            for kind, who, amount in batch:
                if kind in ("damage", "heal"):
                    action = a.Damage if kind == "damage" else a.Heal
                    try:
                        gm.dispatch(action(combatant=who, amount=amount))
                    except RuleError:
                        pass  # refused: nothing written
                elif kind == "undo" and gm.can_undo:
                    gm.undo()
                elif kind == "redo" and gm.can_redo:
                    gm.redo()
                elif kind == "snapshot":
                    gm.save_now()
                elif kind == "reopen":  # the GM quits and opens the fight again
                    gm.close()
                    gm = Store.resume(folder)
            assert_same_as_whole(reader, folder)
    finally:
        gm.close()
        reader.close()


def test_only_the_lines_appended_are_read(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    gm = small_fight(folder)
    reader = SessionReader()
    assert_same_as_whole(reader, folder)
    assert reader.whole_reads == 1
    size = (folder / JOURNAL).stat().st_size
    damage_round(gm, 3)
    gm.undo()
    gm.redo()
    assert_same_as_whole(reader, folder)
    assert (reader.whole_reads, reader.lines_read) == (1, 5)
    appended = (folder / JOURNAL).stat().st_size - size
    assert appended < reader.bytes_read < appended + 1000  # the new lines, and the last one read before
    assert_same_as_whole(reader, folder)  # nothing new: nothing read
    assert (reader.whole_reads, reader.lines_read) == (1, 5)
    gm.save_now()  # a snapshot rotates the journal: read whole once, then on from there
    damage_round(gm, 1)
    assert_same_as_whole(reader, folder)
    assert reader.whole_reads == 2
    damage_round(gm, 2)
    assert_same_as_whole(reader, folder)
    assert (reader.whole_reads, reader.lines_read) == (2, 7)
    gm.close()
    reader.close()


def test_a_torn_last_line_is_waited_on_and_the_next_writer_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    gm = small_fight(folder)
    damage_round(gm, 2)
    gm.close()  # the GM's copy is killed half-way through writing a line
    with (folder / JOURNAL).open("ab") as journal:
        journal.write(b'{"k":"do","seq":')
    reader = SessionReader()
    assert_same_as_whole(reader, folder)
    gm = Store.resume(folder)  # cuts the torn line before its next action
    damage_round(gm, 2)
    assert_same_as_whole(reader, folder)
    assert (reader.whole_reads, reader.lines_read) == (1, 2)
    gm.close()
    reader.close()


def test_damage_after_the_last_line_is_reported_as_a_whole_read_does(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    gm = small_fight(folder)
    reader = SessionReader()
    assert_same_as_whole(reader, folder)
    damage_round(gm, 1)
    gm.close()
    with (folder / JOURNAL).open("ab") as journal:
        journal.write(b"garbage\n")
    try:
        reader(folder)
    except DamagedSession:
        pass
    else:
        raise AssertionError("the damaged journal was read as if whole")
    assert reader.whole_reads == 2


def test_a_journal_cut_short_and_written_again_is_read_whole(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    gm = small_fight(folder)
    damage_round(gm, 2)
    gm.close()
    reader = SessionReader()
    assert_same_as_whole(reader, folder)
    lines = (folder / JOURNAL).read_bytes().split(b"\n")
    gm = Store.resume(folder)
    gm.close()
    (folder / JOURNAL).write_bytes(b"\n".join(lines[:-2]) + b"\n")  # the last action gone, as if never written
    gm = Store.resume(folder)
    gm.dispatch(a.Heal(combatant="c5", amount=1))  # a different action where it was
    assert_same_as_whole(reader, folder)
    assert reader.whole_reads == 2
    gm.close()
    reader.close()


def test_another_session_is_read_whole(tmp_path: Path) -> None:
    first, second = tmp_path / "one", tmp_path / "two"
    small_fight(first).close()
    gm = small_fight(second, seed=5)
    damage_round(gm, 4)
    gm.close()
    reader = SessionReader()
    assert_same_as_whole(reader, first)
    assert_same_as_whole(reader, second)
    assert_same_as_whole(reader, first)
    assert reader.whole_reads == 3
    reader.close()


def test_a_fight_rewound_into_a_new_session_is_read_whole_then_followed(tmp_path: Path) -> None:
    from tui_combat.fight import rewind

    gm = small_fight(tmp_path / "sessions" / "fight")
    damage_round(gm, 3)
    gm.close()
    reader = SessionReader()
    assert_same_as_whole(reader, tmp_path / "sessions" / "fight")
    timeline = rewind.look_back(tmp_path, "fight")
    gm = rewind.branch(tmp_path, timeline, 5, "branch")  # back to the first damage
    assert gm.folder is not None
    branched = gm.folder.folder
    assert_same_as_whole(reader, branched)
    damage_round(gm, 2)
    assert_same_as_whole(reader, branched)
    assert (reader.whole_reads, reader.lines_read) == (2, 2)
    gm.close()
    reader.close()
