"""The terminal driver both apps run on in a real terminal: Textual's own, made safe for a terminal that goes
away (the SSH connection drops, the window is closed).

When a terminal is hung up, the kernel sends SIGHUP and then SIGCONT. Textual's driver takes any SIGCONT for
the end of a Ctrl+Z and starts its application mode again, with a second output thread; the first is left
waiting, the second dies on the dead terminal, and the app's next writes wait forever for room: it never
exits. Here a SIGCONT restarts only what a SIGTSTP stopped, and the output thread outlives its terminal,
dropping what is written once the terminal refuses it."""

from __future__ import annotations

import sys
from typing import Any, TextIO, cast

from textual.driver import Driver


class GoneTerminalOutput:
    """The terminal's output, as the driver's output thread writes to it: once the terminal refuses a write
    (EIO after a hang-up), the rest is dropped instead of raised, so the thread goes on emptying its queue."""

    def __init__(self, terminal: TextIO) -> None:
        self.terminal = terminal
        self.gone = False

    def write(self, text: str) -> None:
        if not self.gone:
            try:
                self.terminal.write(text)
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
    (not in tests, a browser or on Windows)."""
    if sys.platform == "win32" or driver_class.__module__ != "textual.drivers.linux_driver":
        return driver_class
    from textual.drivers.linux_driver import LinuxDriver

    if driver_class is not LinuxDriver:
        return driver_class

    class HangUpSafeDriver(LinuxDriver):
        def __init__(self, *arguments: Any, **options: Any) -> None:
            super().__init__(*arguments, **options)
            if self._file is not None:
                # Textual types it as the standard error it opens on; its output thread only writes and flushes.
                self._file = cast(Any, GoneTerminalOutput(self._file))

        def _sigcont_application(self, *_: Any) -> None:
            if self._must_signal_resume:  # set by the driver's SIGTSTP handler, cleared once started again
                super()._sigcont_application()

    return HangUpSafeDriver
