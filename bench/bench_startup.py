"""Start to the session list: tui-combat against a bare Textual app, in a real pseudo-terminal, same run.

Run:  .venv/bin/python bench/bench_startup.py  [--starts N] [--fights N] [--dir DIR]

``python -m tui_combat --data-dir DIR`` is started in an 80×24 pseudo-terminal (as ``bench_terminal.py``
does, with no settings file of the GM's: an empty config folder), timed from ``fork`` to the end of the
first frame that shows the session list, and to the last byte before the screen is quiet:

* with an empty data folder, against the bare app's start measured the same way (``start ≤ 1.15× bare``);
* with 500 saved fights (the five demos in turn, some in set-up, some in a round, some with actions after
  their last snapshot), once the session index is written, against the empty list measured alternately
  with it (``500 saved fights ≤ 1.1× an empty list``); and once with no index (the first start after an
  upgrade, or after the index was lost), for information.

Medians of the starts; starts alternate, so that machine noise weighs on all alike.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_terminal import ROOT, bare, compile_bytecode, environment, start_time

STARTS = 9
FIGHTS = 500
LIST_MARKER = b"Ruleset"
"""In the session list's header row (the interface is in English: no settings file, LANGUAGE=en)."""
BARE_MARKER = b"turn 0"

BUILD = """
import random, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
import msgspec
from tui_combat.fight import session
from tui_combat.engine import actions as a
from tui_combat.engine.encounter import ENCOUNTER_DIR, load_encounter, localized
from tui_combat.engine.errors import RuleError
from tui_combat.saves.locations import sessions_dir
from tui_combat.fight.store import store_from_encounter
sys.path.insert(0, str(Path(sys.argv[1]) / "bench"))
from bench_actions import without_fsync

root, count = Path(sys.argv[2]), int(sys.argv[3])
encounters = [localized(load_encounter(ENCOUNTER_DIR / demo.file_name)) for demo in session.DEMOS]

def build():
    for number in range(count):
        encounter = msgspec.structs.replace(encounters[number % len(encounters)],
                                            name=f"{encounters[number % len(encounters)].name} {number + 1}")
        store = store_from_encounter(encounter, sessions_dir(root) / f"fight-{number + 1:03}", seed=number)
        if number % 3:  # two in three are in a round, some steps in
            for action in (a.BeginSurprise(), a.StartFight(), *[a.NextStep()] * (number % 4)):
                try:
                    store.dispatch(action)
                except RuleError:
                    pass
        if number % 7:  # one in seven has actions after its last snapshot, as after a crash
            store.save_now()
        store.close()

without_fsync(build)
"""


def ours(data: Path) -> list[str]:
    return [sys.executable, "-m", "tui_combat", "--data-dir", str(data)]


def build_fights(root: Path, count: int) -> None:
    subprocess.run([sys.executable, "-c", BUILD, str(ROOT), str(root), str(count)], check=True)


def measure(env: dict[str, str], starts: int, fights: int, base: Path) -> None:
    """Print the start of each kind, its medians and ratios (the figures of README's performance table);
    the data folders and an empty config folder are made in ``base``."""
    empty, full, config = base / "empty", base / "full", base / "config"
    empty.mkdir()
    config.mkdir()
    env = {**env, "TUI_COMBAT_CONFIG_DIR": str(config), "LANGUAGE": "en"}
    build_fights(full, fights)
    from tui_combat.saves.index import INDEX_FILE

    index = full / INDEX_FILE
    cold = start_time(ours(full), LIST_MARKER, env)  # no index yet: every session read, the index written
    if not index.exists():
        raise RuntimeError("the first start did not write the session index")
    start_time(bare(), BARE_MARKER, env)  # warm-ups: the file cache
    start_time(ours(empty), LIST_MARKER, env)
    times: dict[str, list[tuple[float, float]]] = {"bare": [], "empty": [], "full": []}
    for _ in range(starts):
        times["bare"].append(start_time(bare(), BARE_MARKER, env))
        times["empty"].append(start_time(ours(empty), LIST_MARKER, env))
        times["full"].append(start_time(ours(full), LIST_MARKER, env))

    def median(kind: str, index: int) -> float:
        return statistics.median(pair[index] for pair in times[kind])

    for what, at in (("first frame", 0), ("quiet screen", 1)):
        b, e, f = median("bare", at), median("empty", at), median("full", at)
        print(
            f"  start to the {what} (medians of {starts}): bare app {b * 1e3:.0f} ms, empty session list "
            f"{e * 1e3:.0f} ms, {fights} saved fights {f * 1e3:.0f} ms"
        )
        print(f"    start → session list: {e / b:.2f}× bare{' (target ≤ 1.15×)' if not at else ''}")
        print(
            f"    session list with {fights} saved fights: {f / e:.2f}× the empty list"
            f"{' (target ≤ 1.1×)' if not at else ''}, {f / b:.2f}× bare"
        )
    print(
        f"  the first start with {fights} saved fights and no index yet: {cold[0] * 1e3:.0f} ms to the first "
        f"frame ({cold[0] / median('empty', 0):.1f}× the empty list; it writes the index)"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--starts", type=int, default=STARTS, help=f"starts of each kind (default {STARTS})")
    parser.add_argument("--fights", type=int, default=FIGHTS, help=f"saved fights in the full list (default {FIGHTS})")
    parser.add_argument("--dir", type=Path, default=None, help="folder for the data (default: system temp)")
    args = parser.parse_args()
    base = Path(tempfile.mkdtemp(prefix="tui-combat-startup-", dir=args.dir))
    began = time.perf_counter()
    compile_bytecode()
    print("start to the session list in a pseudo-terminal, against a bare Textual app in the same run:")
    try:
        measure(environment(), args.starts, args.fights, base)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"total bench time {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
