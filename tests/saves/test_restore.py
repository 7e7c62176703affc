"""A session saved today comes back with the ruleset's own Structs, not the plain mappings JSON holds."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import tui_combat.fight.store as store_module
from tests.common import BRIDGE, encounter_file, registered
from tests.plugins.skirmish import RULESET, SkirmishFight, SkirmishRound
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.contract import AnyRuleset
from tui_combat.engine.dice import physical
from tui_combat.fight import session
from tui_combat.fight.store import Store, recover
from tui_combat.saves import codec
from tui_combat.saves.sums import seal


@pytest.fixture
def skirmish() -> Iterator[AnyRuleset]:
    with registered(RULESET) as ruleset:
        yield ruleset


def bridge_session(tmp_path: Path) -> tuple[Path, Store]:
    """A new session of the bridge encounter (Ada c2 against the bandit c4) in ``tmp_path / "data"``, seed 1."""
    root = tmp_path / "data"
    return root, session.new_from_file(root, encounter_file(tmp_path, BRIDGE, "bridge.toml"), seed=1)


def session_key(store: Store) -> str:
    """The name of the session's folder, which ``session.resume`` takes."""
    return store.folder.folder.name if store.folder else ""


def test_round_and_fight_state_come_back_as_the_rulesets_structs(tmp_path: Path, skirmish: AnyRuleset) -> None:
    root, store = bridge_session(tmp_path)
    store.dispatch(a.StartFight())
    store.dispatch(a.RollInitiative(rolls={"s1": physical("1d6", "5"), "s3": physical("1d6", "2")}))
    # Ada (attack +2) rolls 13 against the bandit's AC 14: 15, a hit; the d8 shows 4.
    store.dispatch(
        a.RulesetAction(
            name="attack",
            args={
                "combatant": "c2",
                "target": "c4",
                "to_hit": {"expr": "1d20", "total": 13, "faces": [], "physical": True},
                "damage": {"expr": "1d8", "total": 4, "faces": [], "physical": True},
            },
        )
    )
    store.save_now()  # the snapshot holds the state itself, not only the actions
    saved = store.state
    key = session_key(store)
    store.close()
    assert saved.round_state == SkirmishRound(attacks_left={"c2": 0})
    assert saved.fight_state == SkirmishFight(hits={"c2": 1})
    assert saved.combatant("c4").hp == 5

    resumed = session.resume(root, key)
    assert isinstance(resumed.state.round_state, SkirmishRound)
    assert isinstance(resumed.state.fight_state, SkirmishFight)
    assert resumed.state == saved
    assert resumed.base.round_state is None  # the empty fight the history starts from


def test_a_session_of_a_ruleset_that_is_not_installed_is_refused(tmp_path: Path, skirmish: AnyRuleset) -> None:
    root, store = bridge_session(tmp_path)
    store.dispatch(a.StartFight())
    store.save_now()
    key = session_key(store)
    store.close()
    registry.forget()  # the plugin is gone
    with pytest.raises(session.SessionError) as refused:
        session.resume(root, key)
    assert "skirmish" in str(refused.value) and "Traceback" not in str(refused.value)


def test_states_read_back_from_history_blocks_and_from_a_journal_header_are_the_rulesets_structs(
    tmp_path: Path, skirmish: AnyRuleset, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Undo reads sealed blocks of the history back from disk, and a recovery can start from the first
    state a journal's header holds: those states too come back with the ruleset's own Structs."""
    monkeypatch.setattr(store_module, "BLOCK_SIZE", 2)
    monkeypatch.setattr(store_module, "SNAPSHOT_EVERY", 3)
    root, store = bridge_session(tmp_path)
    store.dispatch(a.StartFight())
    store.dispatch(a.RollInitiative(rolls={"s1": physical("1d6", "5"), "s3": physical("1d6", "2")}))
    store.dispatch(
        a.RulesetAction(
            name="attack",
            args={
                "combatant": "c2",
                "target": "c4",
                "to_hit": {"expr": "1d20", "total": 13, "faces": [], "physical": True},
                "damage": {"expr": "1d8", "total": 1, "faces": [], "physical": True},
            },
        )
    )
    states = [store.state]
    for amount in (1, 2, 1, 1, 1, 2, 1):
        store.dispatch(a.Damage(combatant="c4", amount=amount))
        states.append(store.state)
    assert isinstance(store.state.round_state, SkirmishRound)
    key = session_key(store)
    store.close()
    assert len(list((root / "sessions" / key / "history").iterdir())) >= 3

    resumed = session.resume(root, key)
    while len(states) > 1:
        states.pop()
        resumed.undo()  # each block is read back from disk when the undo reaches it
        assert resumed.state == states[-1]
        assert isinstance(resumed.state.round_state, SkirmishRound)
        assert isinstance(resumed.state.fight_state, SkirmishFight)
    resumed.close()

    folder = root / "sessions" / key
    header = codec.JournalHeader(schema=codec.JOURNAL_SCHEMA, start=states[-1])
    (folder / "journal.jsonl").write_bytes(seal(codec.line_encoder.encode(header)) + b"\n")
    for name in ("snapshot.json", "snapshot.prev.json", "journal.prev.jsonl"):
        (folder / name).unlink(missing_ok=True)
    rebuilt = recover(folder, tmp_path / "rebuilt")
    assert rebuilt.state == states[-1]
    assert isinstance(rebuilt.state.round_state, SkirmishRound)
    rebuilt.close()
