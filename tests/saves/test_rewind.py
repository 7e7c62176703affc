"""Looking back at a saved fight and going on from a point of it, without a screen: the states shown are the
states a plain replay of the journal gives, the original's files are never touched, and a branch resumes
where it was cut."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from msgspec.structs import replace

import tui_combat.fight.store as store_module
from tests.saves.helpers import fingerprint
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.dice import Roll
from tui_combat.engine.model import State
from tui_combat.fight import rewind, session
from tui_combat.fight.store import Store, new_state
from tui_combat.saves.locations import sessions_dir
from tui_combat.saves.schema import HISTORY, JOURNAL

PARTY, MONSTERS = "s1", "s2"
RAF, ORC_1, ORC_2 = "c3", "c5", "c6"


def d10(total: int) -> Roll:
    return Roll(expr="1d10", total=total, faces=(total,))


SET_UP: list[a.Action] = [
    a.SetName(name="Ambush"),
    a.SetRuleset(ruleset="adnd2e"),
    a.AddSide(name="Party", is_party=True),
    a.AddSide(name="Monsters"),
    a.AddCombatants(side=PARTY, name="Raf", hp=20, sheet={"cls": "warrior", "level": 3}),
    a.AddCombatants(side=MONSTERS, name="Orc", hp=8, count=2, sheet={"cls": "monster", "level": 1}),
    a.BeginSurprise(),  # position 7: the surprise
    a.StartFight(),  # 8: round 1
    a.NextStep(),
    a.NextStep(),
    a.RollInitiative(rolls={PARTY: d10(3), MONSTERS: d10(7)}),
]
ROUND_1_HITS: list[a.Action] = [a.Damage(combatant=ORC_1, amount=3), a.Damage(combatant=ORC_2, amount=5)]  # 12, 13
TO_ROUND_2: list[a.Action] = [a.NextStep(), a.NextStep(), a.NextStep()]  # 14, 15 (end of round 1), 16: round 2
ROUND_2: list[a.Action] = [
    a.NextStep(),
    a.NextStep(),
    a.RollInitiative(rolls={PARTY: d10(2), MONSTERS: d10(5)}),
    a.Damage(combatant=RAF, amount=4),
]  # 17 … 20
EFFECTIVE = SET_UP + ROUND_1_HITS + TO_ROUND_2 + ROUND_2
"""What the journal of :func:`two_rounds` leaves done, worked out by hand: the 2 damage undone is gone."""


def two_rounds(data_root: Path, key: str = "ambush") -> Path:
    """Set-up, surprise, round 1 and part of round 2 of an AD&D fight, saved with undos and a redo in its
    journal (after the snapshot of the set-up): 2 damage to Orc 2 is undone and replaced by 5; that 5 is
    undone and redone."""
    folder = sessions_dir(data_root) / key
    store = Store.create(new_state(seed=1, ruleset="adnd2e"), folder)
    for action in SET_UP:
        store.dispatch(action)
    store.save_now()  # the list shows the fight's name; the undos and the redo stay in the journal
    store.dispatch(ROUND_1_HITS[0])
    store.dispatch(a.Damage(combatant=ORC_2, amount=2))
    store.undo()
    store.dispatch(ROUND_1_HITS[1])
    store.undo()
    store.redo()
    for action in TO_ROUND_2 + ROUND_2:
        store.dispatch(action)
    store.close()
    return folder


def replayed(actions: list[a.Action], count: int) -> State:
    """The plain replay of the first ``count`` actions from a new state of seed 1."""
    state = new_state(seed=1, ruleset="adnd2e")
    for action in actions[:count]:
        state = apply(state, action)
    return state


def replayed_to_round(actions: list[a.Action], round_number: int) -> State:
    """The plain replay up to the first state of round ``round_number``."""
    state = new_state(seed=1, ruleset="adnd2e")
    for action in actions:
        if state.phase == "round" and state.round == round_number:
            break
        state = apply(state, action)
    assert state.phase == "round" and state.round == round_number
    return state


# -- the timeline ---------------------------------------------------------------------------------------
def test_the_timeline_is_what_undo_and_redo_left_and_ends_where_the_fight_was_left(tmp_path: Path) -> None:
    folder = two_rounds(tmp_path)
    journal = (folder / JOURNAL).read_text(encoding="utf-8")
    assert (journal.count('"k":"undo"'), journal.count('"k":"redo"')) == (2, 1)
    timeline = rewind.look_back(tmp_path, "ambush")
    assert list(timeline.actions) == EFFECTIVE
    assert timeline.last == 20
    assert timeline.base == new_state(seed=1, ruleset="adnd2e")
    assert timeline.final == session.resume(tmp_path, "ambush", read_only=True).state
    assert timeline.warnings == []  # the read-only note is not a warning here


def test_rounds_are_indexed_where_they_begin(tmp_path: Path) -> None:
    two_rounds(tmp_path)
    timeline = rewind.look_back(tmp_path, "ambush")
    assert timeline.round_starts == (0, 7, 8, 16)
    assert (timeline.position_of_round(1), timeline.position_of_round(2), timeline.position_of_round(3)) == (
        8,
        16,
        None,
    )
    assert [timeline.where(p) for p in (0, 7, 8, 15, 16, 20)] == [
        "set-up",
        "surprise",
        "round 1",
        "round 1",
        "round 2",
        "round 2",
    ]
    # One round back goes to the start of the round shown, then of the one before; one round on, to the next.
    assert [timeline.round_start_before(p) for p in (20, 16, 9, 8, 0)] == [16, 8, 8, 7, 0]
    assert [timeline.round_start_after(p) for p in (0, 7, 8, 12, 16)] == [7, 8, 16, 16, 20]


@pytest.mark.parametrize("round_number", [1, 2])
def test_the_state_at_round_n_is_the_state_replayed_to_round_n(tmp_path: Path, round_number: int) -> None:
    two_rounds(tmp_path)
    timeline = rewind.look_back(tmp_path, "ambush")
    position = timeline.position_of_round(round_number)
    assert position is not None
    shown = timeline.state_at(position)
    assert shown == replayed_to_round(EFFECTIVE, round_number)
    assert (shown.round, shown.step) == (round_number, 0)


def test_the_state_at_an_action_is_the_state_replayed_to_it(tmp_path: Path) -> None:
    two_rounds(tmp_path)
    timeline = rewind.look_back(tmp_path, "ambush")
    at_13 = timeline.state_at(13)
    assert at_13 == replayed(EFFECTIVE, 13)
    # Worked out by hand: 8 - 3 and 8 - 5; Raf untouched; the 2 that was undone left no trace.
    assert [(c.name, c.hp) for c in at_13.combatants] == [("Raf", 20), ("Orc 1", 5), ("Orc 2", 3)]
    assert [entry.text for entry in timeline.logged_by(13)] == ["Orc 2 takes 5 damage: 3/8 HP."]
    assert [entry.text for entry in timeline.logged_by(16)] == ["Round 2 begins."]
    assert timeline.logged_by(0) == [] and timeline.logged_by(1) == []  # naming the fight logs nothing
    assert timeline.state_at(0) == new_state(seed=1, ruleset="adnd2e")


def test_every_position_replays_right_in_any_order_from_few_kept_states() -> None:
    """A long stream, looked at back and forth: each state equals the plain replay, and the timeline keeps
    one state in seven (plus the last shown and the final one), never one per action."""
    base = replayed(EFFECTIVE, len(EFFECTIVE))
    ids = [c.id for c in base.combatants]
    rng = random.Random(5)
    actions: list[a.Action] = [
        a.Heal(combatant=rng.choice(ids), amount=1) if n % 2 else a.Damage(combatant=rng.choice(ids), amount=1)
        for n in range(300)
    ]
    states = [base]
    for action in actions:
        states.append(apply(states[-1], action))
    timeline = rewind.Timeline(base, actions, checkpoint_every=7)
    assert timeline.kept_states == 300 // 7 + 1 + 2
    for position in [300, 0, 299, 298, 150, 151, 152, 6, 7, 8, 49, 13, 300, 1]:
        assert timeline.state_at(position) == states[position], position
    with pytest.raises(IndexError):
        timeline.state_at(301)


# -- reading through blocks and rotations ------------------------------------------------------------------
def long_fight(data_root: Path, monkeypatch: pytest.MonkeyPatch, actions: int) -> tuple[Path, list[a.Action]]:
    """A fight saved in history blocks of 7 actions with a snapshot every 20 journal entries (so the
    history is mostly on disk, in blocks), ``actions`` damage and heal after the set-up; and every action."""
    monkeypatch.setattr(store_module, "BLOCK_SIZE", 7)
    monkeypatch.setattr(store_module, "SNAPSHOT_EVERY", 20)
    folder = sessions_dir(data_root) / "long"
    store = Store.create(new_state(seed=1, ruleset="adnd2e"), folder)
    done = SET_UP + [
        a.Damage(combatant=ORC_1, amount=1) if n % 2 else a.Heal(combatant=ORC_1, amount=1) for n in range(actions)
    ]
    for action in done:
        store.dispatch(action)
    store.close()
    return folder, done


def test_a_history_in_blocks_on_disk_is_read_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, done = long_fight(tmp_path, monkeypatch, 60)
    assert len(list((folder / HISTORY).iterdir())) >= 5
    timeline = rewind.look_back(tmp_path, "long")
    assert list(timeline.actions) == done
    assert timeline.state_at(40) == replayed(done, 40)


def test_a_missing_history_block_is_refused_with_a_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, _done = long_fight(tmp_path, monkeypatch, 60)
    first = sorted((folder / HISTORY).iterdir())[0]
    first.unlink()
    with pytest.raises(session.SessionError) as refused:
        rewind.look_back(tmp_path, "long")
    assert refused.value.title == "Cannot look back at the session"
    assert first.name in str(refused.value) and "missing" in str(refused.value)


def test_a_session_that_is_not_there_is_refused(tmp_path: Path) -> None:
    with pytest.raises(session.SessionError) as refused:
        rewind.look_back(tmp_path, "nowhere")
    assert refused.value.title == "Cannot look back at the session"
    assert "There is no saved session nowhere." in str(refused.value)


# -- branching ------------------------------------------------------------------------------------------
def test_a_branch_leaves_every_file_of_the_original_as_it_was(tmp_path: Path) -> None:
    folder = two_rounds(tmp_path)
    before = fingerprint(folder)
    timeline = rewind.look_back(tmp_path, "ambush")
    position = timeline.position_of_round(1)
    assert position == 8
    branched = rewind.branch(tmp_path, timeline, position, rewind.branch_name(timeline, position))
    branched.close()
    assert fingerprint(folder) == before


def test_a_branch_resumes_at_the_chosen_state_under_its_own_name(tmp_path: Path) -> None:
    two_rounds(tmp_path)
    timeline = rewind.look_back(tmp_path, "ambush")
    assert rewind.branch_name(timeline, 13) == "Ambush (branch, round 1)"
    store = rewind.branch(tmp_path, timeline, 13, "Ambush (branch, round 1)", seed=1)
    assert store.folder is not None
    key = store.folder.folder.name
    store.close()
    resumed = session.resume(tmp_path, key)
    expected = replace(replayed(EFFECTIVE, 13), name="Ambush (branch, round 1)")
    assert resumed.state == expected
    assert [(c.name, c.hp) for c in resumed.state.combatants] == [("Raf", 20), ("Orc 1", 5), ("Orc 2", 3)]
    assert resumed.done_actions() == EFFECTIVE[:13] + [a.SetName(name="Ambush (branch, round 1)")]
    assert not resumed.can_redo  # what came after the point is not there to redo
    resumed.undo()  # the new name, then the fight's own history
    resumed.undo()
    assert resumed.state == replayed(EFFECTIVE, 12)
    resumed.close()
    names = sorted(info.name for info in session.list_sessions(tmp_path))
    assert names == ["Ambush", "Ambush (branch, round 1)"]


def test_a_branch_takes_the_next_free_name_and_refuses_an_empty_one(tmp_path: Path) -> None:
    two_rounds(tmp_path)
    timeline = rewind.look_back(tmp_path, "ambush")
    rewind.branch(tmp_path, timeline, 16, "ambush").close()  # the original's name, case aside: taken
    assert sorted(info.name for info in session.list_sessions(tmp_path)) == ["Ambush", "ambush 2"]
    with pytest.raises(session.SessionError, match="A name cannot be empty."):
        rewind.branch(tmp_path, timeline, 16, "  ")


def test_looking_back_and_branching_leave_the_gm_who_has_it_open_undisturbed(tmp_path: Path) -> None:
    folder = two_rounds(tmp_path)
    writer = session.resume(tmp_path, "ambush")
    assert not writer.read_only
    timeline = rewind.look_back(tmp_path, "ambush")
    rewind.branch(tmp_path, timeline, 8, "Ambush again").close()
    writer.dispatch(a.Damage(combatant=ORC_1, amount=1))  # still the writer: saved, not refused
    writer.close()
    assert rewind.look_back(tmp_path, "ambush").final.combatants[1].hp == 4  # 5 - 1
    assert session.resume(tmp_path, "ambush").folder is not None
    assert folder.is_dir()


def test_a_fight_of_ten_thousand_actions_keeps_one_state_in_fifty() -> None:
    base = replayed(EFFECTIVE, len(EFFECTIVE))
    actions: list[a.Action] = [
        a.Damage(combatant=RAF, amount=1) if n % 2 else a.Heal(combatant=RAF, amount=1) for n in range(10_000)
    ]
    timeline = rewind.Timeline(base, actions)
    assert timeline.kept_states == 10_000 // rewind.CHECKPOINT_EVERY + 1 + 2
    # Raf starts at 16 of 20: each heal of 1 takes him to 17, the damage after it back to 16.
    assert timeline.state_at(9_999).combatants[0].hp == 17
    assert timeline.state_at(5_000).combatants[0].hp == 16
    assert timeline.state_at(4_951).combatants[0].hp == 17


def test_what_each_action_logged_is_the_same_when_the_states_hold_one_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tui_combat.engine import log_window
    from tui_combat.engine import messages as log_module

    timeline = rewind.Timeline(new_state(seed=1, ruleset="adnd2e"), EFFECTIVE)
    logged = [[entry.text for entry in timeline.logged_by(position)] for position in range(timeline.last + 1)]
    assert max(map(len, logged)) > 1  # an action that logs more than one state holds
    monkeypatch.setattr(log_window, "LOG_KEPT", 1)
    monkeypatch.setattr(log_module, "LOG_CHUNK", 1)
    small = rewind.Timeline(new_state(seed=1, ruleset="adnd2e"), EFFECTIVE)
    assert len(small.final.log_entries()) == 1 and small.final.log_count == timeline.final.log_count
    assert [[entry.text for entry in small.logged_by(position)] for position in range(small.last + 1)] == logged
