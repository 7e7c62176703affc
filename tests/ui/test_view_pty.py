"""``tui-combat view`` the way an SSH forced command runs it: its own session on a pseudo-terminal (the
controlling terminal), TERM set, no arguments from the player (the data folder comes from the
environment, as the GM's ``authorized_keys`` line would set it); the terminal is resized, then hung up."""

from __future__ import annotations

import fcntl
import os
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tui_combat.fight import session

READ_LIMIT_SECONDS = 60.0
"""A bound on waiting for the screen (the process starts Python and Textual): not a measure of speed."""


def set_size(fd: int, rows: int, columns: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))


def become_the_terminals_session() -> None:
    """In the child, after ``setsid``: standard input (the pty) becomes the controlling terminal, as under sshd."""
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class Terminal:
    def __init__(self, master: int, process: subprocess.Popen[bytes]) -> None:
        self.master = master
        self.process = process
        self.output = b""

    def read_until(self, *wanted: bytes) -> bytes:
        """Read the screen's output until every one of ``wanted`` has appeared since this call started."""
        start = len(self.output)
        deadline = time.monotonic() + READ_LIMIT_SECONDS
        while time.monotonic() < deadline:
            if all(text in self.output[start:] for text in wanted):
                return self.output[start:]
            ready, _w, _x = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                self.output += chunk
            elif self.process.poll() is not None:
                break
        raise AssertionError(
            f"never saw {wanted!r}; exit code {self.process.poll()}; output ends with:\n"
            f"{self.output[-2000:].decode('utf-8', 'replace')}"
        )

    def drain(self) -> None:
        """Read whatever is left until the other end closes (the process ended)."""
        deadline = time.monotonic() + READ_LIMIT_SECONDS
        while time.monotonic() < deadline:
            ready, _w, _x = select.select([self.master], [], [], 0.2)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    return
                if not chunk:
                    return
                self.output += chunk
            elif self.process.poll() is not None:
                return


@contextmanager
def view_in_a_pty(data: Path, config: Path, **extra: str) -> Iterator[Terminal]:
    """``tui-combat view`` on ``data`` in a new 80×24 pseudo-terminal whose session it leads (as sshd starts
    it), killed at the end if it is still running."""
    with in_a_pty(["view"], config, TUI_COMBAT_DATA_DIR=str(data), **extra) as terminal:
        yield terminal


@contextmanager
def in_a_pty(arguments: list[str], config: Path, **extra: str) -> Iterator[Terminal]:
    """``tui-combat ARGUMENTS`` in a new 80×24 pseudo-terminal whose session it leads (as sshd starts it), its
    settings from ``config``, killed at the end if it is still running."""
    master, slave = os.openpty()
    set_size(slave, 24, 80)
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("TEXTUAL", "PYTEST"))}
    environment.update({"TERM": "xterm-256color", "TUI_COMBAT_CONFIG_DIR": str(config), "LANG": "C.UTF-8", **extra})
    environment.pop("COLUMNS", None)
    environment.pop("LINES", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "tui_combat", *arguments],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=environment,
        start_new_session=True,
        preexec_fn=become_the_terminals_session,
        close_fds=True,
    )
    os.close(slave)
    terminal = Terminal(master, process)
    try:
        yield terminal
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        try:
            os.close(master)
        except OSError:
            pass


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    data = tmp_path / "data"
    session.open_demo(data, "demo_adnd2e.toml", seed=1).close()
    with view_in_a_pty(data, tmp_path / "config", SSH_CONNECTION="127.0.0.1 50000 127.0.0.1 22") as terminal:
        yield terminal


def test_it_draws_resizes_and_exits_cleanly_when_the_connection_drops(terminal: Terminal) -> None:
    terminal.read_until(b"Trolls and orcs", b"Troll 1", b"Raf")
    assert b"\x1b[?1000h" not in terminal.output  # no mouse reporting asked of the terminal
    set_size(terminal.master, 30, 100)  # the player's window grows: the kernel sends SIGWINCH
    terminal.read_until(b"Troll 1")  # drawn again
    assert terminal.process.poll() is None
    os.close(terminal.master)  # the connection drops: sshd closes the pty, the kernel hangs the session up
    assert terminal.process.wait(timeout=READ_LIMIT_SECONDS) == 0


def test_a_hang_up_signal_ends_it_without_a_traceback(terminal: Terminal) -> None:
    terminal.read_until(b"Trolls and orcs", b"Troll 1")
    terminal.process.send_signal(signal.SIGHUP)
    assert terminal.process.wait(timeout=READ_LIMIT_SECONDS) == 0
    terminal.drain()
    assert b"Traceback" not in terminal.output
    assert b"\x1b[?1049l" in terminal.output  # the terminal's normal screen is given back


def test_a_stray_continue_signal_neither_redraws_nor_hangs_the_view(terminal: Terminal) -> None:
    """The kernel sends SIGCONT with a hang-up: taken for the end of a Ctrl+Z, it started the view's terminal
    mode a second time, and the view could then hang on leaving."""
    terminal.read_until(b"Trolls and orcs", b"Troll 1")
    terminal.process.send_signal(signal.SIGCONT)
    terminal.process.send_signal(signal.SIGHUP)
    terminal.drain()
    assert terminal.process.wait(timeout=READ_LIMIT_SECONDS) == 0
    assert terminal.output.count(b"\x1b[?1049h") == 1


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.fixture
def damaged_terminal(tmp_path: Path) -> Iterator[Terminal]:
    """A view of a session whose journal ends in 20 MB of garbage."""
    data = tmp_path / "data"
    store = session.open_demo(data, "demo_adnd2e.toml", seed=1)
    assert store.folder is not None
    journal = store.folder.folder / "journal.jsonl"
    store.close()
    with journal.open("ab") as handle:
        handle.write(b"\x01garbage garbage garbage" * 800_000)
    with view_in_a_pty(data, tmp_path / "config") as terminal:
        yield terminal


def test_an_idle_view_of_a_damaged_session_uses_no_cpu_and_leaves_with_its_terminal(damaged_terminal: Terminal) -> None:
    terminal = damaged_terminal
    terminal.read_until(b"cannot be shown right now")
    # The first reading done and drawn: a quarter of a second without a tick of CPU (on a busy machine the
    # first reading may take a while); then five seconds of watching.
    deadline = time.monotonic() + READ_LIMIT_SECONDS
    before = _cpu_seconds(terminal.process.pid)
    while True:
        time.sleep(0.25)
        now = _cpu_seconds(terminal.process.pid)
        if now - before < 0.02:
            break
        assert time.monotonic() < deadline, (
            f"the view kept busy after its first reading ({now - before:.2f} s a quarter)"
        )
        before = now
    time.sleep(5.0)  # idle: the files do not change
    used = _cpu_seconds(terminal.process.pid) - before
    assert used < 0.5, f"{used:.2f} s of CPU in 5 s idle"  # was 1.26 s: the damaged journal read again every second
    os.write(terminal.master, b"\x11")  # ctrl+q, and the terminal goes at once
    os.close(terminal.master)
    gone = time.monotonic()
    terminal.process.wait(timeout=READ_LIMIT_SECONDS)
    assert time.monotonic() - gone < 2.0
