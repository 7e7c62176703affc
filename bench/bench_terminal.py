"""The app as a GM sees it: a real pseudo-terminal of 80×24, keys written to it, frames read back.

Run:  .venv/bin/python bench/bench_terminal.py  [--quick] [--keys N] [--starts N] [--dir DIR] [--frame [KEYS]]
      [--size N] [--no-start]
      [--table [--shapes '2 slots,10 slots'] [--sizes 200,2000,10000,mass] [--view-only]]

Every figure is paired with a bare Textual app (a header, a line of text that changes on a key, a
footer) measured in the same run, in the same kind of terminal: it runs beside ours, and each timed key of
ours is followed by one of its own (its starts alternate with ours):

* Next turn at 200, 2,000 and 10,000 combatants, and in a mass battle of 200 groups of 10 (no group folded:
  a row for each): ``python -m tui_combat resume NAME`` on a session built with the engine first (the fight
  of ``bench_actions.py``: AD&D 2e, two sides, the resolve step of round 1). Keys ``n`` (next slot) and
  ``b`` (back) are written in turn; for each, the time from writing the key to the last byte of the frame
  it caused (the output is read until it has been quiet for a while), and the bytes written. The bare app's
  ``n`` right after each of them is the "bare key" of its ratio.
* The round's steps at 200, 2,000 and 10,000 combatants, on the same sessions: from the last slot of round 1,
  ``n`` ends the resolve step, starts round 2 (the monsters' declarations), goes on to the players'
  declarations and to the initiative step, and ``r`` rolls initiative (the new order); each timed against
  the bare app's ``n`` after it, then undone (``u``, untimed) to round 1's first slot for the next time.
* Damage at 2,000 combatants: ``d`` opens the form (timed), ``3`` is typed, Enter applies it (timed), ``u``
  undoes it (timed), ``?`` opens the help and Esc closes it (timed), ``a`` opens the attack form of the one
  acting and Esc closes it (timed); each against the bare app's ``n`` after it, Esc against the bare app's
  Esc (both wait Textual's ESCDELAY for a sequence that does not come).
  On a session nobody has acted in yet, the keys that change the footer: Enter of the first damage (Undo
  comes into it) and ``u`` undoing it (Undo leaves).
* The players' view at 200 and 2,000 combatants: ``tui-combat view`` in a pseudo-terminal while this process
  saves the GM's actions into the session; from each action saved to the last byte of the view's frame.
* Start: the same command from ``fork`` to the end of the first frame that shows the round screen (a frame
  is a burst of output; Textual writes one at once), and to the last byte before the screen is quiet, on
  the 2,000-combatant session after 10,000 actions; against the bare app's start measured the same way.
* Peak memory: the app's peak RSS (``VmHWM``) after that resume and the keys, next to the bare app's.
* ``--table``: every key above, in two shapes of fight at 200, 2,000, 10,000 and in the mass battle: the 2-slot
  fight above, and individual initiative (AD&D, ten slots, a turn list taller than the screen, 200 damage/heal/
  next/back actions played before the app resumes it); ``n`` right after a dialog closed too; each key against
  the bare app's key after it; then the players' view after a next turn and after a damage at 2,000 and 10,000.
  ``--shapes`` and ``--sizes`` pick some of them; ``--view-only`` times only the players' view.
* ``--frame [KEYS]``: what each key (one next turn by default) writes at 200 combatants (``--size N``: at N),
  piece by piece (where the cursor went, how many bytes, the text), to see which parts of the screen a key
  redraws and what they cost; ``--frame 'd3\r'`` shows the damage form opened, typed into and applied.
* The GM's own settings (language, keys) are left out: the app runs with an empty settings folder.

The app's bytecode is compiled first (``compileall``), as an installed copy has it, so that no module is
compiled again at each start of ours when ``PYTHONDONTWRITEBYTECODE`` is set.

Prints medians, and ratios to the bare app. Quiet is detected with a gap (``QUIET``): the times are
taken at the last byte read, never at the end of the gap.
"""

from __future__ import annotations

import argparse
import atexit
import errno
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

