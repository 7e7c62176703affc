"""A session saved today comes back with the ruleset's own Structs, not the plain mappings JSON holds."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import tui_combat.store as store_module
from tests.plugins.skirmish import RULESET, SkirmishFight, SkirmishRound
from tui_combat import session
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.contract import AnyRuleset
from tui_combat.engine.dice import physical
from tui_combat.saves import codec
from tui_combat.store import recover

ENCOUNTER = """
name = "Bridge"
ruleset = "skirmish"
[[sides]]
name = "Party"
party = true
[[sides.combatants]]
name = "Ada"
hp = 10
sheet = { attack = 2, ac = 12, damage = "1d8" }
[[sides]]
name = "Bandits"
[[sides.combatants]]
name = "Bandit"
hp = 9
sheet = { attack = 1, ac = 14, damage = "1d6" }
"""


@pytest.fixture
def skirmish() -> Iterator[AnyRuleset]:
    registry.register(RULESET)
    try:
        yield RULESET
    finally:
        registry.forget()


def test_round_and_fight_state_come_back_as_the_rulesets_structs(tmp_path: Path, skirmish: AnyRuleset) -> None:
    encounter = tmp_path / "bridge.toml"
    encounter.write_text(ENCOUNTER, encoding="utf-8")
    root = tmp_path / "data"
    store = session.new_from_file(root, encounter, seed=1)
    store.dispatch(a.StartFight())
    store.dispatch(a.RollInitiative(rolls={"s1": physical("1d6", "5"), "s3": physical("1d6", "2")}))
    # Ada (attack +2) rolls 13 against the bandit's AC 14: 15, a hit; the d8 shows 4.
    store.dispatch(a.RulesetAction(name="attack", args={
        "combatant": "c2", "target": "c4",
        "to_hit": {"expr": "1d20", "total": 13, "faces": [], "physical": True},
        "damage": {"expr": "1d8", "total": 4, "faces": [], "physical": True},
    }))
    store.save_now()  # the snapshot holds the state itself, not only the actions
    saved = store.state
    key = store.folder.folder.name if store.folder else ""
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
    encounter = tmp_path / "bridge.toml"
    encounter.write_text(ENCOUNTER, encoding="utf-8")
    root = tmp_path / "data"
    store = session.new_from_file(root, encounter, seed=1)
    store.dispatch(a.StartFight())
    store.save_now()
    key = store.folder.folder.name if store.folder else ""
    store.close()
    registry.forget()  # the plugin is gone
    with pytest.raises(session.SessionError) as refused:
        session.resume(root, key)
    assert "skirmish" in str(refused.value) and "Traceback" not in str(refused.value)


def test_states_read_back_from_history_blocks_and_from_a_journal_header_are_the_rulesets_structs(
        tmp_path: Path, skirmish: AnyRuleset, monkeypatch: pytest.MonkeyPatch) -> None:
    """Undo reads sealed blocks of the history back from disk, and a recovery can start from the first
    state a journal's header holds: those states too come back with the ruleset's own Structs."""
    monkeypatch.setattr(store_module, "BLOCK_SIZE", 2)
    monkeypatch.setattr(store_module, "SNAPSHOT_EVERY", 3)
    encounter = tmp_path / "bridge.toml"
    encounter.write_text(ENCOUNTER, encoding="utf-8")
    root = tmp_path / "data"
    store = session.new_from_file(root, encounter, seed=1)
    store.dispatch(a.StartFight())
    store.dispatch(a.RollInitiative(rolls={"s1": physical("1d6", "5"), "s3": physical("1d6", "2")}))
    store.dispatch(a.RulesetAction(name="attack", args={
        "combatant": "c2", "target": "c4",
        "to_hit": {"expr": "1d20", "total": 13, "faces": [], "physical": True},
        "damage": {"expr": "1d8", "total": 1, "faces": [], "physical": True},
    }))
    states = [store.state]
    for amount in (1, 2, 1, 1, 1, 2, 1):
        store.dispatch(a.Damage(combatant="c4", amount=amount))
        states.append(store.state)
    assert isinstance(store.state.round_state, SkirmishRound)
    key = store.folder.folder.name if store.folder else ""
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
    (folder / "journal.jsonl").write_bytes(codec.line_encoder.encode(header) + b"\n")
    for name in ("snapshot.json", "snapshot.prev.json", "journal.prev.jsonl"):
        (folder / name).unlink(missing_ok=True)
    rebuilt = recover(folder, tmp_path / "rebuilt")
    assert rebuilt.state == states[-1]
    assert isinstance(rebuilt.state.round_state, SkirmishRound)
    rebuilt.close()
