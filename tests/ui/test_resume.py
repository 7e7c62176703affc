"""A fight survives quitting and being killed: it resumes exactly where it was, with its undo history."""

from __future__ import annotations

import errno
import fcntl
import os
import re
import select
import signal
import struct
import sys
import termios
import time
from pathlib import Path

import pytest

from tests.common import DEMO
from tests.ui.fights import opened, until
from tests.ui.steps import SIZE, combatant_id, session_folders, store, to_round, type_initiative
from tui_combat.fight.store import Store
from tui_combat.saves import codec
from tui_combat.saves.journal import JOURNAL
from tui_combat.screens.round import RoundScreen

TIMEOUT = 30.0


async def test_quit_and_resume_restores_the_exact_state_and_its_undo(make_app, data_root: Path) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        await type_initiative(pilot, "7", "10")
        await pilot.press("n")  # the monsters' slot
        troll = combatant_id(app, "Troll 1")
        before_damage = store(app).state
        await pilot.press("d", "9", "enter")
        saved = store(app).state
        assert saved.combatant(troll).hp == 27
        await pilot.press("q")
    assert app.return_code == 0

    (folder,) = session_folders(data_root)
    resumed_app = make_app(resume=folder.name)
    async with resumed_app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        assert isinstance(resumed_app.screen, RoundScreen)
        assert store(resumed_app).state == saved
        assert resumed_app.screen.selected() == troll  # the acting slot is selected again
        await pilot.press("u")
        assert store(resumed_app).state == before_damage
        await pilot.press("U")
        assert store(resumed_app).state == saved
        await pilot.press("u", "u")  # back past the damage to the party's slot
        assert store(resumed_app).state.cursor == 0
        undone = store(resumed_app).state
        await pilot.press("q")

    again = Store.resume(folder)
    assert again.state == undone
    assert again.can_redo


async def test_resuming_an_unknown_session_says_so_and_stays_on_the_list(make_app) -> None:
    from tui_combat.screens.sessions import SessionsScreen

    app = make_app(resume="no-such-fight")
    async with app.run_test(size=SIZE) as pilot:
        await until(
            pilot,
            lambda: not app.opening and isinstance(app.screen, SessionsScreen) and app._notifications,
            "the session list and its notice",
        )
        assert app.store is None
        (notice,) = list(app._notifications)
        assert (notice.title, notice.message) == ("Cannot open the session", "There is no saved session no-such-fight.")


# -- the kill test: the real program in a pseudo-terminal, killed with SIGKILL ----------------------
ANSI = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|P[^\x1b]*\x1b\\|[@-Z\\-_])")


class Terminal:
    """``python -m tui_combat …`` in a pseudo-terminal of 80×24; reads its screen output as it comes."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        pid, fd = os.forkpty()
        if pid == 0:  # the child: become the program
            try:
                os.execve(sys.executable, argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", SIZE[1], SIZE[0], 0, 0))
        os.kill(pid, signal.SIGWINCH)
        self.output = b""
        self.status: int | None = None

    def read(self, wait: float = 0.05) -> None:
        """Take in whatever the program wrote (the program blocks if nobody reads its terminal)."""
        while True:
            ready, _w, _x = select.select([self.fd], [], [], wait)
            if not ready:
                return
            try:
                chunk = os.read(self.fd, 65536)
            except OSError as error:  # EIO: the program has gone
                if error.errno == errno.EIO:
                    return
                raise
            if not chunk:
                return
            self.output += chunk
            wait = 0

    def text(self, since: int = 0) -> str:
        return ANSI.sub(b"", self.output[since:]).decode("utf-8", "replace")

    def alive(self) -> bool:
        if self.status is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = status
        return self.status is None

    def wait_for(self, what: str, condition, since: int = 0) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not condition():
            self.read()
            if time.monotonic() > deadline or not self.alive():
                screen = self.text(since)[-2000:]
                pytest.fail(f"waited in vain for {what}; the program showed:\n{screen}")

    def wait_quiet(self, since: int, quiet: float = 0.3) -> None:
        """Until the program has drawn something after ``since`` and then stopped drawing for a while."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            before = len(self.output)
            self.read(quiet)
            if len(self.output) > since and len(self.output) == before:
                return
            if time.monotonic() > deadline or not self.alive():
                pytest.fail(f"the program never settled; it showed:\n{self.text(since)[-2000:]}")

    def send(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def kill(self) -> None:
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.read(0)
        if self.status is None:
            self.status = os.waitpid(self.pid, 0)[1]
        os.close(self.fd)


def journal_entries(folder: Path) -> list[codec.Line]:
    path = folder / JOURNAL
    if not path.exists():
        return []
    lines = path.read_bytes().split(b"\n")
    return [codec.line_decoder.decode(line) for line in lines[:-1]]  # a torn last line is not counted


@pytest.mark.skipif(not hasattr(os, "forkpty"), reason="needs a pseudo-terminal")
def test_killed_mid_fight_loses_nothing(tmp_path: Path) -> None:
    data = tmp_path / "data"
    env = {key: value for key, value in os.environ.items() if not key.startswith("TEXTUAL")}
    env.update(TERM="xterm-256color", COLUMNS=str(SIZE[0]), LINES=str(SIZE[1]), PYTHONUNBUFFERED="1")
    argv = [sys.executable, "-m", "tui_combat", "--data-dir", str(data), "--seed", "1", "new", str(DEMO)]
    terminal = Terminal(argv, env)
    try:
        folders = lambda: session_folders(data)  # noqa: E731
        # Set-up is on the screen once its table is; by then the encounter's build is in the journal.
        terminal.wait_for("the set-up screen", lambda: "Orc 6" in terminal.text())
        terminal.wait_quiet(0)
        (folder,) = folders()
        built = len(journal_entries(folder))
        assert built > 1  # the header, then every step of the build

        steps = [("c", "Monsters"), ("c", "Players"), ("n", None), ("n", None)]
        for number, (key, marker) in enumerate(steps, start=1):
            since = len(terminal.output)
            terminal.send(key)
            terminal.wait_for(
                f"journal line {built + number} after {key!r}",
                lambda: len(journal_entries(folder)) >= built + number,
                since,
            )
            if marker:  # the next screen is up, and drawn, before its keys are sent
                terminal.wait_for(repr(marker), lambda: marker in terminal.text(since), since)
                terminal.wait_quiet(since)
        entries = journal_entries(folder)
    finally:
        terminal.kill()

    assert len(entries) == built + len(steps)
    done = [entry for entry in entries if isinstance(entry, codec.Done)]
    assert len(done) == len(entries) - 1  # only the header besides
    assert type(done[-1].a).__name__ == "NextStep"

    resumed = Store.resume(folder)
    assert resumed.warnings == []
    assert len(resumed.done_actions()) == len(done)  # nothing lost
    assert resumed.done_actions() == [entry.a for entry in done]
    state = resumed.state
    assert (state.phase, state.round, state.step) == ("round", 1, 2)  # intentions → declarations → initiative
    replayed = Store(resumed.base)
    for action in resumed.done_actions():
        replayed.dispatch(action)
    assert replayed.state == state
