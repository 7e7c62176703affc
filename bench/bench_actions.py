"""How long one action takes, and how long resuming a long fight takes, against the unavoidable I/O.

Run:  .venv/bin/python bench/bench_actions.py  [--profile]

* Per action: ``Store.dispatch`` (apply + undo history + one journal line written and fsynced) in the
  resolve step of a fight with 20, 200 and 2,000 combatants, compared with the baseline of encoding one
  journal entry with msgspec and ``os.write`` + ``os.fsync`` of it to a file in the same folder.
* Resume: ``Store.resume`` of a session whose journal holds 10,000 damage / heal / next-step actions after
  the first snapshot, compared with just reading that journal and decoding its lines with msgspec.

Every figure is the median of several repeats, measured with ``time.perf_counter`` in this same run.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgspec  # noqa: E402

import tui_combat.store as store_module  # noqa: E402
from tui_combat.engine import actions as a  # noqa: E402
from tui_combat.engine.apply import apply  # noqa: E402
from tui_combat.engine.dice import Roll  # noqa: E402
from tui_combat.engine.model import State  # noqa: E402
from tui_combat.saves import codec  # noqa: E402
from tui_combat.saves import journal as journal_module  # noqa: E402
from tui_combat.saves.journal import JOURNAL  # noqa: E402
from tui_combat.store import Store, new_state  # noqa: E402

SIZES = (20, 200, 2_000)
ACTIONS_PER_REPEAT = 200
REPEATS = 5
RESUME_ACTIONS = 10_000
RESUME_COMBATANTS = 20
RESUME_REPEATS = 5
LIMIT_ACTION_US = 1_000.0
LIMIT_RESUME_MS = 150.0


# -- building fights ----------------------------------------------------------------------------------
def fight(combatants: int) -> State:
    """A fight in the resolve step of round 1: two sides, ``combatants`` in all, initiative rolled."""
    state = new_state(seed=1)
    steps: list[a.Action] = [a.SetName(name="Бенчмарк"), a.SetRuleset(ruleset="adnd2e"), a.AddSide(name="Party", is_party=True), a.AddSide(name="Monsters")]
    party = min(6, combatants // 2)
    steps += [
        a.AddCombatants(side="s1", name=f"Герой {n}", hp=40, sheet={"cls": "warrior", "level": 5, "weapon": "long sword"})
        for n in range(party)
    ]
    left = combatants - party
    while left:
        count = min(left, 500)
        steps.append(a.AddCombatants(side="s2", name="Orc", hp=8, count=count, sheet={"cls": "monster", "level": 1, "weapon": "long sword"}))
        left -= count
    steps += [a.BeginSurprise(), a.StartFight(), a.NextStep(), a.NextStep()]
    steps.append(a.RollInitiative(rolls={"s1": Roll(expr="1d10", total=3, faces=(3,)), "s2": Roll(expr="1d10", total=7, faces=(7,))}))
    for action in steps:
        state = apply(state, action)
    assert len(state.combatants) == combatants and state.order
    return state


def action_stream(state: State, count: int, rng: random.Random) -> list[a.Action]:
    """Damage and heal on random combatants, with the cursor moved to the next slot and back now and then
    (so the stream never leaves the resolve step; ``count`` is a multiple of 20 to end where it started)."""
    ids = [c.id for c in state.combatants]
    result: list[a.Action] = []
    for n in range(count):
        pick = n % 20
        if pick == 9:
            result.append(a.NextStep())
        elif pick == 19:
            result.append(a.PreviousStep())
        elif pick % 2:
            result.append(a.Heal(combatant=rng.choice(ids), amount=rng.randint(1, 3)))
        else:
            result.append(a.Damage(combatant=rng.choice(ids), amount=rng.randint(1, 3)))
    return result


# -- measuring ----------------------------------------------------------------------------------------
def median_per_item(run: Callable[[], int], repeats: int) -> float:
    """Median over ``repeats`` of (seconds for one run) / (items the run did)."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        items = run()
        samples.append((time.perf_counter() - start) / items)
    return statistics.median(samples)


def baseline_append(folder: Path) -> float:
    """Seconds to encode one journal entry with msgspec, write it and fsync it."""
    path = folder / "baseline.jsonl"
    entry_actions = [a.Damage(combatant="c17", amount=2), a.Heal(combatant="c17", amount=1), a.NextStep()]
    encoder = msgspec.json.Encoder()
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        def run() -> int:
            for n in range(ACTIONS_PER_REPEAT):
                line = encoder.encode(codec.Done(seq=n, round=1, a=entry_actions[n % 3])) + b"\n"
                os.write(fd, line)
                os.fsync(fd)
            return ACTIONS_PER_REPEAT

        run()  # warm up
        return median_per_item(run, REPEATS)
    finally:
        os.close(fd)


def per_action(folder: Path, combatants: int) -> tuple[float, float, float]:
    """(seconds per dispatch with fsynced append, seconds per pure apply, seconds per full snapshot)."""
    state = fight(combatants)
    store = Store.create(state, folder / f"n{combatants}")
    rng = random.Random(combatants)
    try:
        def run_store() -> int:
            for action in action_stream(store.state, ACTIONS_PER_REPEAT, rng):
                store.dispatch(action)
            return ACTIONS_PER_REPEAT

        run_store()  # warm up
        dispatch = median_per_item(run_store, REPEATS)
        assert not store.unsaved, store.save_problem

        def run_apply() -> int:
            current = state
            for action in action_stream(state, ACTIONS_PER_REPEAT, rng):
                current = apply(current, action)
            return ACTIONS_PER_REPEAT

        pure = median_per_item(run_apply, REPEATS)

        def run_snapshot() -> int:
            store.save_now()
            return 1

        snapshot = median_per_item(run_snapshot, 3)
    finally:
        store.close()
    return dispatch, pure, snapshot


