"""What one action, one undo and one resume cost against the I/O they cannot avoid, and how much memory a
long fight holds.

Run:  .venv/bin/python bench/bench_actions.py  [--profile] [--dir DIR] [--quick]

* Per action: ``Store.dispatch`` (apply + undo history + one journal line written and fsynced, and every
  500th action a snapshot with its history blocks) in the resolve step of fights of 20, 200 and 2,000
  combatants. Each repeat is paired with a baseline measured just before it in the same folder:
  encoding a journal entry with msgspec and ``os.write`` + ``os.fsync`` of it. The ratio is taken per
  pair, so a slow moment of the disk weighs on both sides. Actions that wrote a snapshot are counted
  in the mean and shown apart.
* Undo at 2,000 combatants: a run of undos (most pop a kept state; one in a hundred reopens a history
  block from disk and replays it), and the first undo after a resume.
* Resume of a 10,480-action session (default settings: a snapshot every 500 entries, so 480 journal
  lines to replay), paired with reading its snapshot and journal and decoding them with msgspec.
* Memory at 2,000 combatants after 10,000 actions, next to a process that only builds the same fight:
  the peak RSS of a fresh process, and what Python still holds (tracemalloc).
* A long fight, 50,000 actions at 2,000 combatants: the snapshot next to the snapshot of the fight before
  its first action (the state holds only the newest log entries, so the two differ by a bounded amount), the
  session folder in bytes per action, and the peak RSS of the process that played them next to one that
  only built the fight.
* Export (the report of the whole fight, as ``tui-combat export`` makes it) of 10,000 actions at 2,000
  combatants, paired with reading the session's files and decoding its actions with msgspec.

Every figure is a median of several repeats measured with ``time.perf_counter`` in this same run.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgspec

import tui_combat.fight.store as store_module
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.dice import Roll
from tui_combat.engine.model import State
from tui_combat.fight.store import Store, new_state
from tui_combat.saves import codec
from tui_combat.saves import files as files_module
from tui_combat.saves import journal as journal_module
from tui_combat.saves.schema import JOURNAL, SNAPSHOT

SIZES = (20, 200, 2_000)
ACTIONS_PER_REPEAT = 240  # a multiple of 20: each repeat ends where it began
REPEATS = 6
UNDOS = 300
LONG_ACTIONS = 10_000
RESUME_SIZES = (20, 2_000)
RESUME_REPEATS = 5
RESUME_TAIL = 480
LONGEST_ACTIONS = 50_000
EXPORT_ACTIONS = 10_000
EXPORT_REPEATS = 3
"""Actions after the long session's last snapshot, near the worst case (499), so resume has lines to replay."""


