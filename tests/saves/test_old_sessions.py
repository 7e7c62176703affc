"""Sessions written before the log became data (state schema 1) open by replaying their actions, or are
refused with a message; opening never changes a byte on disk.

``fixtures/schema1`` is a data folder written by tui-combat at commit fb7fca3 (the last with schema 1):
the AD&D demo played from the keyboard with seed 1 — surprise typed 5 and 8, initiative typed 7 (party)
and 10 (monsters), quit (so the snapshot holds the history), then resumed: Next to the monsters' slot,
9 damage to Troll 1, 2d6 damage rolled by the app (6 + 3), undone, and the program stopped without
compacting, so the journal holds those four entries after the snapshot.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import msgspec
import pytest

from tests.saves.helpers import damage_round, small_fight
from tui_combat.engine import actions as a
from tui_combat.engine.log import render
from tui_combat.engine.model import SCHEMA_VERSION
from tui_combat.fight import session
from tui_combat.fight.store import Store
from tui_combat.saves import codec
from tui_combat.saves.errors import DamagedSession, IncompatibleSession
from tui_combat.saves.index import INDEX_FILE
from tui_combat.saves.schema import JOURNAL, PREV_SNAPSHOT, SNAPSHOT

FIXTURE = Path(__file__).parent / "fixtures" / "schema1"
KEY = "trolls-and-orcs-in-the-tunnel"
NAMES = [
    "Raf",
    "Rupert",
    "Delsenora",
    "Troll 1",
    "Troll 2",
    "Troll 3",
    "Orc 1",
    "Orc 2",
    "Orc 3",
    "Orc 4",
    "Orc 5",
    "Orc 6",
]
FULL_HP = [38, 30, 14, 36, 36, 36, 5, 5, 5, 5, 5, 5]


def files(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes() for path in sorted(root.rglob("*")) if path.is_file()}


@pytest.fixture
def old_root(tmp_path: Path) -> Path:
    """A copy of the schema-1 data folder (the fixture itself is never opened)."""
    root = tmp_path / "data"
    shutil.copytree(FIXTURE, root)
    return root


def test_the_fixture_is_what_the_old_version_wrote() -> None:
    snapshot = json.loads((FIXTURE / "sessions" / KEY / SNAPSHOT).read_bytes())
    assert (snapshot["schema"], snapshot["current"]["schema"], snapshot["base"]["schema"]) == (1, 1, 1)
    assert "round_data" in snapshot["current"] and "text" in snapshot["current"]["log"][0][0]
    journal = (FIXTURE / "sessions" / KEY / JOURNAL).read_bytes().splitlines()
    assert [json.loads(line)["k"] for line in journal] == ["header", "do", "do", "do", "undo"]


def test_old_actions_decode_with_the_same_tags_and_fields() -> None:
    """Every action the old version journalled reads back as today's action and encodes to the same JSON (but
    for fields added since, which read as their defaults)."""
    folder = FIXTURE / "sessions" / KEY
    old_actions = json.loads((folder / SNAPSHOT).read_bytes())["done"]
    old_actions += [
        json.loads(line)["a"] for line in (folder / JOURNAL).read_bytes().splitlines() if json.loads(line)["k"] == "do"
    ]
    assert len(old_actions) == 19
    for raw in old_actions:
        action = msgspec.convert(raw, a.Action)
        added = {
            field.encode_name
            for field in msgspec.structs.fields(type(action))
            if field.encode_name not in raw and getattr(action, field.name) == field.default
        }
        encoded = json.loads(msgspec.json.encode(action))
        assert {key: value for key, value in encoded.items() if key not in added} == raw


def test_set_surprised_of_the_old_shape_still_decodes() -> None:
    action = msgspec.json.decode(b'{"t":"set_surprised","sides":["s1"]}', type=a.Action)
    assert action == a.SetSurprised(sides=("s1",), combatants=())


def test_an_old_session_opens_where_it_was_left(old_root: Path) -> None:
    before = files(old_root)
    store = session.resume(old_root, KEY)
    state = store.state
    assert (state.phase, state.round, state.step, state.cursor) == ("round", 1, 3, 1)  # resolve, the monsters' slot
    assert [c.name for c in state.combatants] == NAMES
    # 9 damage to Troll 1 stands; the 2d6 (6 + 3 = 9) was undone.
    assert [c.hp for c in state.combatants] == [27 if name == "Troll 1" else hp for name, hp in zip(NAMES, FULL_HP)]
    assert [render(slot.label) for slot in state.order] == ["7", "10"]
    assert [[state.combatant(cid).name for cid in slot.combatants] for slot in state.order] == [NAMES[:3], NAMES[3:]]
    assert state.log_entries()[-1].text == "Troll 1 takes 9 damage: 27/36 HP."
    assert store.warnings == []
    store.save_now()  # leaving the session saves it: an old session only looked at stays as it was
    store.close()
    assert files(old_root) == before == files(FIXTURE)


def test_the_history_of_an_old_session_can_be_undone_and_redone(old_root: Path) -> None:
    store = session.resume(old_root, KEY)
    troll = store.state.combatant("c7")
    assert (troll.name, troll.hp) == ("Troll 1", 27)
    assert store.can_redo  # the 2d6 damage (6 + 3) that was undone
    store.redo()
    assert store.state.combatant("c7").hp == 18
    store.undo()
    store.undo()
    assert store.state.combatant("c7").hp == 36
    while store.can_undo:
        store.undo()
    assert store.state.combatants == () and store.state.phase == "setup"
    store.close()


def test_the_first_change_saves_in_todays_format_and_keeps_the_old_files(old_root: Path) -> None:
    folder = old_root / "sessions" / KEY
    original = files(folder)
    store = session.resume(old_root, KEY)
    store.dispatch(a.Damage(combatant="c8", amount=4))  # Troll 2
    expected = store.state
    store.close()

    kept = files(folder)
    assert kept["snapshot.schema1.json"] == original[SNAPSHOT]
    assert kept["journal.schema1.jsonl"] == original[JOURNAL]
    snapshot = json.loads(kept[SNAPSHOT])
    assert (snapshot["schema"], snapshot["current"]["schema"]) == (codec.SNAPSHOT_SCHEMA, SCHEMA_VERSION)

    again = Store.resume(folder)
    assert again.upgraded_from == 0
    assert again.state == expected
    assert again.state.combatant("c8").hp == 32 and again.state.combatant("c7").hp == 27


def test_an_old_session_is_listed_with_its_name_and_round(old_root: Path) -> None:
    (info,) = session.list_sessions(old_root)
    assert (info.key, info.name, info.ruleset, info.round, info.problem) == (
        KEY,
        "Trolls and orcs in the tunnel",
        "adnd2e",
        1,
        "",
    )


def _rewrite(path: Path, old: bytes, new: bytes) -> None:
    data = path.read_bytes()
    assert data.count(old) == 1, old
    path.write_bytes(data.replace(old, new))


def test_an_old_session_whose_history_no_longer_replays_is_refused_unchanged(old_root: Path) -> None:
    """The party's initiative roll taken out of the snapshot's history: the engine refuses that action."""
    snapshot = old_root / "sessions" / KEY / SNAPSHOT
    _rewrite(
        snapshot,
        b'{"t":"initiative","rolls":{"s1":{"expr":"1d10","total":7,"faces":[],"physical":true},',
        b'{"t":"initiative","rolls":{',
    )
    before = files(old_root)
    with pytest.raises(session.SessionError) as refused:
        session.resume(old_root, KEY)
    message = str(refused.value)
    assert "older tui-combat" in message and "action 16" in message and "Party" in message, message
    assert "left as they are" in message
    assert refused.value.title == "Cannot open the session"
    assert files(old_root) == before


def test_an_old_session_whose_journal_no_longer_replays_opens_read_only_unchanged(old_root: Path) -> None:
    """Damage to a combatant the fight does not have, in the journal after the snapshot: opened read-only as
    far as it replays, naming the line, with the way to rebuild what still replays."""
    journal = old_root / "sessions" / KEY / JOURNAL
    _rewrite(journal, b'"combatant":"c7","amount":9,"roll":null', b'"combatant":"c99","amount":9,"roll":null')
    before = files(old_root)
    opened = session.resume(old_root, KEY)
    message = opened.read_only_reason
    assert opened.read_only and opened.damaged
    assert "cannot be replayed" in message and f"{JOURNAL}, line 3" in message, message
    assert "nothing in it is changed" in message and f"tui-combat recover {KEY}" in message, message
    assert (opened.state.phase, opened.state.round, opened.state.step, opened.state.cursor) == ("round", 1, 3, 1)
    opened.save_now()
    opened.close()
    assert files(old_root) == before


def test_a_damaged_old_session_is_recovered_into_a_new_one_in_todays_format(old_root: Path) -> None:
    journal = old_root / "sessions" / KEY / JOURNAL
    _rewrite(journal, b'"combatant":"c7","amount":9,"roll":null', b'"combatant":"c99","amount":9,"roll":null')
    before = files(old_root)
    store = session.recover(old_root, KEY)
    assert store.folder is not None and store.folder.folder.name == f"{KEY}-recovered"
    state = store.state
    assert (state.phase, state.round, state.step, state.cursor) == ("round", 1, 3, 1)  # the Next of line 2, no further
    assert [c.hp for c in state.combatants] == FULL_HP
    store.close()
    assert {name: data for name, data in files(old_root).items() if name.startswith(f"sessions/{KEY}/")} == before
    recovered = json.loads((old_root / "sessions" / f"{KEY}-recovered" / SNAPSHOT).read_bytes())
    assert (recovered["schema"], recovered["current"]["schema"]) == (codec.SNAPSHOT_SCHEMA, SCHEMA_VERSION)
    again = session.resume(old_root, f"{KEY}-recovered")
    assert again.state == state
    again.close()


def test_an_old_session_that_replays_into_another_fight_is_refused(old_root: Path) -> None:
    """What the old version saved as the current fight no longer matches its own history."""
    snapshot = old_root / "sessions" / KEY / SNAPSHOT
    data = json.loads(snapshot.read_bytes())
    data["current"]["combatants"][0]["hp"] = 1
    snapshot.write_bytes(json.dumps(data).encode())
    before = files(old_root)
    with pytest.raises(session.SessionError) as refused:
        session.resume(old_root, KEY)
    assert "comes out different" in str(refused.value)
    assert files(old_root) == before


async def test_from_the_session_list_an_old_session_opens_and_a_broken_one_opens_read_only(old_root: Path) -> None:
    from textual.widgets import DataTable

    from tests.waiting import settled, until
    from tui_combat.app import CombatApp
    from tui_combat.screens.round import RoundScreen
    from tui_combat.screens.sessions import SessionsScreen

    broken = old_root / "sessions" / "broken"
    shutil.copytree(old_root / "sessions" / KEY, broken)
    _rewrite(broken / JOURNAL, b'"combatant":"c7","amount":9,"roll":null', b'"combatant":"c99","amount":9,"roll":null')
    before = files(old_root)

    app = CombatApp(old_root, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(
            pilot,
            lambda: isinstance(app.screen, SessionsScreen) and app.screen.query_one(DataTable).row_count > 2,
            "the session list's rows",
        )
        table = app.screen.query_one(DataTable)
        keys = [row.value for row in table.rows]
        for key in ("broken", KEY):
            target = keys.index(key)
            while table.cursor_row != target:
                await pilot.press("down" if table.cursor_row < target else "up")
            await pilot.press("enter")
            await until(
                pilot,
                lambda: isinstance(app.screen, RoundScreen) and not app.opening and settled(app.screen),
                f"the session {key} to open",
            )
            assert app.store is not None
            if key == "broken":
                assert app.store.read_only and app.store.damaged
                assert any("cannot be replayed" in notice.message for notice in app._notifications)
                await pilot.press("escape")
                await until(pilot, lambda: isinstance(app.screen, SessionsScreen), "the session list")
                table = app.screen.query_one(DataTable)
            else:
                assert app.store.state.combatant("c7").hp == 27
        await pilot.press("escape")  # back to the list: the old session is saved only if it changed
        await until(pilot, lambda: isinstance(app.screen, SessionsScreen), "the session list")
    after = files(old_root)
    assert INDEX_FILE in after  # the list's cache, beside the sessions
    assert {name: data for name, data in after.items() if name != INDEX_FILE} == before


# -- the other formats before history blocks ---------------------------------------------------------------
def test_an_old_session_that_no_longer_replays_is_not_taken_for_damage(old_root: Path) -> None:
    snapshot = old_root / "sessions" / KEY / SNAPSHOT
    _rewrite(
        snapshot,
        b'{"t":"initiative","rolls":{"s1":{"expr":"1d10","total":7,"faces":[],"physical":true},',
        b'{"t":"initiative","rolls":{',
    )
    with pytest.raises(IncompatibleSession) as refused:
        Store.resume(old_root / "sessions" / KEY)
    assert not isinstance(refused.value, DamagedSession)
    (info,) = session.list_sessions(old_root)
    assert info.problem == "" and not info.recoverable  # its files are whole: recovering would not help


def _whole_history_session(folder: Path, schema: int) -> Store:
    """A session as the versions before history blocks wrote it with today's states (format 1 after the
    log became data, format 2 after that): the first state and every action in the snapshot, then a
    journal of three more actions and an undo. Returns the store that played it (closed)."""
    store = small_fight(None, seed=5)
    damage_round(store, 4)
    store.undo()
    snapshot = {
        "schema": schema,
        "seq": 10,
        "name": store.state.name,
        "ruleset": store.state.ruleset,
        "round": store.state.round,
        "saved_at": "2026-01-02T03:04:05+00:00",
        "base": store.base,
        "done": store.done_actions(),
        "redo": store._redo,
        "current": store.state,
    }
    lines = [codec.JournalHeader(schema=1)]
    for seq, action in enumerate(
        [a.Heal(combatant="c5", amount=1), a.Damage(combatant="c6", amount=2), a.Note(text="noted")], start=11
    ):
        store.dispatch(action)
        lines.append(codec.Done(seq=seq, round=0, a=action))
    store.undo()
    lines.append(codec.Undone(seq=14, round=0))
    folder.mkdir(parents=True)
    (folder / SNAPSHOT).write_bytes(msgspec.json.encode(snapshot))
    (folder / JOURNAL).write_bytes(b"".join(codec.line_encoder.encode(line) + b"\n" for line in lines))
    return store


@pytest.mark.parametrize("schema", [1, 2])
def test_a_whole_history_snapshot_of_todays_states_opens_and_is_rewritten_at_the_first_change(
    tmp_path: Path, schema: int
) -> None:
    folder = tmp_path / "fight"
    played = _whole_history_session(folder, schema)
    before = files(folder)

    store = Store.resume(folder)
    assert store.state == played.state and store.done_actions() == played.done_actions()
    assert store.can_redo and store.upgraded_from == 0
    store.save_now()  # only looked at: left as it was
    store.close()
    assert files(folder) == before

    store = Store.resume(folder)
    store.redo()
    store.close()
    after = files(folder)
    assert json.loads(after[SNAPSHOT])["schema"] == codec.SNAPSHOT_SCHEMA
    assert after[PREV_SNAPSHOT] == before[SNAPSHOT]  # the old snapshot kept as the fallback
    assert not any("schema" in name for name in after)  # its states were today's: nothing to keep besides
    again = Store.resume(folder)
    assert again.state.log_entries()[-1].text == "noted"
    while again.can_undo:
        again.undo()
    assert again.state == played.base
    again.close()


def test_a_format_2_snapshot_of_the_development_version_before_the_log_became_data_is_refused(old_root: Path) -> None:
    """Format 2 was also written, for a while, with states of schema 1 and the undo history in blocks;
    no release wrote it. It is refused with a message, never taken for damage or rewritten."""
    snapshot = old_root / "sessions" / KEY / SNAPSHOT
    data = json.loads(snapshot.read_bytes())
    data["schema"] = 2
    snapshot.write_bytes(json.dumps(data).encode())
    before = files(old_root)
    with pytest.raises(IncompatibleSession, match="development version"):
        Store.resume(old_root / "sessions" / KEY)
    assert files(old_root) == before