COLUMNS, LINES = 80, 24
QUIET = 0.25
"""Seconds without output after which a frame counts as finished."""
FRAME_GAP = 0.008
"""Seconds without output that end one frame of a burst (Textual writes a frame at once)."""
TIMEOUT = 60.0
SIZES = (200, 2_000, 10_000)
MASS = (2_006, 10)
"""The mass battle: a party of 6 and 2,000 orcs in groups of 10."""
DAMAGE_AT = 2_000
LONG_ACTIONS = 10_000
STARTS = 15
KEYS = 24

BARE = """
from textual.app import App
from textual.binding import Binding
from textual.widgets import Footer, Header, Static


class Bare(App[None]):
    BINDINGS = [Binding("n", "step(1)", "Next"), Binding("b", "step(-1)", "Back"), Binding("ctrl+q", "quit", "Quit"),
                Binding("escape", "step(1)", "Next", show=False)]

    def compose(self):
        self.count = 0
        yield Header()
        yield Static("turn 0", id="turn")
        yield Footer()

    def action_step(self, by: int) -> None:
        self.count += by
        self.query_one("#turn", Static).update(f"turn {self.count}")


Bare().run()
"""


# -- a program in a pseudo-terminal -------------------------------------------------------------------
class Terminal:
    """``argv`` in a pseudo-terminal of 80×24 whose output is read as it comes, with the time of each read."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.started = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:  # the child becomes the program
            try:
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
        self.output = bytearray()
        self.last_byte_at = self.started
        self.chunks: list[tuple[float, int]] = []
        """(time read, output length after it) of every read."""
        self.closed = False

    def _read_once(self, wait: float) -> bool:
        """Read what is there (waiting up to ``wait``); False when nothing came."""
        ready, _w, _x = select.select([self.fd], [], [], wait)
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 1 << 16)
        except OSError as error:
            if error.errno == errno.EIO:  # the program has gone
                self.closed = True
                return False
            raise
        if not chunk:
            self.closed = True
            return False
        self.last_byte_at = time.perf_counter()
        self.output += chunk
        self.chunks.append((self.last_byte_at, len(self.output)))
        return True

    def first_frame_end(self, marker: bytes) -> float:
        """When the first frame showing ``marker`` was written out: the last read of the burst of output that
        brought ``marker`` (a burst ends at a gap of FRAME_GAP without output)."""
        where = self.output.find(marker)
        index = next(i for i, (_at, length) in enumerate(self.chunks) if length > where)
        while index + 1 < len(self.chunks) and self.chunks[index + 1][0] - self.chunks[index][0] < FRAME_GAP:
            index += 1
        return self.chunks[index][0]

    def until_quiet(self, since: int, marker: bytes = b"") -> None:
        """Read until something (containing ``marker``) came after offset ``since`` and then nothing for QUIET."""
        deadline = time.perf_counter() + TIMEOUT
        while True:
            came = self._read_once(QUIET)
            if not came and len(self.output) > since and marker in self.output[since:]:
                return
            if self.closed or time.perf_counter() > deadline:
                tail = bytes(self.output[since:])[-400:]
                raise RuntimeError(f"no settled frame (marker {marker!r}); the program wrote: {tail!r}")

    def key(self, key: bytes) -> tuple[float, int]:
        """Write ``key``; (seconds to the last byte of the resulting frame, bytes written in reply)."""
        self.drain()
        since = len(self.output)
        sent = time.perf_counter()
        os.write(self.fd, key)
        self.until_quiet(since)
        return self.last_byte_at - sent, len(self.output) - since

    def drain(self) -> None:
        while self._read_once(0):
            pass

    def peak_rss_mib(self) -> float:
        """The program's peak resident memory so far (``VmHWM``: reset by ``exec``, unlike ``ru_maxrss``)."""
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def close(self) -> None:
        try:
            os.write(self.fd, b"\x11")  # ctrl+q
            deadline = time.perf_counter() + 10
            while not self.closed and time.perf_counter() < deadline:
                self._read_once(0.1)
        except OSError:
            pass
        if os.waitpid(self.pid, os.WNOHANG)[0] == 0:
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def environment() -> dict[str, str]:
    """The terminal's, and the app's defaults: no Textual switches, an empty config folder (no settings file
    of the machine's GM: its keymap, theme or language would change what is measured, and the markers looked
    for), English whatever the locale of whoever runs it."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("TEXTUAL") and key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")
    }
    config = tempfile.mkdtemp(prefix="tui-combat-bench-config-")
    atexit.register(shutil.rmtree, config, ignore_errors=True)
    env.update(
        TERM="xterm-256color",
        COLORTERM="truecolor",
        COLUMNS=str(COLUMNS),
        LINES=str(LINES),
        LANG="C.UTF-8",
        TUI_COMBAT_CONFIG_DIR=config,
        LANGUAGE="en",
    )
    return env


def compile_bytecode() -> None:
    """Bytecode for every module of the app, as an installed copy has it: a module edited since it was last
    compiled is otherwise compiled again at every start when ``PYTHONDONTWRITEBYTECODE`` is set (as it may
    be in a development shell), which the bare app never pays. ``compileall`` writes it whatever that says."""
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "tui_combat")], check=True, stdout=subprocess.DEVNULL
    )


def ours(data: Path, key: str) -> list[str]:
    return [sys.executable, "-m", "tui_combat", "--data-dir", str(data), "resume", key]


def bare() -> list[str]:
    return [sys.executable, "-c", BARE]


# -- the sessions, built with the engine --------------------------------------------------------------
def build(data: Path, combatants: int, actions: int, group: int = 500, tag: str = "", individual: bool = False) -> str:
    """A saved session of ``combatants`` (the monsters in groups of ``group``) in the resolve step after
    ``actions`` actions (in a subprocess, so that this process stays small); returns its key. ``individual``:
    initiative by each combatant or group, ten slots (see ``bench_actions.fight``)."""
    key = f"bench-{combatants}-{actions}-{group}{tag}{'-individual' if individual else ''}"
    code = (
        "import sys; from pathlib import Path; sys.path.insert(0, sys.argv[1]); sys.path.insert(0, sys.argv[2])\n"
        "import bench_actions as b\n"
        "store = b.long_session(Path(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]),\n"
        "                       sys.argv[7] == '1')\n"
        "assert store.state.phase == 'round' and store.state.order, store.state.phase\n"
        "store.close()\n"
    )
    folder = data / "sessions" / key
    subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            str(ROOT),
            str(ROOT / "bench"),
            str(folder),
            str(combatants),
            str(actions),
            str(group),
            "1" if individual else "0",
        ],
        check=True,
    )
    return key


SHAPES = {
    "2 slots": {"actions": 0, "individual": False},
    "10 slots": {"actions": 200, "individual": True},
}
"""The two shapes of fight every key of the README's table is timed in: one initiative roll per side (two slots,
no action played yet), and initiative by each combatant or group of monsters (AD&D's individual initiative: ten
slots, a list taller than the screen, 200 damage/heal/next/back actions already played)."""
TABLE_SIZES = {"200": (200, 500), "2000": (2_000, 500), "10000": (10_000, 500), "mass": (MASS[0], MASS[1])}
"""The fights of the table: (combatants, monsters per group); at 200, individual initiative puts each orc on his
own (group 1)."""
TABLE_KEYS = (
    (b"n", "n next turn", True, b"n"),
    (b"b", "b back", True, b"n"),
    (b"d", "d opens the damage prompt", True, b"n"),
    (b"3", "", False, b""),
    (b"\r", "Enter applies it", True, b"n"),
    (b"u", "u undoes it", True, b"n"),
    (b"?", "? opens the help", True, b"n"),
    (b"\x1b", "Esc closes it (vs the bare Esc)", True, b"\x1b"),
    (b"n", "n right after a dialog closed", True, b"n"),
    (b"b", "", False, b""),
    (b"a", "a opens the attack form", True, b"n"),
    (b"\x1b", "Esc closes the attack form (vs the bare Esc)", True, b"\x1b"),
    (b"n", "n right after a dialog closed", True, b"n"),
    (b"b", "", False, b""),
)
"""One turn of the table's keys: (key, what it is called, timed, the bare app's key after it)."""


def press_table(argv: list[str], marker: bytes, count: int, env: dict[str, str], beside: Beside) -> dict[str, Paired]:
    """Start ``argv``, wait for its first frame, then ``count`` times (after one warm-up) the keys of
    :data:`TABLE_KEYS`, each timed one paired with a key of the bare app ``beside``. Returns them by name."""
    terminal = Terminal(argv, env)
    try:
        terminal.until_quiet(0, marker)
        timed: dict[str, Paired] = {}
        for number in range(count + 1):
            for key, what, measured, bare_key in TABLE_KEYS:
                took, size = terminal.key(key)
                if measured and number >= 1:
                    timed.setdefault(what, Paired()).add(took, size, beside, bare_key)
        return timed
    finally:
        terminal.close()


def table(
    data: Path,
    env: dict[str, str],
    count: int,
    shapes: list[str],
    sizes: list[str],
    view_count: int,
    *,
    view_only: bool = False,
) -> None:
    """Every key of the README's table in each fight shape and size, as ms, × the bare key, bytes; then the
    players' view after a next turn and after a damage at 2,000 and 10,000 (``view_only``: only the view)."""
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for shape in shapes:
        options = SHAPES[shape]
        sessions = {}
        for label in sizes:
            combatants, group = TABLE_SIZES[label]
            if options["individual"] and label == "200":
                group = 1
            sessions[label] = build(
                data, combatants, int(options["actions"]), group, individual=bool(options["individual"])
            )
        print(f"\n{shape}:")
        if not view_only:
            table_keys(data, env, count, sizes, sessions)
        for label in sizes:
            if label not in ("2000", "10000"):
                continue
            for kind in ("next", "damage"):
                measured = view_updates(data, sessions[label], view_count, env, kind)
                print(
                    f"  the players' view at {label}, after a {kind}: {measured.ms:.1f} ms, {measured.size:.0f} bytes"
                )
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


