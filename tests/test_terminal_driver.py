"""The terminal driver when the terminal is gone: what the app writes is dropped, not queued for nobody."""

from __future__ import annotations

import errno
import io
import signal
import sys
import threading
from collections.abc import Iterator
from typing import Any, cast

import pytest
from textual.app import App

from tui_combat.textual_ext.terminal_driver import GoneTerminalOutput, kept_driver

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="the Linux terminal driver")

WAIT_SECONDS = 30.0
"""A bound on waiting for a thread that should end at once: not a measure of speed."""


class HungUpTerminal(io.StringIO):
    def write(self, text: str) -> int:
        raise OSError(errno.EIO, "Input/output error")


@pytest.fixture
def own_signals() -> Iterator[None]:
    """The driver puts its own Ctrl+Z handlers in place: the test process gets its own back."""
    kept = {number: signal.getsignal(number) for number in (signal.SIGTSTP, signal.SIGCONT)}
    yield
    for number, handler in kept.items():
        signal.signal(number, handler)


def test_the_driver_is_ours_only_where_textual_chose_its_terminal_driver() -> None:
    from textual.drivers.headless_driver import HeadlessDriver
    from textual.drivers.linux_driver import LinuxDriver

    assert kept_driver(HeadlessDriver) is HeadlessDriver
    assert issubclass(kept_driver(LinuxDriver), LinuxDriver)
    assert kept_driver(LinuxDriver) is not LinuxDriver


async def test_writing_to_a_hung_up_terminal_neither_blocks_nor_hangs_the_exit(own_signals: None) -> None:
    from textual.drivers._writer_thread import WriterThread
    from textual.drivers.linux_driver import LinuxDriver

    driver = cast(LinuxDriver, kept_driver(LinuxDriver)(App(), debug=False, mouse=False, size=(80, 24)))
    assert isinstance(driver._file, GoneTerminalOutput)  # what the output thread of its application mode writes to
    writer = WriterThread(cast(Any, GoneTerminalOutput(HungUpTerminal())))  # that thread, on a terminal now hung up
    writer.start()
    driver._writer_thread = writer

    def frames_then_exit() -> None:
        for frame in range(100):  # more than the output queue holds
            driver.write(f"frame {frame}")
        driver.close()

    app_thread = threading.Thread(target=frames_then_exit, daemon=True)
    app_thread.start()
    app_thread.join(WAIT_SECONDS)
    assert not app_thread.is_alive(), "the app waited for room in the output of a dead terminal"
