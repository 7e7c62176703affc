"""What a language costs at start-up: the app started in Russian and in Ukrainian against the same app in
English, measured in the same run.

Each start is a fresh process (headless, 80×24) that draws its first screen and exits; the whole process
is timed, interpreter start included, median of several runs, interleaved so that machine noise hits
every language alike. The catalog cache is warm (as on every start but the first after an install or an
edit of a catalog); the first, cold start, which compiles the ``.po``, is timed on its own, and so is
loading a catalog in-process (cache hit, and compiling from the ``.po``). Prints the ratios.

    .venv/bin/python bench/bench_i18n.py [runs]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

APP = """
import sys
from pathlib import Path
from tui_combat.i18n import set_language
set_language(sys.argv[2])
from tui_combat.app import CombatApp

async def first_frame(pilot):
    await pilot.pause()
    pilot.app.exit()

CombatApp(Path(sys.argv[1]), seed=1).run(headless=True, size=(80, 24), auto_pilot=first_frame)
"""

LOAD = """
import sys, time
start = time.perf_counter()
from tui_combat.i18n import set_language
set_language(sys.argv[1])
print(time.perf_counter() - start)
"""


def run(code: str, *args: str, env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, *args], check=True, capture_output=True, env=env)
    return time.perf_counter() - start


def load_time(language: str, env: dict[str, str]) -> float:
    out = subprocess.run([sys.executable, "-c", LOAD, language], check=True, capture_output=True, text=True, env=env)
    return float(out.stdout)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    languages = ("en", "ru", "uk")
    with tempfile.TemporaryDirectory() as data, tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "TUI_COMBAT_CACHE_DIR": cache, "TUI_COMBAT_CONFIG_DIR": str(Path(cache) / "config")}
        cold = {lang: load_time(lang, env) for lang in ("ru", "uk")}  # the first load compiles into the empty cache
        warm = {lang: statistics.median(load_time(lang, env) for _ in range(runs)) for lang in ("en", "ru", "uk")}
        for lang in languages:  # warm the file cache for every language
            run(APP, data, lang, env=env)
        times: dict[str, list[float]] = {lang: [] for lang in languages}
        for _ in range(runs):
            for lang in languages:
                times[lang].append(run(APP, data, lang, env=env))
    medians = {lang: statistics.median(values) for lang, values in times.items()}
    print(f"start to first frame, median of {runs} (warm catalog cache):")
    for lang in languages:
        print(f"  {lang}: {medians[lang] * 1000:7.1f} ms   ×{medians[lang] / medians['en']:.3f} of English")
    print("loading the catalog in-process (import of tui_combat.i18n + set_language):")
    for lang in languages:
        extra = f"   first load, compiling the .po: {cold[lang] * 1000:.1f} ms" if lang in cold else ""
        print(f"  {lang}: {warm[lang] * 1000:7.2f} ms{extra}")


if __name__ == "__main__":
    main()