def table_keys(data: Path, env: dict[str, str], count: int, sizes: list[str], sessions: dict[str, str]) -> None:
    """The keys of the README's table at each size, as ms, × the bare key, bytes."""
    print(f"{count} of each key, medians: ms, × the bare key beside it, bytes")
    results = {}
    beside = Beside(env)
    try:
        for label in sizes:
            results[label] = press_table(ours(data, sessions[label]), ROUND_MARKER, count, env, beside)
    finally:
        beside.close()
    names = [what for _key, what, measured, _bare in TABLE_KEYS if measured]
    print(f"{'':46}" + "".join(f"{label:>24}" for label in sizes))
    for what in dict.fromkeys(names):
        cells = "".join(
            f"{f'{paired.ours.ms:.1f} {paired.ratio:.2f}× {paired.ours.size:.0f}B':>24}"
            for paired in (results[label][what] for label in sizes)
        )
        print(f"{what:46}{cells}")


# -- measuring ----------------------------------------------------------------------------------------
@dataclass
class Keys:
    times: list[float] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)

    def add(self, took: float, size: int) -> None:
        self.times.append(took)
        self.sizes.append(size)

    @property
    def ms(self) -> float:
        return statistics.median(self.times) * 1e3

    @property
    def size(self) -> float:
        return statistics.median(self.sizes)


