"""A state holds only the newest entries of the log (:mod:`tui_combat.engine.log_window`): the rules, the
players' view and the saves see the same fight as if it held them all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tui_combat.engine import actions as a
from tui_combat.engine import log_window, messages
from tui_combat.engine.apply import apply, apply_logged
from tui_combat.engine.model import State
from tui_combat.engine.public import public_entries, public_log
from tui_combat.fight.store import new_state


@pytest.fixture
def small_window(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """States that hold the newest 4 entries, in chunks of 2."""
    monkeypatch.setattr(log_window, "LOG_KEPT", 4)
    monkeypatch.setattr(messages, "LOG_CHUNK", 2)
    yield


def fight() -> State:
    state = new_state(seed=3, ruleset="adnd2e")
    for action in (
        a.AddSide(name="Party", is_party=True),
        a.AddSide(name="Monsters"),
        a.AddCombatants(side="s1", name="Raf", hp=10),
        a.AddCombatants(side="s2", name="Orc", hp=8),
    ):
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
    assert "The pit under the rug" in state.secret_words
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
    chunks: tuple[messages.LogChunk, ...] = ()
    for entry in written:
        chunks = messages.append_log(chunks, entry)
    old = replace(state, log=chunks, log_start=0)
    assert old.log_entries() == written
    read = restored(old, Path("snapshot.json"))
    assert read.log_count == 9 and read.log_start == 4 and read == state


def test_a_ruleset_action_that_applies_another_keeps_the_hidden_secret_in_a_small_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 5e attack applies its damage as an engine action of its own, which may cut the older entries away
    in the middle of the attack: what it wrote about a hidden goblin is still marked secret, every line."""
    from msgspec.structs import replace

    from tests.common import ids, rolled
    from tests.rulesets.dnd5e_fight import act
    from tests.rulesets.test_dnd5e_actions import brennas_turn

    state = brennas_turn()
    goblin = ids(state)["Goblin 1"]
    state = state.with_combatant(replace(state.combatant(goblin), hidden=True))
    monkeypatch.setattr(log_window, "LOG_KEPT", 1)
    monkeypatch.setattr(messages, "LOG_CHUNK", 1)
    after = act(
        state,
        "attack",
        "Brenna",
        target=goblin,
        uses="action",
        to_hit=rolled("1d20", 9),
        damage=rolled("1d8+3", 4),
        critical=rolled("1d8", 8),
    )
    _state, written = apply_logged(
        state,
        a.RulesetAction(
            name="attack",
            args={
                "combatant": ids(state)["Brenna"],
                "target": goblin,
                "uses": "action",
                "to_hit": rolled("1d20", 9),
                "damage": rolled("1d8+3", 4),
                "critical": rolled("1d8", 8),
            },
        ),
    )
    assert after.combatant(goblin).hp == 0 and len(written) >= 2
    assert all(entry.secret for entry in written if "Goblin 1" in entry.text)
    assert any("Goblin 1" in entry.text for entry in written)
