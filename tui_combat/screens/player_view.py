"""The players' screen (``tui-combat view``): a read-only copy of the fight that follows the GM's session live.

It shows only :func:`tui_combat.engine.public.public_view` of the state (made again only where the fight
changed: :class:`~tui_combat.engine.public.PublicViews`), so every secret is already gone before anything
here sees it; of the order, only the lines in sight are made and drawn (:class:`OrderLines`). The session is
read with :meth:`~tui_combat.fight.store.Store.resume` in read-only mode (no lock, nothing written), then only
the journal lines appended since are read and replayed (:class:`tui_combat.fight.following.SessionReader`),
whenever its files change (:class:`tui_combat.saves.follow.Follower`, a few ``stat`` calls twenty times a
second, in a thread so the screen never waits on the disk). On Linux the system also tells it the moment the
folder changes (:class:`tui_combat.saves.watch.FolderWatch`), and it looks then.

Made for a second terminal, an SSH forced command or a browser tab (``tui-combat serve``): keyboard only
(no mouse reporting), it reflows when resized, and a hang-up (SIGHUP) ends it cleanly. ``--large`` is the
layout for a TV: the round, who acts now and the order, nothing else.

The text of every part comes from the pure functions :func:`head_text`, :func:`order_text`,
:func:`now_text` and :func:`log_text`; :func:`view_text` joins them as the screen shows them (the
property tests read it).
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Sequence
from operator import is_
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec
from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.driver import Driver
from textual.filter import LineFilter
from textual.screen import Screen
from textual.widgets import Static

from tui_combat.engine.public import (
    HEALTH_WORDS,
    HealthScale,
    PublicCombatant,
    PublicGroup,
    PublicView,
    PublicViews,
)
from tui_combat.engine.tables import convert, read_toml
from tui_combat.i18n import N_, _
from tui_combat.saves.follow import POLL_SECONDS, Follower, Update
from tui_combat.saves.watch import FolderWatch
from tui_combat.widgets.glyphs import glyph
from tui_combat.widgets.harmless import with_harmless
from tui_combat.widgets.lines import LaterLine, Line
from tui_combat.widgets.many_lines import ManyLines
from tui_combat.widgets.redraw import WindowLog
from tui_combat.widgets.translated_bindings import TranslatedBindings

if TYPE_CHECKING:
    from tui_combat.engine.model import State

__all__ = [
    "SETTINGS_FILE",
    "CombatantLine",
    "OrderLines",
    "PlayerViewApp",
    "PlayerViewScreen",
    "ViewSettings",
    "head_text",
    "load_settings",
    "log_lines",
    "log_text",
    "now_text",
    "order_text",
    "phase_title",
    "view_text",
]

SETTINGS_FILE = "players-view.toml"
"""In the configuration folder: how the players see others' health (:class:`ViewSettings`), as earlier
versions kept it; the ``[health]`` table of the GM's ``settings.toml`` is read first."""
NARROW = 64
"""Below this many columns the log is left out, so the order keeps its room."""
SEEN_BELOW = 2
"""The slot acting now is in sight when its title and this many rows under it are on the screen."""