ROUND_MARKER = b"Round"


class Beside:
    """The bare app, running beside ours all through a measure: right after each timed key of ours it is
    given a key of its own (``n``; Esc after an Esc), and each of ours is set against those. The machine's
    pace drifts over tens of seconds (by a third, seen here), so a bare key measured in a run of its own,
    before or after ours, gave ratios that a rerun did not."""

    def __init__(self, env: dict[str, str]) -> None:
        self.terminal = Terminal(bare(), env)
        self.terminal.until_quiet(0, b"turn 0")
        self.terminal.key(b"n")  # a warm-up

    def answer(self, into: Keys, key: bytes = b"n") -> None:
        into.add(*self.terminal.key(key))

    def close(self) -> None:
        self.terminal.close()


@dataclass
class Paired:
    """A key of ours, and the bare app's keys given right after each of it."""

    ours: Keys = field(default_factory=Keys)
    bare: Keys = field(default_factory=Keys)

    def add(self, took: float, size: int, beside: Beside, key: bytes = b"n") -> None:
        self.ours.add(took, size)
        beside.answer(self.bare, key)

    @property
    def ratio(self) -> float:
        return self.ours.ms / self.bare.ms


def press_keys(
    argv: list[str], marker: bytes, count: int, env: dict[str, str], beside: Beside
) -> tuple[Paired, Paired, float]:
    """Start ``argv``, wait for its first frame, then write ``n`` and ``b`` in turn ``count`` times each
    (the first two of each are a warm-up), each paired with a key of the bare app ``beside``. Returns (n, b,
    peak RSS MiB)."""
    terminal = Terminal(argv, env)
    try:
        terminal.until_quiet(0, marker)
        forward, back = Paired(), Paired()
        for number in range(count + 2):
            for key, into in ((b"n", forward), (b"b", back)):
                took, size = terminal.key(key)
                if number >= 2:
                    into.add(took, size, beside)
        return forward, back, terminal.peak_rss_mib()
    finally:
        terminal.close()