# -- building fights ----------------------------------------------------------------------------------
def fight(combatants: int, group: int = 500) -> State:
    """A fight in the resolve step of round 1: two sides, ``combatants`` in all, initiative rolled; the
    monsters in groups of ``group``."""
    state = new_state(seed=1, ruleset="adnd2e")
    steps: list[a.Action] = [
        a.SetName(name="Бенчмарк"),
        a.SetRuleset(ruleset="adnd2e"),
        a.AddSide(name="Party", is_party=True),
        a.AddSide(name="Monsters"),
    ]
    party = min(6, combatants // 2)
    steps += [
        a.AddCombatants(
            side="s1", name=f"Герой {n}", hp=40, sheet={"cls": "warrior", "level": 5, "weapon": "long sword"}
        )
        for n in range(party)
    ]
    left = combatants - party
    while left:
        count = min(left, group)
        steps.append(
            a.AddCombatants(
                side="s2", name="Orc", hp=8, count=count, sheet={"cls": "monster", "level": 1, "weapon": "long sword"}
            )
        )
        left -= count
    steps += [a.BeginSurprise(), a.StartFight(), a.NextStep(), a.NextStep()]
    steps.append(
        a.RollInitiative(
            rolls={"s1": Roll(expr="1d10", total=3, faces=(3,)), "s2": Roll(expr="1d10", total=7, faces=(7,))}
        )
    )
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


class _NoFsync:
    """The ``os`` module minus fsync: only to build long sessions quickly, never while measuring."""

    def __getattr__(self, name: str) -> object:
        return getattr(os, name)

    @staticmethod
    def fsync(fd: int) -> None:
        return None


def without_fsync(work: Callable[[], object]) -> None:
    saved = journal_module.os, files_module.os
    journal_module.os = files_module.os = _NoFsync()  # type: ignore[assignment]
    try:
        work()
    finally:
        journal_module.os, files_module.os = saved  # type: ignore[assignment]


def play(store: Store, stream: list[a.Action]) -> None:
    for action in stream:
        store.dispatch(action)


def long_session(folder: Path, combatants: int, actions: int, group: int = 500) -> Store:
    state = fight(combatants, group)
    store = Store.create(state, folder)
    stream = action_stream(state, actions, random.Random(actions))
    without_fsync(lambda: play(store, stream))
    return store


# -- measuring ----------------------------------------------------------------------------------------
def baseline_appends(fd: int, count: int) -> float:
    """Seconds per entry to encode ``count`` journal entries with msgspec, write and fsync each."""
    entry_actions = [a.Damage(combatant="c17", amount=2), a.Heal(combatant="c17", amount=1), a.NextStep()]
    encoder = msgspec.json.Encoder()
    start = time.perf_counter()
    for n in range(count):
        os.write(fd, encoder.encode(codec.Done(seq=n, round=1, a=entry_actions[n % 3])) + b"\n")
        os.fsync(fd)
    return (time.perf_counter() - start) / count


@dataclass
class ActionRow:
    combatants: int
    baseline_us: float
    dispatch_us: float
    """Mean per action, snapshots included."""
    ratio: float
    """Median over repeats of (mean dispatch / the paired baseline)."""
    plain_us: float
    """Median of the actions that only appended a line."""
    snapshot_ms: float
    """Median of the actions that also wrote a snapshot (0 when none did)."""
    snapshots: int
    apply_us: float


def per_action(folder: Path, combatants: int) -> tuple[ActionRow, Store]:
    state = fight(combatants)
    store = Store.create(state, folder / f"n{combatants}")
    rng = random.Random(combatants)
    fd = os.open(folder / f"baseline-{combatants}.jsonl", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    ratios, means, baselines, plain, snapshots = [], [], [], [], []
    try:
        for repeat in range(REPEATS + 1):  # the first pair warms up
            baseline = baseline_appends(fd, ACTIONS_PER_REPEAT)
            times = []
            for action in action_stream(store.state, ACTIONS_PER_REPEAT, rng):
                start = time.perf_counter()
                store.dispatch(action)
                took = time.perf_counter() - start
                times.append(took)
                (snapshots if store._since_snapshot == 0 else plain).append(took) if repeat else None
            assert not store.unsaved, store.save_problem
            if repeat:
                mean = statistics.fmean(times)
                means.append(mean)
                baselines.append(baseline)
                ratios.append(mean / baseline)
    finally:
        os.close(fd)
    current = state
    applies = action_stream(state, ACTIONS_PER_REPEAT, rng)
    start = time.perf_counter()
    for action in applies:
        current = apply(current, action)
    pure = (time.perf_counter() - start) / len(applies)
    row = ActionRow(
        combatants=combatants,
        baseline_us=statistics.median(baselines) * 1e6,
        dispatch_us=statistics.median(means) * 1e6,
        ratio=statistics.median(ratios),
        plain_us=statistics.median(plain) * 1e6,
        snapshot_ms=statistics.median(snapshots) * 1e3 if snapshots else 0.0,
        snapshots=len(snapshots),
        apply_us=pure * 1e6,
    )
    return row, store


def undo_costs(store: Store, folder: Path) -> tuple[float, float, float, float]:
    """(median undo, slowest undo, first undo after a resume, paired baseline) in seconds."""
    fd = os.open(folder / "baseline-undo.jsonl", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        baseline = baseline_appends(fd, 100)
        times = []
        for _ in range(UNDOS):
            start = time.perf_counter()
            store.undo()
            times.append(time.perf_counter() - start)
        path = store.folder.folder if store.folder else None
        store.close()
        assert path is not None
        firsts = []
        for _ in range(3):
            resumed = Store.resume(path)
            start = time.perf_counter()
            resumed.undo()
            firsts.append(time.perf_counter() - start)
            resumed.redo()
            resumed.close()
        baseline = (baseline + baseline_appends(fd, 100)) / 2
    finally:
        os.close(fd)
    return statistics.median(times), max(times), statistics.median(firsts), baseline


def replay_cost(folder: Path) -> float:
    """Seconds to apply the journal's actions to the snapshot's state: the rules' share of a resume."""
    snapshot = codec.snapshot_decoders[codec.SNAPSHOT_SCHEMA].decode((folder / SNAPSHOT).read_bytes())
    assert isinstance(snapshot, codec.Snapshot)
    actions = [
        line.a
        for line in map(codec.line_decoder.decode, (folder / JOURNAL).read_bytes().split(b"\n")[1:-1])
        if isinstance(line, codec.Done)
    ]
    state = snapshot.current
    start = time.perf_counter()
    for action in actions:
        state = apply(state, action)
    return time.perf_counter() - start


def resume_costs(folder: Path) -> tuple[float, float, float]:
    """(Store.resume, the paired read + decode baseline, journal lines after the snapshot)."""

    def baseline() -> None:
        snapshot = (folder / SNAPSHOT).read_bytes()
        lines = (folder / JOURNAL).read_bytes().split(b"\n")
        codec.snapshot_decoders[codec.SNAPSHOT_SCHEMA].decode(snapshot)
        for line in lines:
            if line:
                codec.line_decoder.decode(line)

    resumes, baselines = [], []
    for repeat in range(RESUME_REPEATS + 1):
        start = time.perf_counter()
        baseline()
        took_baseline = time.perf_counter() - start
        start = time.perf_counter()
        Store.resume(folder).close()
        took = time.perf_counter() - start
        if repeat:
            resumes.append(took)
            baselines.append(took_baseline)
    lines = (folder / JOURNAL).read_bytes().count(b"\n") - 1
    return statistics.median(resumes), statistics.median(baselines), lines


def export_costs(folder: Path) -> tuple[float, float]:
    """(the export of the session in ``folder``, the paired baseline: reading its files, decompressing its
    history blocks and decoding its snapshot and every action with msgspec), medians in seconds."""
    from tui_combat.fight.report import rendered, store_report

    def baseline() -> None:
        codec.snapshot_decoders[codec.SNAPSHOT_SCHEMA].decode((folder / SNAPSHOT).read_bytes())
        for line in (folder / JOURNAL).read_bytes().split(b"\n"):
            if line:
                codec.line_decoder.decode(line)
        for block in sorted((folder / "history").iterdir()):
            codec.block_actions_decoder.decode(zlib.decompress(block.read_bytes()))

    def export() -> None:
        store = Store.resume(folder, read_only=True)
        try:
            rendered(store_report(store), "md")
        finally:
            store.close()

    exports, baselines = [], []
    for _repeat in range(EXPORT_REPEATS):
        start = time.perf_counter()
        baseline()
        baselines.append(time.perf_counter() - start)
        start = time.perf_counter()
        export()
        exports.append(time.perf_counter() - start)
    return statistics.median(exports), statistics.median(baselines)


def folder_bytes(folder: Path) -> int:
    return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())


def memory_child(kind: str, combatants: int, actions: int, folder: str, trace: bool) -> None:
    """Run in a fresh process; prints its peak RSS in KiB, or with ``trace`` the memory Python still holds
    for what ``kind`` built (tracemalloc inflates the peak, so the two are separate runs).

    ``fight``: build the fight. ``store``: build it, then play ``actions`` through a store (fsync off to
    save time: it does not change what is kept). ``resume``: resume the session in ``folder``, undo once.
    """
    if trace:
        tracemalloc.start()
    held = 0
    if kind == "resume":
        store = Store.resume(Path(folder))
        store.undo()
        held = tracemalloc.get_traced_memory()[0] if trace else 0
        store.close()
    else:
        state = fight(combatants)
        held = tracemalloc.get_traced_memory()[0] if trace else 0
        if kind == "store":
            store = Store.create(state, Path(folder))
            stream = action_stream(state, actions, random.Random(actions))
            del state
            without_fsync(lambda: play(store, stream))
            del stream
            held = tracemalloc.get_traced_memory()[0] if trace else 0
            store.close()
    print(held // 1024 if trace else peak_rss_kib())


def memory_mib(kind: str, combatants: int, actions: int, folder: Path, *, held: bool = True) -> tuple[float, float]:
    """(peak RSS, memory held) in MiB, each from a fresh process running :func:`memory_child` (without
    ``held``, only the peak is measured and held is 0)."""
    figures = []
    for trace in ("peak", "held") if held else ("peak",):
        if kind == "store" and trace == "held":
            shutil.rmtree(folder, ignore_errors=True)
        output = subprocess.run(
            [sys.executable, __file__, "--memory-child", kind, str(combatants), str(actions), str(folder), trace],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        figures.append(int(output.split()[-1]) / 1024)
    return figures[0], figures[1] if held else 0.0


def peak_rss_kib() -> int:
    """This process's peak RSS. ``ru_maxrss`` is not used on Linux: it survives ``exec`` and so reports
    the parent's peak for a child started with fork + exec."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


# -- reporting ----------------------------------------------------------------------------------------
def profile(label: str, work: Callable[[], object]) -> None:
    print(f"\n--- cProfile: {label} (top 15 by cumulative time) ---")
    profiler = cProfile.Profile()
    profiler.enable()
    work()
    profiler.disable()
    pstats.Stats(profiler).strip_dirs().sort_stats("cumulative").print_stats(15)


def main() -> int:
    global EXPORT_ACTIONS, LONG_ACTIONS, LONGEST_ACTIONS, REPEATS
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--profile", action="store_true", help="profile dispatch and resume at the biggest size")
    parser.add_argument("--dir", type=Path, default=None, help="folder for the temporary files (default: system temp)")
    parser.add_argument("--quick", action="store_true", help="fewer repeats and shorter long sessions (a smoke run)")
    parser.add_argument(
        "--memory-child", nargs=5, metavar=("KIND", "COMBATANTS", "ACTIONS", "FOLDER", "WHAT"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.memory_child:
        kind, combatants, actions, folder, what = args.memory_child
        memory_child(kind, int(combatants), int(actions), folder, trace=what == "held")
        return 0
    if args.quick:
        LONG_ACTIONS, REPEATS, LONGEST_ACTIONS, EXPORT_ACTIONS = 2_000, 2, 5_000, 2_000

    root = Path(tempfile.mkdtemp(prefix="tui-combat-bench-", dir=args.dir))
    started = time.perf_counter()
    try:
        print(
            f"tui-combat action benchmark — Python {sys.version.split()[0]}, "
            f"msgspec {msgspec.__version__}, files in {root}"
        )
        print(
            f"a snapshot every {store_module.SNAPSHOT_EVERY} journal "
            f"entries, history blocks of {store_module.BLOCK_SIZE} actions"
        )
        print(
            "\nper action, each repeat paired with its own baseline "
            "(msgspec encode + os.write + os.fsync of one entry):"
        )
        print(
            f"{'combatants':>10} {'baseline µs':>12} {'dispatch µs':>12} {'× baseline':>11} {'append-only µs':>15} "
            f"{'with snapshot ms':>17} {'apply µs':>9}"
        )
        biggest: Store | None = None
        for size in SIZES:
            row, store = per_action(root, size)
            print(
                f"{size:>10,} {row.baseline_us:12.1f} {row.dispatch_us:12.1f} {row.ratio:11.2f} {row.plain_us:15.1f} "
                f"{row.snapshot_ms:13.2f} ({row.snapshots}) {row.apply_us:9.1f}"
            )
            if size == SIZES[-1]:
                biggest = store
            else:
                store.close()
        print("(dispatch: the mean over every action, snapshots included; (n): how many actions wrote one)")

        assert biggest is not None
        median, slowest, first, baseline = undo_costs(biggest, root)
        print(f"\nundo at {SIZES[-1]:,} combatants (paired baseline {baseline * 1e6:.1f} µs):")
        print(f"  median of {UNDOS} undos:        {median * 1e6:10.1f} µs  ({median / baseline:.2f} × baseline)")
        print(f"  slowest (reopens a block):   {slowest * 1e6:10.1f} µs  ({slowest / baseline:.2f} × baseline)")
        print(f"  first undo after a resume:   {first * 1e6:10.1f} µs  ({first / baseline:.2f} × baseline)")

        for size in RESUME_SIZES:
            folder = root / f"long-{size}"
            long_session(folder, size, LONG_ACTIONS + RESUME_TAIL).close()
            resume, read, lines = resume_costs(folder)
            print(
                f"\nresume of a {LONG_ACTIONS + RESUME_TAIL:,}-action session at "
                f"{size:,} combatants ({lines} journal lines after its snapshot):"
            )
            print(f"  baseline read + msgspec decode of snapshot and journal: {read * 1e3:8.1f} ms")
            print(
                f"  Store.resume:                                          "
                f" {resume * 1e3:8.1f} ms  ({resume / read:.2f} × baseline)"
            )
            print(f"  of which the rules applying the {lines} actions:           {replay_cost(folder) * 1e3:8.1f} ms")

        size = SIZES[-1]
        bare_peak, bare_held = memory_mib("fight", size, 0, root / "unused")
        played_peak, played_held = memory_mib("store", size, LONG_ACTIONS, root / "memory")
        reopened_peak, reopened_held = memory_mib("resume", size, 0, root / "memory")
        print(f"\nmemory at {size:,} combatants (a fresh process each; held = allocated by Python and still alive):")
        print(f"  {'':44} {'peak RSS MiB':>12} {'held MiB':>9}")
        print(f"  {'the fight built, no store':44} {bare_peak:12.1f} {bare_held:9.1f}")
        print(
            f"  {f'the fight after {LONG_ACTIONS:,} actions through a store':44} {played_peak:12.1f} {played_held:9.1f}"
        )
        print(f"  {'that session resumed from disk, one undo':44} {reopened_peak:12.1f} {reopened_held:9.1f}")
        disk = sum(path.stat().st_size for path in (root / "memory").rglob("*") if path.is_file())
        print(f"  the session on disk: {disk / 1e6:.1f} MB")

        folder = root / "export"
        long_session(folder, size, EXPORT_ACTIONS).close()
        export, read = export_costs(folder)
        print(
            f"\nexport of {EXPORT_ACTIONS:,} actions at {size:,} "
            f"combatants (the whole report, as tui-combat export makes it):"
        )
        print(f"  baseline read + msgspec decode of the snapshot, journal and every action: {read * 1e3:8.1f} ms")
        print(
            f"  export:                                                      "
            f"       {export * 1e3:8.1f} ms  ({export / read:.2f} × baseline)"
        )
        shutil.rmtree(folder, ignore_errors=True)

        folder = root / "longest"
        empty = root / "empty"
        Store.create(fight(size), empty).close()
        long_peak, _held = memory_mib("store", size, LONGEST_ACTIONS, folder, held=False)
        first, last = (empty / SNAPSHOT).stat().st_size, (folder / SNAPSHOT).stat().st_size
        whole = folder_bytes(folder)
        print(f"\na fight of {LONGEST_ACTIONS:,} actions at {size:,} combatants:")
        print(f"  snapshot before the first action: {first / 1e6:8.2f} MB")
        print(f"  snapshot after the last one:      {last / 1e6:8.2f} MB  ({last / first:.2f} × the first)")
        print(
            f"  the session folder:               {whole / 1e6:8.1f} MB  "
            f"({(whole - folder_bytes(empty)) / LONGEST_ACTIONS:.0f} B per action)"
        )
        print(
            f"  peak RSS of the process that played them: {long_peak:.1f} MiB "
            f"(one that only built the fight: {bare_peak:.1f} MiB)"
        )

        if args.profile:
            big = Store.create(fight(size), root / "profile")
            stream = action_stream(big.state, 500, random.Random(1))
            profile(f"500 dispatches at {size:,} combatants", lambda: play(big, stream))
            big.close()
            profile("Store.resume", lambda: Store.resume(root / "memory").close())
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print(f"\ntotal bench time {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
