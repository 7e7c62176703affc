"""Start to first frame: tui-combat against a bare Textual app, measured in the same run.

Each app runs in a fresh process (headless), draws its first screen, and exits; the whole process is
timed, interpreter start included, median of several runs. Prints the ratio ours / bare.

    .venv/bin/python bench/bench_startup.py [runs]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time

BARE = """
from textual.app import App
from textual.widgets import Footer, Header, Static

class Bare(App):
    def compose(self):
        yield Header()
        yield Static("hello")
        yield Footer()

async def first_frame(pilot):
    await pilot.pause()
    pilot.app.exit()

Bare().run(headless=True, size=(80, 24), auto_pilot=first_frame)
"""

OURS = """
import sys
from pathlib import Path
from tui_combat.app import CombatApp

async def first_frame(pilot):
    await pilot.pause()
    pilot.app.exit()

CombatApp(Path(sys.argv[1]), seed=1).run(headless=True, size=(80, 24), auto_pilot=first_frame)
"""


def time_process(code: str, *args: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, *args], check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    with tempfile.TemporaryDirectory() as data:
        time_process(BARE)  # warm the file cache for both
        time_process(OURS, data)
        bare, ours = [], []
        for _ in range(runs):  # interleaved, so that machine noise hits both alike
            bare.append(time_process(BARE))
            ours.append(time_process(OURS, data))
    b, o = statistics.median(bare), statistics.median(ours)
    print(f"bare Textual app : {b * 1000:7.1f} ms (median of {runs})")
    print(f"tui-combat       : {o * 1000:7.1f} ms")
    print(f"ratio            : {o / b:7.2f}x   (target <= 1.25x)")


if __name__ == "__main__":
    main()
