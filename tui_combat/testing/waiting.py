"""The one way a test of the app waits: for a condition, up to a generous deadline, never for time alone.

A Pilot key press returns once the app has handled the key, but what the key set going — a screen
pushed after a worker, a table filled after its first refresh, a file written by a thread — may land a
moment later, and later still on a busy machine. A test that reads the screen right after a key reads
it through :func:`until`, which lets the app run in short pauses until the condition holds and fails,
saying what it waited for and what the screen was, once the deadline has passed.

Outside an app (a server, a browser, a process watched from a test) :func:`eventually` waits the same
way, in short sleeps.

``TUI_COMBAT_TEST_DEADLINE`` (seconds, default 60) stretches the deadline for a very slow machine.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import time
from collections.abc import Callable
from typing import Any, TypeVar
from weakref import WeakKeyDictionary

from textual.app import App
from textual.css.query import NoMatches
from textual.message_pump import MessagePump
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets.data_table import CellDoesNotExist, RowDoesNotExist
from textual.widgets.option_list import OptionDoesNotExist

DEFAULT_DEADLINE = 60.0
W = TypeVar("W", bound="Widget")

NOT_YET = (NoMatches, LookupError, AttributeError, RowDoesNotExist, CellDoesNotExist, OptionDoesNotExist)
"""What a condition may raise while the screen is not there yet: a widget not mounted, a row not added."""
STEP = 0.01
"""Seconds between two looks at the condition: the app (and its worker threads) run meanwhile."""


def deadline() -> float:
    try:
        return float(os.environ.get("TUI_COMBAT_TEST_DEADLINE", "")) or DEFAULT_DEADLINE
    except ValueError:
        return DEFAULT_DEADLINE


async def eventually(
    condition: Callable[[], Any],
    what: str,
    *,
    every: float = 0.1,
    seconds: float | None = None,
    describe: Callable[[], str] | None = None,
) -> Any:
    """Call ``condition`` (a function or a coroutine function) every ``every`` seconds until it returns
    something true, and return that; fail after ``seconds`` (the run's deadline by default) naming ``what``
    and, when given, ``describe()`` (what there was instead)."""
    limit = deadline() if seconds is None else seconds
    end = time.monotonic() + limit
    while True:
        result = condition()
        if inspect.isawaitable(result):
            result = await result
        if result:
            return result
        if time.monotonic() >= end:
            detail = f":\n{describe()}" if describe is not None else ""
            raise AssertionError(f"waited {limit:.0f} s in vain for {what}{detail}")
        await asyncio.sleep(every)


def _screen_name(app: App[Any]) -> str:
    try:
        return type(app.screen).__name__
    except Exception:  # the app may have no screen yet, or have closed
        return "(none)"


async def until(
    pilot: Pilot[Any],
    condition: Callable[[], object],
    what: str,
    seconds: float | None = None,
    describe: Callable[[], str] | None = None,
) -> None:
    """Let the app work until ``condition()`` is true; fail after ``seconds`` (the run's deadline by
    default) naming ``what``. A condition that raises one of :data:`NOT_YET` (a widget not mounted yet, a
    row not added yet) counts as not yet. ``describe()``, when given, is added to the failure (what there
    was instead: a form's complaint, a list's rows)."""
    limit = deadline() if seconds is None else seconds
    end = time.monotonic() + limit
    last_error: BaseException | None = None
    while True:
        try:
            if condition():
                return
            last_error = None
        except NOT_YET as error:
            last_error = error
        if time.monotonic() >= end:
            detail = f" (last: {type(last_error).__name__}: {last_error})" if last_error else ""
            if describe is not None:
                detail += f"; {describe()}"
            raise AssertionError(
                f"waited {limit:.0f} s in vain for {what}; the screen is {_screen_name(pilot.app)}{detail}"
            )
        await pilot.pause(STEP)


async def until_screen(pilot: Pilot[Any], screen_type: type, what: str | None = None) -> Any:
    """Until the active screen is a ``screen_type`` with its widgets composed (a screen is active a moment
    before that); returns it."""
    await until(
        pilot,
        lambda: isinstance(pilot.app.screen, screen_type) and pilot.app.screen.is_mounted,
        what or f"the {screen_type.__name__}",
    )
    return pilot.app.screen


async def until_widget(pilot: Pilot[Any], selector: str, widget_type: type[W], what: str) -> W:
    """Until the active screen has a ``selector`` widget (a screen that has just appeared may not have
    composed its widgets yet); returns it."""
    found: list[W] = []

    def present() -> bool:
        found[:] = [pilot.app.screen.query_one(selector, widget_type)]
        return True

    await until(pilot, present, what)
    return found[0]


_after_refresh: WeakKeyDictionary[MessagePump, list[bool]] = WeakKeyDictionary()
"""For each node :func:`settled` is waiting on: set once a callback of its own, sent after the others, has run."""


def settled(node: MessagePump) -> bool:
    """``node`` (a screen, a widget) has handled every message and callback sent to it so far — what a
    closed dialog's result set going on the screen under it, for one: true once that has run. The callbacks
    after the screen's next refresh (``call_after_refresh``: a form's hint once its fields are laid out)
    count too. A condition for :func:`until`, looked at again and again: the first look sends a callback of its
    own after the others, and the node is settled once that has run and nothing waits in its queue."""
    if node.message_queue_size:
        return False
    ran = _after_refresh.get(node)
    if ran is None:
        ran = []
        if not node.call_after_refresh(ran.append, True):
            return True  # closed: nothing more runs on it
        _after_refresh[node] = ran
        return False
    if not ran:
        return False
    del _after_refresh[node]
    return True
