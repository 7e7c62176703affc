"""A process writing a session is killed (SIGKILL) at random moments, again and again: no committed action is lost.

The writer reports each action's seq and state digest only after ``dispatch``/``undo``/``redo`` returned,
i.e. after the journal line was fsynced: those are committed. After each kill the session must open
cleanly at the last reported action, or at the one after it (written, killed before reporting).
Small blocks and frequent snapshots make many kills land in the middle of a rotation.
"""

from __future__ import annotations

import hashlib
import os
import random
import select
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import msgspec
import pytest

from tui_combat.engine.apply import apply
from tui_combat.engine.model import State
from tui_combat.fight.store import Store
from tui_combat.saves.files import is_temp_name
from tui_combat.saves.schema import HISTORY

ROOT = Path(__file__).resolve().parents[2]
KILLS = 32

WRITER = textwrap.dedent(
    """
    import hashlib, os, random, sys
    from pathlib import Path

    import msgspec

    import tui_combat.fight.store as store_module
    from tui_combat.engine import actions as a
    from tui_combat.engine.errors import RuleError
    from tui_combat.fight.store import Store, new_state

    store_module.BLOCK_SIZE, store_module.SNAPSHOT_EVERY = 5, 7
    folder, seed = Path(sys.argv[1]), int(sys.argv[2])
    if (folder / "snapshot.json").exists():
        store = Store.resume(folder)
    else:
        store = Store.create(new_state(seed=1, ruleset="adnd2e"), folder)
        for action in (a.AddSide(name="Отряд", is_party=True), a.AddSide(name="Чудовища"),
                       a.AddCombatants(side="s1", name="Дельсенора", hp=14),
                       a.AddCombatants(side="s2", name="Тролль", hp=10_000, count=3)):
            store.dispatch(action)
    if store.read_only or store.unsaved:
        sys.exit(3)

    def report(kind):
        digest = hashlib.sha256(msgspec.json.encode(store.state)).hexdigest()[:16]
        os.write(1, f"{kind} {store._seq} {digest}\\n".encode())

    report("start")
    rng = random.Random(seed)
    targets = ["c3", "c5", "c6", "c7"]
    while True:
        pick = rng.random()
        if pick < 0.15 and store.can_undo:
            store.undo()
        elif pick < 0.25 and store.can_redo:
            store.redo()
        elif pick < 0.28:
            store.save_now()
            continue
        else:
            if pick < 0.6:
                action = a.Damage(combatant=rng.choice(targets), amount=rng.randint(0, 5))
            elif pick < 0.9:
                action = a.Heal(combatant=rng.choice(targets), amount=rng.randint(0, 3))
            else:
                action = a.Note(text=f"заметка {rng.randrange(1000)}", secret=rng.random() < 0.5)
            try:
                store.dispatch(action)
            except RuleError:  # an undo took the combatant away: refused, nothing written
                continue
        if store.unsaved:
            sys.exit(4)
        report("done")
    """
)


def digest(state: State) -> str:
    return hashlib.sha256(msgspec.json.encode(state)).hexdigest()[:16]


def run_and_kill(folder: Path, seed: int, after: float) -> list[tuple[str, int, str]]:
    """Start the writer, let it run ``after`` seconds once it has opened the session, SIGKILL it; its reports."""
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(folder), str(seed)], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert writer.stdout is not None
    output = b""
    deadline = time.monotonic() + 30
    try:
        while b"\n" not in output:  # the session is open, the writer about to write
            ready, _w, _x = select.select([writer.stdout], [], [], 1.0)
            if ready:
                chunk = os.read(writer.stdout.fileno(), 65536)
                if not chunk:
                    break
                output += chunk
            assert time.monotonic() < deadline, "the writer never started"
        time.sleep(after)
    finally:
        writer.kill()
        _out, errors = writer.communicate()
    output += _out
    assert writer.returncode == -9, errors.decode(errors="replace")
    reports = []
    for line in output.decode().splitlines():
        kind, seq, state_digest = line.split()
        reports.append((kind, int(seq), state_digest))
    return reports


@pytest.mark.slow
def test_random_kills_of_a_writing_process_lose_no_committed_action(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    rng = random.Random(20240611)
    committed_total = 0
    torn = 0
    last_seen: tuple[int, str] | None = None
    for kill in range(KILLS):
        reports = run_and_kill(folder, seed=kill, after=rng.uniform(0.0, 0.12))
        assert reports and reports[0][0] == "start"
        start_seq, start_digest = reports[0][1], reports[0][2]
        if last_seen is not None:  # the writer opened exactly what the last check saw
            assert (start_seq, start_digest) == last_seen
        committed = {seq: state_digest for _kind, seq, state_digest in reports}
        last_committed = reports[-1][1]
        committed_total += last_committed - start_seq

        resumed = Store.resume(folder)
        try:
            assert not resumed.read_only
            assert all("cut off" in warning for warning in resumed.warnings), resumed.warnings
            torn += bool(resumed.warnings)
            seq = resumed._seq
            assert last_committed <= seq <= last_committed + 1, (
                f"kill {kill}: committed {last_committed}, resumed at {seq}"
            )
            if seq in committed:
                assert digest(resumed.state) == committed[seq], f"kill {kill}: the state at {seq} differs"
            state = resumed.base
            for action in resumed.done_actions():
                state = apply(state, action)
            assert state == resumed.state
            last_seen = (seq, digest(resumed.state))
        finally:
            resumed.close()
        leftovers = [path for path in folder.rglob("*") if is_temp_name(path.name)]
        assert leftovers == [], "a writer that opens the session removes what interrupted writes left"
    assert committed_total >= KILLS, "the writer hardly wrote anything between kills"
    blocks = list((folder / HISTORY).iterdir()) if (folder / HISTORY).exists() else []
    assert len(blocks) <= 2 * (committed_total // 5 + 1)
    print(f"{KILLS} kills, {committed_total} committed actions, {torn} torn tails, none lost")


@pytest.mark.parametrize("seed", [1])
def test_the_writer_script_runs(tmp_path: Path, seed: int) -> None:
    """The script itself works (so a failure above is about kills, not about the script)."""
    reports = run_and_kill(tmp_path / "fight", seed=seed, after=0.05)
    assert reports[0][0] == "start"