ROUND_STEPS = (
    (b"n", "n ends the resolve step"),
    (b"n", "n starts round 2 (its declarations)"),
    (b"n", "n: the players' declarations"),
    (b"n", "n: the initiative step"),
    (b"r", "r rolls initiative (the new order)"),
)
"""The keys of a round's steps, from the last slot of round 1 to the order of round 2, and what each does."""


def press_steps(argv: list[str], marker: bytes, count: int, env: dict[str, str], beside: Beside) -> list[Paired]:
    """Start ``argv``, wait for its first frame, then ``count`` times (after one warm-up): ``n`` to the last slot,
    the keys of :data:`ROUND_STEPS` (each timed, paired with a key of the bare app ``beside``), and ``u`` until
    round 1's first slot again. Returns each step key's times, in the order of :data:`ROUND_STEPS`."""
    terminal = Terminal(argv, env)
    try:
        terminal.until_quiet(0, marker)
        timed = [Paired() for _ in ROUND_STEPS]
        for number in range(count + 1):
            terminal.key(b"n")
            for (key, _what), into in zip(ROUND_STEPS, timed):
                took, size = terminal.key(key)
                if number >= 1:
                    into.add(took, size, beside)
            for _ in range(len(ROUND_STEPS) + 1):
                terminal.key(b"u")
        return timed
    finally:
        terminal.close()


def press_damage(
    argv: list[str], marker: bytes, count: int, env: dict[str, str], beside: Beside
) -> dict[bytes, Paired]:
    """Start ``argv``, wait for its first frame, then ``count`` times (after one warm-up): ``d`` (the damage
    prompt opens), ``3``, Enter (it is applied), ``u`` (undone), each paired with a key of the bare app
    ``beside``. Returns each key's times and bytes, by key."""
    terminal = Terminal(argv, env)
    try:
        terminal.until_quiet(0, marker)
        timed = {key: Paired() for key in (b"d", b"3", b"\r", b"u")}
        for number in range(count + 1):
            for key, into in timed.items():
                took, size = terminal.key(key)
                if number >= 1:
                    into.add(took, size, beside)
        return timed
    finally:
        terminal.close()


def press_more(argv: list[str], marker: bytes, count: int, env: dict[str, str], beside: Beside) -> dict[str, Paired]:
    """Start ``argv``, wait for its first frame, then ``count`` times (after one warm-up): a damage applied
    (``d``, ``3``, Enter) and ``u`` undoing it (timed), ``?`` opening the help (timed) and Esc closing it
    (timed, against the bare app's own Esc: a lone Esc is a key only once Textual has waited to see that no
    escape sequence follows it, ESCDELAY, 100 ms by default), ``a`` opening the attack form of the one acting
    (a form over the round screen) and Esc closing it (timed). Returns the timed keys by name."""
    terminal = Terminal(argv, env)
    try:
        terminal.until_quiet(0, marker)
        timed = {
            "u undoes a damage": Paired(),
            "? opens the help": Paired(),
            "Esc closes it": Paired(),
            "a opens the attack form": Paired(),
            "Esc closes the attack form": Paired(),
        }
        for number in range(count + 1):
            terminal.key(b"d")
            terminal.key(b"3")
            terminal.key(b"\r")
            for (_name, into), key in zip(timed.items(), (b"u", b"?", b"\x1b", b"a", b"\x1b")):
                took, size = terminal.key(key)
                if number >= 1:
                    into.add(took, size, beside, key if key == b"\x1b" else b"n")
        return timed
    finally:
        terminal.close()


