"""A snapshot's two states (the undo checkpoint and the current state) are decoded into one copy of what they
have in common: the same fight as a decode of the whole file, half the memory, and damage still reported
as it always was."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

import tui_combat.fight.store as store_module
from tests.saves.helpers import small_fight
from tui_combat.engine import actions as a
from tui_combat.engine.model import SCHEMA_VERSION
from tui_combat.fight.store import Store
from tui_combat.saves import codec
from tui_combat.saves.errors import NewerVersionError
from tui_combat.saves.reading import parse_snapshot
from tui_combat.saves.schema import SNAPSHOT
from tui_combat.saves.sums import seal

DECODER = codec.snapshot_decoders[codec.SNAPSHOT_SCHEMA]


def whole(data: bytes) -> codec.Snapshot:
    """The snapshot decoded the plain way: the whole file at once, each state on its own."""
    snapshot = msgspec.json.decode(data, type=codec.Snapshot)
    return msgspec.structs.replace(
        snapshot,
        checkpoint=codec.restored(snapshot.checkpoint, Path(SNAPSHOT)),
        current=codec.restored(snapshot.current, Path(SNAPSHOT)),
    )


def saved(folder: Path, actions: list[a.Action]) -> bytes:
    """The snapshot of a small fight after ``actions``, written with blocks of 4 (so the open run is short)."""
    store = small_fight(folder)
    for action in actions:
        store.dispatch(action)
    store.save_now()
    store.close()
    return (folder / SNAPSHOT).read_bytes()


@pytest.fixture
def blocks_of_four(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store_module, "BLOCK_SIZE", 4)


def wounds(count: int) -> list[a.Action]:
    return [a.Damage(combatant="c5", amount=1) if n % 2 else a.Note(text=f"note {n}") for n in range(count)]


def test_with_nothing_done_since_the_last_block_the_checkpoint_is_the_current_state(
    tmp_path: Path, blocks_of_four: None
) -> None:
    data = saved(tmp_path / "fight", wounds(12))  # 4 + 12 actions: the run is empty
    snapshot = DECODER.decode(data)
    assert isinstance(snapshot, codec.Snapshot) and not snapshot.run
    assert snapshot == whole(data)
    assert snapshot.checkpoint is snapshot.current


def test_what_the_open_run_left_alone_is_one_object_in_both_states(tmp_path: Path, blocks_of_four: None) -> None:
    data = saved(tmp_path / "fight", wounds(70))  # long enough for more than one log chunk
    snapshot = DECODER.decode(data)
    assert isinstance(snapshot, codec.Snapshot) and len(snapshot.run) == 2
    assert snapshot == whole(data)
    checkpoint, current = snapshot.checkpoint, snapshot.current
    assert checkpoint != current
    for before, now in zip(checkpoint.combatants, current.combatants):
        assert (before is now) == (before.id != "c5"), before.id  # only the wounded one changed
    assert len(checkpoint.log) > 1
    assert all(before is now for before, now in zip(checkpoint.log[:-1], current.log[:-1]))
    assert checkpoint.log[-1] is not current.log[-1]


def test_combatants_added_and_removed_in_the_open_run_are_still_shared(tmp_path: Path, blocks_of_four: None) -> None:
    data = saved(
        tmp_path / "fight",
        [
            a.AddCombatants(side="s2", name="Орк", hp=5, count=3),
            a.Note(text="x"),
            a.Note(text="y"),
            a.Note(text="z"),
            a.RemoveCombatant(combatant="c3"),
            a.AddCombatants(side="s1", name="Гном", hp=9),  # the open run
        ],
    )
    snapshot = DECODER.decode(data)
    assert isinstance(snapshot, codec.Snapshot) and len(snapshot.run) == 2
    assert snapshot == whole(data)
    before = {combatant.id: combatant for combatant in snapshot.checkpoint.combatants}
    now = {combatant.id: combatant for combatant in snapshot.current.combatants}
    assert "c3" in before and "c3" not in now and len(now) == len(before)
    kept = set(before) & set(now)
    assert len(kept) == len(before) - 1
    assert all(before[key] is now[key] for key in kept)


def test_a_shift_in_the_order_of_combatants_still_shares_them(tmp_path: Path, blocks_of_four: None) -> None:
    store = small_fight(tmp_path / "fight")  # 4 actions: a sealed block; the run starts empty
    store.dispatch(a.RemoveCombatant(combatant="c3"))  # the first combatant: every other one moves up a place
    store.save_now()
    store.close()
    data = (tmp_path / "fight" / SNAPSHOT).read_bytes()
    snapshot = DECODER.decode(data)
    assert isinstance(snapshot, codec.Snapshot) and len(snapshot.run) == 1
    assert snapshot == whole(data)
    assert [c.id for c in snapshot.checkpoint.combatants][1:] == [c.id for c in snapshot.current.combatants]
    assert all(before is now for before, now in zip(snapshot.checkpoint.combatants[1:], snapshot.current.combatants))


def test_a_resumed_store_undoes_from_the_shared_checkpoint(tmp_path: Path, blocks_of_four: None) -> None:
    folder = tmp_path / "fight"
    store = small_fight(folder)
    states = [store.state]
    for action in wounds(10):
        states.append(store.dispatch(action))
    store.save_now()
    store.close()
    resumed = Store.resume(folder)
    for expected in reversed(states[:-1]):
        assert resumed.undo() == expected
    resumed.close()


def damaged_in(data: bytes, state: str) -> bytes:
    raw = json.loads(data)
    raw.pop("sum")
    raw[state]["combatants"][0]["hp"] = "many"
    return seal(json.dumps(raw).encode())  # a valid checksum: the damage is in what it covers


@pytest.mark.parametrize("state", ["checkpoint", "current"])
def test_a_damaged_state_is_reported_as_a_decode_of_the_whole_file_reports_it(
    tmp_path: Path, blocks_of_four: None, state: str
) -> None:
    data = damaged_in(saved(tmp_path / "fight", wounds(6)), state)
    with pytest.raises(msgspec.ValidationError) as expected:
        msgspec.json.decode(data, type=codec.Snapshot)
    with pytest.raises(msgspec.ValidationError) as found:
        DECODER.decode(data)
    assert str(found.value) == str(expected.value)
    assert f"$.{state}.combatants[0].hp" in str(found.value)
    read = parse_snapshot(SNAPSHOT, tmp_path / SNAPSHOT, data)
    assert read.snapshot is None and f"$.{state}.combatants[0].hp" in read.problem


@pytest.mark.parametrize("state", ["checkpoint", "current"])
def test_a_state_of_a_newer_schema_is_refused_before_it_is_decoded(
    tmp_path: Path, blocks_of_four: None, state: str
) -> None:
    raw = json.loads(saved(tmp_path / "fight", wounds(6)))
    raw[state]["schema"] = SCHEMA_VERSION + 1
    raw[state]["combatants"] = "not as this version writes them"
    with pytest.raises(NewerVersionError):
        DECODER.decode(json.dumps(raw).encode())