# -- settings ---------------------------------------------------------------------------------------------
class ViewSettings(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``players-view.toml``: a ``[health]`` table with ``wounded_below`` and ``bloodied_at`` (percentages of
    the maximum HP) and ``[health.words]`` (the GM's own words for unhurt, wounded, bloodied, down …)."""

    health: HealthScale = msgspec.field(default_factory=HealthScale)


def load_settings(path: Path) -> tuple[HealthScale, str]:
    """The health scale of the ``[health]`` table in ``path`` (the defaults when there is no such file or
    table; the file's other keys are not the players' screen's), and what is wrong with it ("" when
    nothing): a bad table is reported on screen and the defaults are used."""
    from tui_combat.engine.errors import RuleError

    if not path.exists():
        return HealthScale(), ""
    try:
        raw = read_toml(path)
        scale = convert({"health": raw["health"]} if "health" in raw else {}, ViewSettings, path).health
    except RuleError as error:
        return HealthScale(), str(error)
    if not 0 <= scale.bloodied_at <= scale.wounded_below <= 100:
        return HealthScale(), _("{path}: the percentages must keep 0 ≤ bloodied_at ≤ wounded_below ≤ 100.", path=path)
    unknown = sorted(set(scale.words) - set(HEALTH_WORDS))
    if unknown:
        return HealthScale(), _(
            "{path}: no health word is called {name}; the words are: {known}.",
            path=path,
            name=", ".join(unknown),
            known=", ".join(HEALTH_WORDS),
        )
    return scale, ""


# -- the text of each part ------------------------------------------------------------------------------
def phase_title(phase: str, round_number: int) -> str:
    """ "Round 2", "Setting up the fight" …: where the fight stands, as a title."""
    if phase == "setup":
        return _("Setting up the fight")
    if phase == "surprise":
        return _("Surprise and distance")
    if phase == "over":
        return _("The fight is over")
    return _("Round {n}", n=round_number)


def head_text(view: PublicView, *, large: bool = False, width: int | None = None) -> Text:
    """The fight's name, the round and its steps (a secret step is named, never shown). Where the one line of
    ``width`` cells cannot hold them, the steps go on a second line of their own, whole: a step's name is never
    broken across the two."""
    text = Text(no_wrap=not large, overflow="ellipsis")
    if not large and view.name:
        text.append(view.name, style="bold")
        text.append(" · ", style="dim")
    text.append(phase_title(view.phase, view.round), style="bold")
    if large:
        current = next((step for step in view.steps if step.current), None)
        if current is not None:
            text.append(" · ")
            text.append(current.label + (" 🔒" if current.secret else ""), style="bold reverse")
        return text
    steps = Text()
    for index, step in enumerate(view.steps):
        if index:
            steps.append(" › ", style="dim")
        steps.append(step.label + (" 🔒" if step.secret else ""), style="bold reverse" if step.current else "")
    if view.distance:
        steps.append(" · ", style="dim")
        steps.append(_("distance {distance}", distance=view.distance))
    if not steps:
        return text
    if width is not None and text.cell_len + 3 + steps.cell_len > width:
        return Text.assemble(text, "\n", steps, no_wrap=True, overflow="ellipsis")
    text.append(" │ " if view.steps else " · ", style="dim")
    return text.append_text(steps)


def _health(combatant: PublicCombatant) -> str:
    if combatant.hp is not None:
        figure = combatant.figure or f"{combatant.hp}/{combatant.max_hp}"  # as the rules count it ("Wounds 0/3")
        return figure if combatant.status == "active" else f"{figure} {combatant.health}"
    return combatant.health


def _combatant_pieces(combatant: PublicCombatant, *, large: bool) -> list[tuple[str, str]]:
    """A combatant's line as (text, style) pieces."""
    mark = "▶ " if combatant.acting else ("✓ " if combatant.acted else "  ")
    out = combatant.status != "active"
    pieces = [
        (mark, "bold yellow" if combatant.acting else "dim"),
        (combatant.name, "dim strike" if out else ("bold" if combatant.acting else "")),
    ]
    if combatant.fallen:  # ♥ alive though down (dying, stable), ✝ dead
        pieces.append(
            (
                f" {glyph('♥')}" if combatant.fallen == "dying" else f" {glyph('✝')}",
                "bold red" if combatant.fallen == "dying" else "dim",
            )
        )
    if large:
        if out:
            pieces.append((f"  {combatant.health}", "dim"))
        return pieces
    pieces.append((f"  {_health(combatant)}", "dim" if out else ("cyan" if combatant.party else "magenta")))
    pieces.extend((f"  · {condition}", "yellow") for condition in combatant.conditions)
    return pieces


def _combatant_line(combatant: PublicCombatant, *, large: bool) -> Text:
    text = Text()
    for piece, style in _combatant_pieces(combatant, large=large):
        text.append(piece, style=style)
    return text


def _width(text: str) -> int:
    return len(text) if text.isascii() else cell_len(text)


class CombatantLine(LaterLine):
    """A combatant's line of the order, made when it comes into sight."""

    __slots__ = ("combatant", "large")

    def __init__(self, combatant: PublicCombatant, large: bool) -> None:
        name, health = combatant.name, combatant.health
        if large or combatant.conditions or combatant.fallen or combatant.hp is not None:
            cells = _width("".join(piece for piece, _style in _combatant_pieces(combatant, large=large)))
        elif name.isascii() and health.isascii():  # (most of a mass battle: the mark, the name, the word)
            cells = 4 + len(name) + len(health)
        else:
            cells = 4 + cell_len(name) + cell_len(health)
        super().__init__(cells)
        self.combatant = combatant
        self.large = large

    def make(self) -> Text:
        return _combatant_line(self.combatant, large=self.large)


class OrderLines:
    """The order's lines from one view to the next: a group the public view gives again (the same object: none of
    it changed) keeps its lines; in one given anew, the line of each combatant shown as he was at the same place
    last time (the same object again) is kept, and the others' are made only when they come into sight
    (:class:`CombatantLine`): a turn moving on in a mass battle marks thousands acting or having acted, and the
    screen shows twenty."""

    def __init__(self) -> None:
        self._groups: list[tuple[PublicGroup, list[Line]]] = []

    def lines(self, view: PublicView, *, large: bool) -> tuple[list[Line], int]:
        """The order's lines, and the line the slot acting now starts on (0 when none does)."""
        earlier = self._groups
        shown: list[tuple[PublicGroup, list[Line]]] = []

        def members(group: PublicGroup) -> list[Line]:
            place = len(shown)
            known = earlier[place] if place < len(earlier) else None
            if known is not None and known[0] is group:
                lines = known[1]
            elif known is not None and len(known[0].combatants) == len(group.combatants):
                lines = list(known[1])
                before = known[0].combatants
                for index in [i for i, same in enumerate(map(is_, before, group.combatants)) if not same]:
                    lines[index] = CombatantLine(group.combatants[index], large)
            else:
                lines = [CombatantLine(combatant, large) for combatant in group.combatants]
            shown.append((group, lines))
            return lines

        lines, now_line = _order_lines(view, large, members)
        self._groups = shown
        return lines, now_line


def order_text(view: PublicView, *, large: bool = False) -> Text:
    """The turn order: each slot with its combatants, who acts now (▶) and who has acted (✓)."""
    lines, _now = _order_lines(
        view, large, lambda group: [_combatant_line(combatant, large=large) for combatant in group.combatants]
    )
    return Text("\n").join(line if isinstance(line, Text) else line.text() for line in lines)


def _order_lines(
    view: PublicView, large: bool, members: Callable[[PublicGroup], Sequence[Line]]
) -> tuple[list[Line], int]:
    """The order's lines (each group's combatants' from ``members``), and the line the slot acting now starts on
    (0 when none does)."""
    head = Text()
    head.append(
        _("Turn order") if view.phase == "round" or view.phase == "over" else _("Combatants"), style="bold underline"
    )
    if view.order_hidden and not large:
        head.append("  " + _("(rolled in secret: the rest of the order shows as it comes)"), style="dim")
    elif view.phase == "round" and all(group.kind == "side" for group in view.groups):
        head.append("  " + _("(not rolled yet)"), style="dim")
    lines: list[Line] = [head]
    now_line = 0
    for group in view.groups:
        if large:
            lines.append(Text())
        if group.now:
            now_line = len(lines)
        label = group.label or ("▶" if group.now else "✓" if group.done else "·")
        style = "bold reverse" if group.now else ("dim" if group.done or group.kind in ("idle", "waiting") else "bold")
        lines.append(Text(f"── {label} ", style=style))
        lines.extend(members(group))
    return lines, now_line


def now_text(view: PublicView) -> Text:
    """Who acts now, big: for the TV at the table."""
    text = Text(justify="center")
    if not view.now:
        text.append(_("Nobody acts just now."), style="dim")
        return text
    text.append(_("Now"), style="dim")
    if view.now_label:
        text.append(f"  {view.now_label}", style="dim")
    for combatant in view.now:
        text.append("\n")
        text.append(combatant.name, style="bold reverse" if combatant.status == "active" else "dim strike")
    return text


def log_text(view: PublicView) -> Text:
    return Text("\n").join(log_lines(view))


def log_lines(view: PublicView) -> list[Text]:
    """The public log's lines under its title."""
    return [Text(_("Log"), style="bold underline"), *(Text(line.text) for line in view.log)]


def view_text(view: PublicView, *, large: bool = False) -> str:
    """Every word the players' screen shows of ``view`` (in the standard or the large layout)."""
    parts = [head_text(view, large=large)]
    if large:
        parts += [now_text(view), order_text(view, large=True)]
    else:
        parts += [order_text(view), log_text(view)]
    return "\n".join(part.plain for part in parts)


# -- the screen -----------------------------------------------------------------------------------------
ENDED = N_("The fight has ended.")
UNREADABLE = N_("The fight cannot be shown right now.")
SETTINGS_MISTAKE = N_("The GM's settings for this screen have a mistake: the usual words are used.")
"""What the players read when something is wrong: never a path, a file or an error's own text (those are
the GM's, and the GM's screen names them)."""


def players_problem(follower: Follower, update: Update) -> str:
    """What the players are told of ``update``'s problem ("" when none): waiting for a fight, the fight
    ended (its session deleted), or it cannot be shown now (unreadable or damaged, for the moment or for good)."""
    if not update.problem:
        return ""
    if update.state is None and follower.key is None:
        return update.problem  # "No fight yet: waiting for the GM to start one."
    folder = follower.folder()
    if folder is None or not folder.is_dir():
        return _(ENDED)
    return _(UNREADABLE)


def _in_play(state: State) -> None:
    """The ruleset's own words first, as the GM reads them."""
    from tui_combat.engine.registry import in_play

    in_play(state.ruleset)


class PlayerViewScreen(TranslatedBindings, Screen[None]):
    BINDINGS = [Binding("q", "app.quit", N_("Quit"), id="view.quit")]

    def __init__(
        self,
        follower: Follower,
        scale: HealthScale,
        *,
        large: bool = False,
        poll_seconds: float = POLL_SECONDS,
        settings_problem: str = "",
    ) -> None:
        super().__init__(classes="large" if large else "")
        self.follower = follower
        self.scale = scale
        self.large = large
        self.poll_seconds = poll_seconds
        self.settings_problem = settings_problem
        self.view: PublicView | None = None
        self._polling = False
        self._poll_again = False
        self._watch: FolderWatch | None = None
        self._followed: Path | None = None
        """The folder of the session followed, as the last poll found it (the folder watched)."""
        self._now_line = -1
        self._head: Text | None = None
        self._status: Text | None = None
        self._order_lines = OrderLines()
        self._views = PublicViews(scale)
        """The public view of each state read (made again only where the fight changed), in the poll's thread."""

    def compose(self) -> ComposeResult:
        yield Static(id="view-head")
        if self.large:
            yield Static(id="view-now")
            with Vertical(id="view-order-box"):
                yield ManyLines(id="view-order")
        else:
            with Horizontal(id="view-main"):
                with Vertical(id="view-order-box"):
                    yield ManyLines(id="view-order")
                with Vertical(id="view-log-side"):  # its rule and margin stay put while the log scrolls
                    yield Static(Text(_("Log"), style="bold underline"), id="view-log-title")
                    yield WindowLog(id="view-log")
        yield Static(id="view-status")

    def on_mount(self) -> None:
        self.query_one("#view-status", Static).update(
            _(SETTINGS_MISTAKE) if self.settings_problem else _("Waiting for the fight…")
        )
        self._watch = FolderWatch.open()
        if self._watch is not None:
            asyncio.get_running_loop().add_reader(self._watch.fileno, self._told)
        self.set_interval(self.poll_seconds, self.poll)
        self.call_after_refresh(self.poll)

    def on_unmount(self) -> None:
        if self._watch is not None:
            asyncio.get_running_loop().remove_reader(self._watch.fileno)
            self._watch.close()
            self._watch = None

    def _told(self) -> None:
        """The session's folder changed (the GM's copy saved an action): look now, not at the next poll."""
        if self._watch is not None and self._watch.drain():
            self.call_later(self.poll)

    def on_resize(self) -> None:
        self.set_class(self.size.width < NARROW, "narrow")
        if self.view is not None:
            self._show_head()

    def _show_head(self) -> None:
        """The fight's name, the round and its steps, on one line of the screen as wide as it is now."""
        if self.view is None:
            return
        head = head_text(self.view, large=self.large, width=max(self.size.width - 2, 1))
        if head != self._head:  # a Static rewrites every cell of itself at each update
            self._head = head
            self.query_one("#view-head", Static).update(head)

    async def poll(self) -> None:
        """Look at the session's files in a thread; show what changed."""
        if self._polling:
            self._poll_again = True  # told of a change while reading: read once more after
            return
        self._polling = True
        try:
            found = await asyncio.to_thread(self._poll_in_thread)
        finally:
            self._polling = False
        if found is not None:
            self.show(*found)
        if self._watch is not None:
            self._watch.watch(self._followed)  # the follower may have moved to another session
        if self._poll_again:
            self._poll_again = False
            self.call_later(self.poll)

    def _poll_in_thread(self) -> tuple[Update, PublicView | None, str] | None:
        update = self.follower.poll()
        self._followed = self.follower.folder()
        if update is None:
            return None
        if update.state is None:
            return update, None, players_problem(self.follower, update)
        try:
            return update, self._views.view(update.state), players_problem(self.follower, update)
        except Exception:  # a ruleset's bug must not take the players' screen down: say so, keep the last view
            return update, None, _(UNREADABLE)

    def show(self, update: Update, view: PublicView | None, problem: str = "") -> None:
        if update.moved:
            self.notify(update.moved, timeout=8)
        problem = problem or (_(SETTINGS_MISTAKE) if self.settings_problem else "")
        status = (
            Text(problem, style="yellow")
            if problem
            else Text(_("q quits · read-only: nothing here changes the fight"), style="dim")
        )
        if status != self._status:  # a Static rewrites its whole line at each update
            self._status = status
            self.query_one("#view-status", Static).update(status)
        if view is None:
            return
        self.view = view
        self._show_head()
        order, now_line = self._order_lines.lines(view, large=self.large)
        lines = self.query_one("#view-order", ManyLines)
        laid_out = len(order) == len(lines.lines) and lines.size.height > 0
        with lines.compared_once():  # (a new page and the lines that changed on it: each cell compared once)
            lines.show_lines(order)
            if now_line != self._now_line:  # the turn moved: keep the slot acting now in sight
                self._now_line = now_line
                if laid_out:  # as many lines as before: scrolled at once, in the frame of the lines that changed
                    self._keep_in_sight(now_line, immediate=True)
                else:
                    self.call_after_refresh(self._keep_in_sight, now_line)
        if self.large:
            self.query_one("#view-now", Static).update(now_text(view))
        else:
            self.query_one("#view-log", WindowLog).show_window([line.text for line in view.log])

    def _keep_in_sight(self, now_line: int, *, immediate: bool = False) -> None:
        """The order scrolled so that the slot acting now starts near its top, unless its first rows are in sight
        already: a turn moving on to the next slot on the screen moves no line (a scroll rewrites every row)."""
        lines = self.query_one("#view-order", ManyLines)
        top, height = lines.scroll_offset.y, lines.scrollable_content_region.height
        if top <= now_line and now_line + SEEN_BELOW < top + height:
            return
        lines.scroll_to(y=max(now_line - 2, 0), animate=False, immediate=immediate)


class PlayerViewApp(App[None]):
    """The players' view on its own: ``tui-combat view [NAME]``. Nothing in it can change the fight."""

    CSS_PATH = "player_view.tcss"
    TITLE = "tui-combat"
    ENABLE_COMMAND_PALETTE = False  # its commands (a screenshot, a theme) are not for a forced-command login
    BINDINGS = [Binding("ctrl+q,ctrl+c", "quit", N_("Quit"), id="view.app_quit", show=False, priority=True)]

    def __init__(
        self,
        data_root: Path,
        name: str | None = None,
        *,
        large: bool = False,
        settings_path: Path | None = None,
        poll_seconds: float = POLL_SECONDS,
        handle_hangup: bool = True,
        collect_step: Callable[[], object] | None = None,
        collect_every: float = 1 / 3,
    ) -> None:
        super().__init__()
        self.data_root = data_root
        self.session_name = name
        self.large = large
        self.settings_path = settings_path
        self.poll_seconds = poll_seconds
        self.handle_hangup = handle_hangup
        self.collect_step = collect_step
        """The garbage collector's step, taken every ``collect_every`` seconds, between updates (``__main__`` gives
        :func:`tui_combat.running.collecting.collect_step`, and leaves Python to start a collection of its own only
        past many more objects, as for the GM's app): as Python takes them, a step that walks the whole fight (some
        60 ms at 10,000 combatants) came in the middle of an update every few updates."""
        self.collect_every = collect_every
        self.hung_up = False

    def get_driver_class(self) -> type[Driver]:
        from tui_combat.textual_ext.terminal_driver import kept_driver

        return kept_driver(super().get_driver_class())

    def get_line_filters(self) -> Sequence[LineFilter]:
        """No control character of a name saved before such names were refused reaches a player's terminal."""
        return with_harmless(super().get_line_filters())

    def get_default_screen(self) -> Screen[None]:
        from tui_combat.settings.config import health_settings_path

        scale, problem = load_settings(self.settings_path or health_settings_path())
        from tui_combat.fight.following import SessionReader

        follower = Follower(self.data_root, self.session_name, SessionReader(_in_play))
        return PlayerViewScreen(
            follower, scale, large=self.large, poll_seconds=self.poll_seconds, settings_problem=problem
        )

    def on_mount(self) -> None:
        if self.collect_step is not None:
            self.set_interval(self.collect_every, self.collect_step, name="collect between updates")
        if self.handle_hangup:
            loop = asyncio.get_running_loop()
            for number in (signal.SIGHUP, signal.SIGTERM):
                loop.add_signal_handler(number, self._hang_up)

    def _hang_up(self) -> None:
        """The terminal is gone (the SSH connection dropped) or we are asked to stop: leave quietly."""
        self.hung_up = True
        self.exit()