def view_updates(data: Path, key: str, count: int, env: dict[str, str], kind: str = "damage") -> Keys:
    """The players' view (``tui-combat view KEY``) in a pseudo-terminal while this process writes the GM's
    actions into the session (a damage, then its healing, on the first monster; ``kind`` "next": a next turn,
    then back): for each, the time from the action saved (the journal line fsynced) to the last byte of the
    view's frame, and the bytes it wrote. The first two are a warm-up."""
    from tui_combat.engine import actions as a
    from tui_combat.fight.store import Store

    terminal = Terminal([sys.executable, "-m", "tui_combat", "--data-dir", str(data), "view", key], env)
    store = Store.resume(data / "sessions" / key)
    try:
        terminal.until_quiet(0, b"Turn order")
        target = next(c.id for c in store.state.combatants if not store.state.side(c.side).is_party)
        updates = Keys()
        for number in range(2 * count + 2):
            terminal.drain()
            since = len(terminal.output)
            action: a.Action
            if kind == "next":
                action = a.NextStep() if number % 2 == 0 else a.PreviousStep()
            else:
                action = a.Damage(combatant=target, amount=1) if number % 2 == 0 else a.Heal(combatant=target, amount=1)
            store.dispatch(action)
            saved = time.perf_counter()
            terminal.until_quiet(since)
            if number >= 2:
                updates.add(terminal.last_byte_at - saved, len(terminal.output) - since)
        return updates
    finally:
        store.close()
        terminal.close()


def start_time(argv: list[str], marker: bytes, env: dict[str, str]) -> tuple[float, float]:
    """(to the end of the first frame showing ``marker``, to the last byte before the screen is quiet),
    each from ``fork``."""
    terminal = Terminal(argv, env)
    try:
        terminal.until_quiet(0, marker)
        return terminal.first_frame_end(marker) - terminal.started, terminal.last_byte_at - terminal.started
    finally:
        terminal.close()


CURSOR_MOVE = re.compile(rb"\x1b\[(\d+);(\d+)H")
STYLE_CODE = re.compile(rb"\x1b\[[0-9;]*m")


def frame_pieces(frame: bytes) -> list[tuple[int, int, int, str]]:
    """A frame cut where the cursor is moved: (row, column, bytes written there, the text without colour
    codes) for each piece that writes something."""
    pieces = []
    moves = list(CURSOR_MOVE.finditer(frame))
    for move, following in zip(moves, [*moves[1:], None]):
        body = frame[move.end() : following.start() if following else len(frame)]
        text = STYLE_CODE.sub(b"", body).decode(errors="replace").replace("\r\n", "")
        if text:
            pieces.append(
                (
                    int(move[1]),
                    int(move[2]),
                    following.start() - move.start() if following else len(frame) - move.start(),
                    text,
                )
            )
    return pieces