class _NoFsync:
    """The ``os`` module, minus the fsync: only to build the 10,000-line journal quickly."""

    def __getattr__(self, name: str):
        return getattr(os, name)

    @staticmethod
    def fsync(fd: int) -> None:
        return None


def build_long_session(folder: Path) -> Store:
    state = fight(RESUME_COMBATANTS)
    store = Store.create(state, folder)
    real_os = journal_module.os
    journal_module.os = _NoFsync()  # type: ignore[assignment]
    try:
        for action in action_stream(state, RESUME_ACTIONS, random.Random(10_000)):
            store.dispatch(action)
    finally:
        journal_module.os = real_os  # type: ignore[assignment]
    store.close()
    lines = [line for line in (folder / JOURNAL).read_bytes().split(b"\n") if line]
    assert len(lines) == RESUME_ACTIONS + 1, len(lines)  # the header plus every action: no compaction
    return store


def baseline_read(folder: Path) -> float:
    def run() -> int:
        data = (folder / JOURNAL).read_bytes()
        decoded = [codec.line_decoder.decode(line) for line in data.split(b"\n") if line]
        assert len(decoded) == RESUME_ACTIONS + 1
        return 1

    run()
    return median_per_item(run, RESUME_REPEATS)


def resume_time(folder: Path, expected: State, *, collect: bool = True) -> float:
    """Median seconds of ``Store.resume``; ``collect=False`` runs it with the cyclic GC paused."""
    def run() -> int:
        enabled = gc.isenabled()
        if not collect:
            gc.disable()
        try:
            resumed = Store.resume(folder)
        finally:
            if enabled:
                gc.enable()
        resumed.close()
        assert resumed.state == expected
        return 1

    run()
    return median_per_item(run, RESUME_REPEATS)


# -- reporting ----------------------------------------------------------------------------------------
def profile(label: str, work: Callable[[], object]) -> None:
    print(f"\n--- cProfile: {label} (top 15 by cumulative time) ---")
    profiler = cProfile.Profile()
    profiler.enable()
    work()
    profiler.disable()
    pstats.Stats(profiler).strip_dirs().sort_stats("cumulative").print_stats(15)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profile", action="store_true", help="profile the biggest cases even when within limits")
    parser.add_argument("--dir", type=Path, default=None, help="folder for the temporary files (default: system temp)")
    args = parser.parse_args()

    root = Path(tempfile.mkdtemp(prefix="tui-combat-bench-", dir=args.dir))
    saved_every = store_module.SNAPSHOT_EVERY
    store_module.SNAPSHOT_EVERY = 10**9  # measure journal appends only; snapshots are reported apart
    started = time.perf_counter()
    over: list[str] = []
    try:
        print(f"tui-combat action benchmark — Python {sys.version.split()[0]}, msgspec {msgspec.__version__}, files in {root}")
        base = baseline_append(root)
        print(f"\nbaseline: msgspec encode + os.write + os.fsync of one entry: {base * 1e6:8.1f} µs")
        print(f"\n{'combatants':>10} {'dispatch µs':>12} {'× baseline':>11} {'apply µs':>10} {'snapshot ms':>12}")
        for size in SIZES:
            dispatch, pure, snapshot = per_action(root, size)
            print(f"{size:>10,} {dispatch * 1e6:12.1f} {dispatch / base:11.2f} {pure * 1e6:10.1f} {snapshot * 1e3:12.2f}")
            if size == SIZES[-1] and dispatch * 1e6 > LIMIT_ACTION_US:
                over.append("action")
        print(f"(a full snapshot is written every {saved_every} actions by default; the table's dispatch excludes it)")

        folder = root / "long"
        store = build_long_session(folder)
        read = baseline_read(folder)
        resume = resume_time(folder, store.state)
        resume_no_gc = resume_time(folder, store.state, collect=False)
        print(f"\nresume of a {RESUME_ACTIONS:,}-action journal ({RESUME_COMBATANTS} combatants, "
              f"{(folder / JOURNAL).stat().st_size / 1e6:.2f} MB):")
        print(f"  baseline read + msgspec decode of the lines: {read * 1e3:8.1f} ms")
        print(f"  Store.resume:                                {resume * 1e3:8.1f} ms  ({resume / read:.1f} × baseline)")
        print(f"  Store.resume with the cyclic GC paused:      {resume_no_gc * 1e3:8.1f} ms  ({resume_no_gc / read:.1f} × baseline)")
        if resume * 1e3 > LIMIT_RESUME_MS:
            over.append("resume")

        if over or args.profile:
            print(f"\nover the limit ({LIMIT_ACTION_US:.0f} µs per action at {SIZES[-1]:,}, {LIMIT_RESUME_MS:.0f} ms resume): "
                  f"{', '.join(over) or 'nothing'}")
            if "action" in over or args.profile:
                big = Store.create(fight(SIZES[-1]), root / "profile")
                stream = action_stream(big.state, 500, random.Random(1))
                profile(f"500 dispatches at {SIZES[-1]:,} combatants", lambda: [big.dispatch(x) for x in stream])
                big.close()
            if "resume" in over or args.profile:
                profile("Store.resume", lambda: Store.resume(folder).close())
    finally:
        store_module.SNAPSHOT_EVERY = saved_every
        shutil.rmtree(root, ignore_errors=True)
    print(f"\ntotal bench time {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
