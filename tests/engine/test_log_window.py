"""A state holds only the newest entries of the log (:mod:`tui_combat.engine.log_window`): the rules, the
players' view and the saves see the same fight as if it held them all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tui_combat.engine import actions as a
from tui_combat.engine import log as log_module
from tui_combat.engine import log_window
from tui_combat.engine.apply import apply, apply_logged
from tui_combat.engine.model import State
from tui_combat.engine.public import public_entries, public_log
from tui_combat.store import new_state


@pytest.fixture
def small_window(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """States that hold the newest 4 entries, in chunks of 2."""
    monkeypatch.setattr(log_window, "LOG_KEPT", 4)
    monkeypatch.setattr(log_module, "LOG_CHUNK", 2)
    yield


def fight() -> State:
    state = new_state(seed=3)
    for action in (a.AddSide(name="Party", is_party=True), a.AddSide(name="Monsters"),
                   a.AddCombatants(side="s1", name="Raf", hp=10), a.AddCombatants(side="s2", name="Orc", hp=8)):
        state = apply(state, action)
    return state


def test_a_state_holds_the_newest_entries_and_counts_the_others(small_window: None) -> None:
    state, written = fight(), []
    for number in range(11):
        state, entries = apply_logged(state, a.Note(text=f"note {number}"))
        written += entries
    assert [entry.text for entry in written] == [f"note {number}" for number in range(11)]
    assert state.log_count == 11 and state.log_start == 6
    assert [entry.text for entry in state.log_entries()] == [f"note {number}" for number in range(6, 11)]


def test_what_a_secret_line_named_stays_secret_after_the_line_has_left_the_state(small_window: None) -> None:
    state = apply(fight(), a.Note(text="The pit under the rug", secret=True))
    for number in range(8):
        state = apply(state, a.Note(text=f"note {number}"))
    assert state.log_start > 0 and not any(entry.secret for entry in state.log_entries())
    state = apply(state, a.Note(text="The pit under the rug"))  # the GM's slip, in a public line
    assert "the pit under the rug" in state.secret_words
    shown = [line.text for line in public_log(state)]
    assert "note 7" in shown and not any("pit" in text for text in shown)
    assert not any("pit" in entry.text for entry in public_entries(state))


def test_a_state_read_with_its_whole_log_is_cut_to_the_newest_entries(small_window: None) -> None:
    """A state saved before the log left it holds every entry: it is cut down as it is read, to the state the
    same actions give today."""
    from msgspec.structs import replace

    from tui_combat.saves.codec import restored

    state, written = fight(), []
    for number in range(9):
        state, entries = apply_logged(state, a.Note(text=f"note {number}"))
        written += entries
    chunks: tuple[log_module.LogChunk, ...] = ()
    for entry in written:
        chunks = log_module.append_log(chunks, entry)
    old = replace(state, log=chunks, log_start=0)
    assert old.log_entries() == written
    read = restored(old, Path("snapshot.json"))
    assert read.log_count == 9 and read.log_start == 4 and read == state
