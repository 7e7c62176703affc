"""One writer per session: a second store on the same folder opens read-only, says so and writes nothing."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.saves.helpers import damage_round, fingerprint, small_fight
from tui_combat.engine import actions as a
from tui_combat.engine.errors import RuleError
from tui_combat.fight.store import Store, new_state
from tui_combat.saves.errors import FolderTaken
from tui_combat.saves.session_folders import new_session_folder

ROOT = Path(__file__).resolve().parents[2]


def test_two_stores_on_one_session(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    small_fight(folder).close()
    writer = Store.resume(folder)
    assert not writer.read_only and writer.warnings == []
    damage_round(writer, 2)

    second = Store.resume(folder)
    assert second.read_only
    assert second.state == writer.state  # it reads what the writer has saved so far
    assert any("another copy of tui-combat" in warning for warning in second.warnings)

    before = fingerprint(folder)
    seen: list[object] = []
    second.subscribe(seen.append)
    for change in (lambda: second.dispatch(a.Damage(combatant="c5", amount=1)), second.undo, second.redo):
        with pytest.raises(RuleError, match="read-only"):
            change()
    second.save_now()
    assert second.state == writer.state and seen == []
    second.close()
    assert fingerprint(folder) == before

    # The writer never noticed, and is still the only writer.
    writer.dispatch(a.Heal(combatant="c5", amount=1))
    third = Store.resume(folder)
    assert third.read_only and third.state == writer.state
    third.close()
    writer.close()

    after = Store.resume(folder)
    assert not after.read_only and after.state == writer.state
    after.dispatch(a.Note(text="the lock was released with the writer"))
    after.close()


def test_a_read_only_store_can_save_as_a_new_session_and_write_there(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    writer = small_fight(folder)
    reader = Store.resume(folder)
    assert reader.read_only
    reader.save_as(tmp_path / "copy")
    assert not reader.read_only
    reader.dispatch(a.Note(text="in the copy"))
    reader.close()
    writer.close()
    assert Store.resume(tmp_path / "copy").state == reader.state
    assert Store.resume(folder).state == writer.state


def test_asked_read_only_takes_no_lock_and_removes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    small_fight(folder).close()
    leftover = folder / ".snapshot.json.abc.tmp"
    leftover.write_bytes(b"half")
    viewer = Store.resume(folder, read_only=True)
    assert viewer.read_only and "read-only" in viewer.warnings[0]
    assert leftover.exists()
    writer = Store.resume(folder)  # the viewer does not stand in the writer's way
    assert not writer.read_only
    writer.close()
    viewer.close()


def test_creating_a_session_in_a_folder_another_store_writes_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    writer = small_fight(folder)
    before = fingerprint(folder)
    with pytest.raises(FolderTaken, match="another copy of tui-combat"):
        Store.create(new_state(seed=2, ruleset="adnd2e"), folder)
    assert fingerprint(folder) == before
    writer.close()
    assert fingerprint(folder) == before  # the writer's fight, not the intruder's


HOLDER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from tui_combat.engine import actions as a
    from tui_combat.fight.store import Store

    store = Store.resume(Path(sys.argv[1]))
    store.dispatch(a.Note(text="written by the other process"))
    print("read-only" if store.read_only else "writing", flush=True)
    sys.stdin.readline()
    store.close()
    """
)


def test_a_session_held_by_another_process_opens_read_only(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    small_fight(folder).close()
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(folder)], cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdin is not None
        assert holder.stdout.readline().strip() == "writing"
        here = Store.resume(folder)
        assert here.read_only
        assert here.state.log_entries()[-1].text.endswith("written by the other process")
        with pytest.raises(RuleError):
            here.dispatch(a.Note(text="refused"))
        here.close()
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.wait(timeout=30) == 0
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait()
    after = Store.resume(folder)
    assert not after.read_only
    after.close()


def test_two_new_sessions_are_never_handed_the_same_folder(tmp_path: Path) -> None:
    root = tmp_path / "data"
    first_folder = new_session_folder(root, "Ambush")
    second_folder = new_session_folder(root, "Ambush")  # chosen before the first session writes anything
    assert first_folder != second_folder and first_folder.is_dir() and second_folder.is_dir()
    first = small_fight(first_folder, seed=1)
    with pytest.raises(FolderTaken):
        Store.create(new_state(seed=2, ruleset="adnd2e"), first_folder)  # another writer holds it
    first.close()
    with pytest.raises(FolderTaken):
        Store.create(new_state(seed=3, ruleset="adnd2e"), first_folder)  # it holds a session
    resumed = Store.resume(first_folder)
    assert resumed.state == first.state
    resumed.close()


def test_saving_as_into_a_folder_that_holds_a_session_is_refused(tmp_path: Path) -> None:
    kept = small_fight(tmp_path / "kept", seed=1)
    kept.close()
    before = fingerprint(tmp_path / "kept")
    other = small_fight(tmp_path / "other", seed=2)
    with pytest.raises(FolderTaken):
        other.save_as(tmp_path / "kept")
    other.close()
    assert fingerprint(tmp_path / "kept") == before
