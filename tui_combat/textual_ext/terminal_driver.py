"""The terminal driver both apps run on in a real terminal: Textual's own, made safe for a terminal that goes
away (the SSH connection drops, the window is closed).

When a terminal is hung up, the kernel sends SIGHUP and then SIGCONT. Textual's driver takes any SIGCONT for
the end of a Ctrl+Z and starts its application mode again, with a second output thread; the first is left
waiting, the second dies on the dead terminal, and the app's next writes wait forever for room: it never
exits. Here a SIGCONT restarts only what a SIGTSTP stopped, and the output thread outlives its terminal,
dropping what is written once the terminal refuses it. (Upstream: ``LinuxDriver`` handles every SIGCONT as
the end of a Ctrl+Z, and its output thread ends at the first write that fails.)"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable
from functools import partial
from types import FrameType
from typing import Any, TextIO

from textual.driver import Driver

from tui_combat.textual_ext import stock_textual
from tui_combat.textual_ext.runs_by_look import with_fewest_codes


class GoneTerminalOutput:
    """The terminal's output, as the driver's output thread writes to it: once the terminal refuses a write
    (EIO after a hang-up), the rest is dropped instead of raised, so the thread goes on emptying its queue.
    What is written goes out with the colour codes and cursor moves that change nothing left out
    (:mod:`tui_combat.textual_ext.fewer_codes`), a frame of changes one style at a time where that is shorter
    (:mod:`tui_combat.textual_ext.runs_by_look`)."""

    def __init__(self, terminal: TextIO) -> None:
        self.terminal = terminal
        self.gone = False

    def write(self, text: str) -> None:
        if not self.gone:
            try:
                self.terminal.write(with_fewest_codes(text))
            except OSError:
                self.gone = True

    def flush(self) -> None:
        if not self.gone:
            try:
                self.terminal.flush()
            except OSError:
                self.gone = True

    def fileno(self) -> int:
        return self.terminal.fileno()

    def isatty(self) -> bool:
        return self.terminal.isatty()


def kept_driver(driver_class: type[Driver]) -> type[Driver]:
    """The driver to run on in place of ``driver_class``: ours where Textual chose its Linux terminal driver
    (not in tests, a browser or on Windows, nor on stock Textual: see :mod:`tui_combat.textual_ext`)."""
    if stock_textual() or sys.platform == "win32" or driver_class.__module__ != "textual.drivers.linux_driver":
        return driver_class
    from textual.drivers.linux_driver import LinuxDriver

    if driver_class is not LinuxDriver:
        return driver_class

    class HangUpSafeDriver(LinuxDriver):
        """Relies on two things ``LinuxDriver.__init__`` does (``tests/test_textual_ext.py`` checks both): it
        takes ``sys.__stderr__`` as the file its output thread writes to, and it puts its own SIGTSTP and
        SIGCONT handlers in place."""

        def __init__(self, *arguments: Any, **options: Any) -> None:
            terminal = sys.__stderr__
            if terminal is not None:  # taken by the driver as its output
                setattr(sys, "__stderr__", GoneTerminalOutput(terminal))  # (typed Final)
            try:
                super().__init__(*arguments, **options)
            finally:
                setattr(sys, "__stderr__", terminal)
            self.stopped_by_us = False
            """A SIGTSTP (Ctrl+Z) stopped the app: the SIGCONT that follows starts it again."""
            stop, resume = signal.getsignal(signal.SIGTSTP), signal.getsignal(signal.SIGCONT)
            if callable(stop) and callable(resume):
                signal.signal(signal.SIGTSTP, partial(self._stopped, stop))
                signal.signal(signal.SIGCONT, partial(self._continued, resume))

        def _stopped(self, handler: Callable[..., Any], number: int, frame: FrameType | None) -> None:
            self.stopped_by_us = True
            handler(number, frame)

        def _continued(self, handler: Callable[..., Any], number: int, frame: FrameType | None) -> None:
            if self.stopped_by_us:  # (a hang-up's SIGCONT follows no SIGTSTP)
                self.stopped_by_us = False
                handler(number, frame)

    return HangUpSafeDriver