def show_frame(argv: list[str], marker: bytes, env: dict[str, str], keys: bytes) -> None:
    """Print what each of ``keys`` writes (after two ``n``/``b`` pairs, as the timed keys are warmed up)."""
    terminal = Terminal(argv, env)
    frames: list[tuple[bytes, float, bytes]] = []
    try:
        terminal.until_quiet(0, marker)
        for key in (b"n", b"b", b"n", b"b"):
            terminal.key(key)
        for key in keys:
            since = len(terminal.output)
            took, _size = terminal.key(bytes([key]))
            frames.append((bytes([key]), took, bytes(terminal.output[since:])))
    finally:
        terminal.close()
    for key, took, frame in frames:
        print(f"\n{key!r} writes {len(frame)} bytes in {took * 1e3:.1f} ms:")
        for row, column, length, text in frame_pieces(frame):
            print(f"  row {row:2} col {column:2}: {length:4} B  {text!r}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer keys and starts, a 1,000-action long session")
    parser.add_argument("--keys", type=int, default=KEYS, help=f"keys of each kind per size (default {KEYS})")
    parser.add_argument("--starts", type=int, default=STARTS, help=f"starts of each app (default {STARTS})")
    parser.add_argument("--dir", type=Path, default=None, help="folder for the sessions (default: system temp)")
    parser.add_argument(
        "--frame",
        nargs="?",
        const="n",
        default=None,
        metavar="KEYS",
        help="only show what each key (default n: one next turn) writes, piece by piece "
        "(\\r for Enter, \\e for Esc); with --size, at that many combatants",
    )
    parser.add_argument("--size", type=int, default=SIZES[0], help="combatants for --frame (default %(default)s)")
    parser.add_argument("--no-start", action="store_true", help="only the keys: no starts, no long session")
    parser.add_argument(
        "--table",
        action="store_true",
        help="only the keys of the README's table, in both fight shapes (2 and 10 slots) at every "
        "size, and the players' view after a next turn and after a damage",
    )
    parser.add_argument("--shapes", default=",".join(SHAPES), help="with --table: which shapes (default: both)")
    parser.add_argument("--sizes", default=",".join(TABLE_SIZES), help="with --table: which sizes (default: all)")
    parser.add_argument("--view-only", action="store_true", help="with --table: only the players' view")
    args = parser.parse_args()
    keys, starts, long_actions = (8, 3, 1_000) if args.quick else (args.keys, args.starts, LONG_ACTIONS)
    data = Path(tempfile.mkdtemp(prefix="tui-combat-terminal-", dir=args.dir))
    env = environment()
    began = time.perf_counter()
    compile_bytecode()
    try:
        print(
            f"tui-combat in a pseudo-terminal of {COLUMNS}×{LINES}, against a bare Textual app in the same run; "
            f"a frame ends after {QUIET * 1000:.0f} ms of quiet"
        )
        if args.table:
            shapes, sizes = args.shapes.split(","), args.sizes.split(",")
            table(data, env, keys, shapes, sizes, max(keys // 2, 3), view_only=args.view_only)
            return 0
        if args.frame is not None:
            keys = args.frame.replace("\\r", "\r").replace("\\e", "\x1b").encode()
            individual = args.shapes == "10 slots"  # the frame in the fight of ten slots
            session = build(
                data,
                args.size,
                200 if individual else 0,
                1 if individual and args.size <= 200 else 500,
                individual=individual,
            )
            show_frame(ours(data, session), ROUND_MARKER, env, keys)
            return 0
        sessions = {f"{size:,} combatants": build(data, size, 0) for size in SIZES}
        sessions["mass battle, 200 groups of 10"] = build(data, MASS[0], 0, MASS[1])

        print(
            f"\nkeys n (next slot) and b (back), {keys} of each, medians; each key of ours is followed by one of the "
            f"bare app, running beside it:"
        )
        print(
            f"{'':28} {'n ms':>8} {'b ms':>8} {'n bytes':>8} {'b bytes':>8} {'bare ms':>8} {'× bare ms':>10} "
            f"{'× bare bytes':>13}"
        )
        beside = Beside(env)
        try:
            for label, key in sessions.items():
                forward, back, _rss = press_keys(ours(data, key), ROUND_MARKER, keys, env, beside)
                print(
                    f"{label:28} {forward.ours.ms:8.1f} {back.ours.ms:8.1f} {forward.ours.size:8.0f} "
                    f"{back.ours.size:8.0f} {forward.bare.ms:8.1f} {forward.ratio:10.2f} "
                    f"{forward.ours.size / forward.bare.size:13.1f}"
                )
            bare_rss = beside.terminal.peak_rss_mib()

            steps = max(keys // 2, 3)
            print(
                f"\nthe round's steps, from the last slot of round 1 to round 2's order, {steps} of each, medians; "
                f"ms, and × the bare key after each:"
            )
            print(f"{'':38}" + "".join(f"{f'{size:,} combatants':>22}" for size in SIZES))
            by_size = [
                press_steps(ours(data, sessions[f"{size:,} combatants"]), ROUND_MARKER, steps, env, beside)
                for size in SIZES
            ]
            for index, (_key, what) in enumerate(ROUND_STEPS):
                print(
                    f"{what:38}"
                    + "".join(f"{f'{timed[index].ours.ms:.1f} ms {timed[index].ratio:.2f}×':>22}" for timed in by_size)
                )

            print(
                f"\ndamage at {DAMAGE_AT:,} combatants, {keys} of each, medians (target: each ≤ 3× the bare key, "
                f"≤ 4 KB):"
            )
            damage_key = sessions.get(f"{DAMAGE_AT:,} combatants") or build(data, DAMAGE_AT, 0)
            damage = press_damage(ours(data, damage_key), ROUND_MARKER, keys, env, beside)
            fresh = build(data, DAMAGE_AT, 0, tag="-fresh")  # a session nobody has acted in yet
            first = press_damage(ours(data, fresh), ROUND_MARKER, keys, env, beside)  # each Enter the first action
            more = press_more(ours(data, damage_key), ROUND_MARKER, keys, env, beside)
        finally:
            beside.close()
        rows = {
            "d opens the prompt": damage[b"d"],
            "Enter applies it": damage[b"\r"],
            "Enter of the first action (Undo lit in the footer)": first[b"\r"],
            "u undoing it (Undo dimmed again)": first[b"u"],
            **more,
        }
        for what, measured in rows.items():
            which = "the bare app's Esc" if what.startswith("Esc") else "the bare key"
            print(
                f"  {what}: {measured.ours.ms:.1f} ms, {measured.ours.size:.0f} bytes: {measured.ratio:.2f}× {which} "
                f"({measured.bare.ms:.1f} ms)"
            )

        print(
            f"\nthe players' view (tui-combat view), the GM's action saved → the view's frame, {keys} of each, medians "
            f"(target: ≤ 50 ms, ≤ 2 KB at 2,000):"
        )
        for size in SIZES[:2]:
            measured = view_updates(data, sessions[f"{size:,} combatants"], keys // 2, env)
            print(f"  {size:,} combatants: {measured.ms:.1f} ms, {measured.size:.0f} bytes")
        if args.no_start:
            return 0
        long_key = build(data, SIZES[1], long_actions)

        print(f"\nthe {SIZES[1]:,}-combatant session after {long_actions:,} actions:")
        ours_starts, bare_starts = [], []
        start_time(bare(), b"turn 0", env)  # warm-ups: the file cache
        start_time(ours(data, long_key), ROUND_MARKER, env)
        for _ in range(starts):  # alternated, so that machine noise weighs on both
            bare_starts.append(start_time(bare(), b"turn 0", env))
            ours_starts.append(start_time(ours(data, long_key), ROUND_MARKER, env))
        for what, index in (("first frame", 0), ("quiet screen", 1)):
            o = statistics.median(times[index] for times in ours_starts)
            b = statistics.median(times[index] for times in bare_starts)
            paired = sorted(mine[index] / theirs[index] for mine, theirs in zip(ours_starts, bare_starts))
            print(
                f"  start to the {what}: bare app {b * 1e3:.0f} ms, resume to the round screen {o * 1e3:.0f} ms: "
                f"{o / b:.2f}×{' (target ≤ 1.5×)' if not index else ''} (medians of {starts}; each start against "
                f"the bare one before it: {paired[0]:.2f}–{paired[-1]:.2f}×)"
            )
        beside = Beside(env)
        try:
            forward, _back, rss = press_keys(ours(data, long_key), ROUND_MARKER, keys, env, beside)
        finally:
            beside.close()
        print(
            f"  next slot: {forward.ours.ms:.1f} ms, {forward.ours.size:.0f} bytes ({forward.ratio:.2f}× the bare key)"
        )
        print(
            f"  peak RSS after the resume and {2 * (keys + 2)} keys: {rss:.1f} MiB (bare app {bare_rss:.1f} MiB; "
            f"target ≤ 60 MB)"
        )

        from bench_startup import FIGHTS
        from bench_startup import measure as session_list_starts

        print(f"\nstart to the session list, empty and with {FIGHTS} saved fights:")
        session_list_starts(env, starts, FIGHTS, Path(tempfile.mkdtemp(dir=data)))
    finally:
        shutil.rmtree(data, ignore_errors=True)
    print(f"\ntotal bench time {time.perf_counter() - began:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
