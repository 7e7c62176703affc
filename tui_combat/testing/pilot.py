"""Driving the app from a test with Textual's Pilot: key sequences that press real keys, as a GM would, waits for
what they set going, and short readers of what the screen shows.

A test makes the app on a data folder of its own (:func:`make_app`), runs it headless at 80×24
(``async with app.run_test(size=SIZE) as pilot``), goes from the set-up to round 1 (:func:`to_round_from_setup`),
presses keys (``await pilot.press("a")``), and waits — never for time — for a screen, a form or a log line
(:func:`~tui_combat.testing.waiting.until_screen`, :func:`until_form`, :func:`until_log`). ``docs/writing-a-ruleset.md``
("Testing a ruleset") shows a whole test.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.geometry import Region
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import DataTable, Static

from tui_combat.app import CombatApp
from tui_combat.fight.store import Store
from tui_combat.screens.dialogs import ChoiceDialog, FieldsForm, FormDialog, _widget_id
from tui_combat.screens.form_panel import FormPanel
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.sessions import SessionsScreen
from tui_combat.screens.setup import SetupScreen
from tui_combat.screens.surprise import SurpriseScreen
from tui_combat.testing.waiting import settled, until, until_screen
from tui_combat.widgets.amount_prompt import AmountPrompt
from tui_combat.widgets.budget import BudgetMeter
from tui_combat.widgets.field_row import FieldRow
from tui_combat.widgets.footer import KeyFooter, shown_keys
from tui_combat.widgets.order_list import OrderList

SEED = 1
"""The dice seed of :func:`make_app` unless told: the app's own dice roll the same in every run."""
SIZE = (80, 24)
"""The terminal every screen must be usable in: ``app.run_test(size=SIZE)``."""


def make_app(data_root: Path, **options: Any) -> CombatApp:
    """A :class:`~tui_combat.app.CombatApp` on ``data_root`` (its sessions are saved in ``data_root/sessions``),
    with the dice seed :data:`SEED` unless ``seed`` is given. ``options`` are the app's own: ``encounter`` (an
    encounter file to start a session from: the app opens on its set-up), ``resume`` (the folder name of a saved
    session), ``settings_path`` (a ``settings.toml``; by default the one in the config folder,
    ``TUI_COMBAT_CONFIG_DIR``). Without either of the first two it opens on the session list."""
    options.setdefault("seed", SEED)
    return CombatApp(data_root, **options)


async def opened(pilot: Pilot[None]) -> None:
    """Until the session the app was started on (``resume`` or ``encounter``) is open and its screen shown."""
    from tui_combat.screens.session_screen import SessionScreen

    app = pilot.app
    assert isinstance(app, CombatApp)
    await until(
        pilot,
        lambda: (
            app.store is not None and not app.opening and isinstance(app.screen, SessionScreen) and settled(app.screen)
        ),
        "the session to open",
    )


async def until_log(pilot: Pilot[None], text: str) -> str:
    """Until a line of the fight's log holds ``text`` (in the language in use); the first such line."""
    app = pilot.app
    assert isinstance(app, CombatApp)
    found: list[str] = []

    def logged() -> bool:
        found[:] = [line for line in log_texts(app) if text in line][:1]
        return bool(found)

    await until(
        pilot,
        logged,
        f"a log line with {text!r}",
        describe=lambda: (
            "the last lines: " + " | ".join(log_texts(app)[-5:]) if app.store is not None else "no session is open"
        ),
    )
    return found[0]


def session_folders(data_root: Path) -> list[Path]:
    folder = data_root / "sessions"
    return sorted(child for child in folder.iterdir() if child.is_dir()) if folder.exists() else []


def store(app: App[Any]) -> Store:
    """The open session's store (its ``state`` is the fight as it stands)."""
    assert isinstance(app, CombatApp), f"not tui-combat's app but {type(app).__name__}"
    assert app.store is not None, "no session is open"
    return app.store


def open_form_of(app: App[Any]) -> FormDialog | FormPanel | None:
    """The form open now: a dialog on top, or the form at the foot of the round screen."""
    screen = app.screen
    if isinstance(screen, FormDialog):
        return screen
    if isinstance(screen, RoundScreen):
        return next((panel for panel in (screen.form_panel, screen.add_panel) if panel.is_open), None)
    return None


def field_labels(form: FieldsForm) -> list[str]:
    """The labels of a form's fields, in order, as the GM reads them."""
    return [row.label for row in form.query(FieldRow)]


def dialog_error(app: App[Any]) -> str:
    """The plain text under the open form (empty when the form has no complaint)."""
    form = open_form_of(app)
    assert form is not None, f"no form is open on {type(app.screen).__name__}"
    return str(form.query_one("#dialog-error", Static).render()).strip()


def amount_prompt(app: App[Any]) -> AmountPrompt:
    """The round screen's prompt for damage or healing, asserted open."""
    screen = app.screen
    assert isinstance(screen, RoundScreen), f"not on the round but {type(screen).__name__}"
    assert screen.amount_prompt.is_open, "the amount prompt is not open"
    return screen.amount_prompt


def prompt_error(app: App[Any]) -> str:
    """The refusal shown over the open amount prompt (empty when it has none)."""
    return amount_prompt(app).error_text.strip()


def prompt_line(app: App[Any], part: str) -> str:
    """What the open amount prompt's ``part`` shows: its "title", "field" or "keys", or the "note" or "error" above
    it (empty when hidden)."""
    return amount_prompt(app).shown(part)


def visible_text(widget: Widget) -> str:
    """What the widget shows on the terminal, line by line: text cut off by its size is not there."""
    strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return "\n".join(strip.text.rstrip() for strip in strips)


def combatant_id(app: App[Any], name: str) -> str:
    return next(c.id for c in store(app).state.combatants if c.name == name)


def log_texts(app: App[Any]) -> list[str]:
    """The text of every log entry of the session, in order."""
    return [entry.text for entry in store(app).state.log_entries()]


def footer_text(app: App[Any]) -> str:
    """The descriptions of the keys the footer shows now."""
    return " · ".join(key.description for key in shown_keys(app.screen.query_one(KeyFooter)))


def turn_list_text(app: App[Any]) -> str:
    """What the round screen's turn list shows on the terminal now (its rows on the screen)."""
    return visible_text(app.screen.query_one(OrderList))


def card_text(app: App[Any]) -> str:
    """What the round screen's card shows of the selected combatant: its head (name, side, health, status) and
    its lines, on the terminal now."""
    screen = app.screen
    assert isinstance(screen, RoundScreen), f"not on the round but {type(screen).__name__}"
    return visible_text(screen.query_one("#card-head")) + "\n" + visible_text(screen.query_one("#card"))


async def until_choice(pilot: Pilot[None], what: str = "a choice") -> list[str]:
    """Until a choice of the app is open (who comes in, a row of the encounter distances …); its labels, in order."""
    screen = await until_screen(pilot, ChoiceDialog, what)
    assert isinstance(screen, ChoiceDialog)
    return [label for _value, label in screen.choices]


def budget_text(app: App[Any]) -> str:
    """The budget meter as rendered."""
    return str(app.screen.query_one("#budget", BudgetMeter).render())


def selected(app: App[Any]) -> str | None:
    """The combatant highlighted in the order list."""
    return app.screen.query_one(OrderList).selected_combatant()


async def until_sessions(pilot: Pilot[None]) -> SessionsScreen:
    """Until the session list shows its rows."""
    screen = await until_screen(pilot, SessionsScreen, "the session list")
    assert isinstance(screen, SessionsScreen)
    await until(pilot, lambda: screen.query_one(DataTable).row_count > 0, "the session list's rows")
    return screen


async def open_demo(pilot: Pilot[None]) -> None:
    """Session list → Enter on its only row, the demo → set-up (opened by a worker: waited for)."""
    await until_sessions(pilot)
    await pilot.press("enter")
    await until_setup(pilot)


async def until_setup(pilot: Pilot[None], *, empty: bool = False) -> SetupScreen:
    """Until the set-up screen shows its table, filled (``empty``: a new fight's, with no rows; then until the
    screen has handled what its mounting set going)."""
    await until_screen(pilot, SetupScreen, "the set-up screen")
    screen = pilot.app.screen
    assert isinstance(screen, SetupScreen)
    if empty:
        await until(pilot, lambda: screen.query_one(DataTable).is_mounted and settled(screen), "the set-up table")
    else:
        await until(pilot, lambda: screen.query_one(DataTable).row_count > 0, "the set-up table's rows")
    return screen


async def to_surprise(pilot: Pilot[None]) -> None:
    await open_demo(pilot)
    await pilot.press("c")
    await until_screen(pilot, SurpriseScreen, "the surprise screen")


async def to_round(pilot: Pilot[None], party: str = "5", monsters: str = "8") -> None:
    """Demo → set-up → surprise typed from physical dice (5 and 8: nobody surprised) → round 1."""
    await to_surprise(pilot)
    surprise, before = pilot.app.screen, store(pilot.app).state
    await pilot.press("t")
    await until_form(pilot, "the surprise dice form")
    await pilot.press(*party, "enter", *monsters, "enter")
    await until(
        pilot,
        lambda: pilot.app.screen is surprise and store(pilot.app).state is not before,
        "the surprise typed in",
        describe=lambda: "the form: " + _form_error(pilot.app),
    )
    await pilot.press("c")
    await until_round(pilot)


def _form_error(app: App[Any]) -> str:
    return dialog_error(app) if open_form_of(app) is not None else "closed"


async def until_round(pilot: Pilot[None]) -> RoundScreen:
    """Until the round screen is shown with its order list filled."""
    await until_screen(pilot, RoundScreen, "the round screen")
    screen = pilot.app.screen
    assert isinstance(screen, RoundScreen)
    await until(pilot, lambda: screen.query_one(OrderList).option_count > 0, "the round's order list")
    return screen


async def type_initiative(pilot: Pilot[None], party: str, monsters: str) -> None:
    """From the round's first step: n, n to the initiative step, t, then the two sides' d10s."""
    app = pilot.app
    await pilot.press("n", "n", "t")
    await until_form(pilot, "the initiative form")
    before = store(app).state
    await pilot.press(*party, "enter", *monsters, "enter")
    await until(
        pilot,
        lambda: isinstance(app.screen, RoundScreen) and store(app).state is not before,
        "the initiative typed in",
        describe=lambda: "the form: " + _form_error(app),
    )


async def choose(pilot: Pilot[None], value: str) -> None:
    """In an open ChoiceDialog, move the highlight to ``value`` with the arrows and press Enter; until the
    choice has closed and the screen under it has done what it asked."""
    screen = await until_screen(pilot, ChoiceDialog, "a choice")
    values = [choice for choice, _label in screen.choices]
    current = values.index(screen.current) if screen.current in values else 0
    steps = values.index(value) - current
    await pilot.press(*(["down"] * steps if steps > 0 else ["up"] * -steps), "enter")
    await until_closed(pilot, screen, f"{value} chosen")  # what the choice does runs once it has closed


async def to_round_from_setup(pilot: Pilot[None], mark: int | None = None) -> None:
    """An encounter opened on set-up (waiting for it to show) → surprise, where nobody is surprised unless
    the row ``mark`` is marked → round 1."""
    await until_setup(pilot)
    await pilot.press("c")
    await until_screen(pilot, SurpriseScreen, "the surprise screen")
    if mark is not None:
        await pilot.press(*["down"] * mark, "s")
    await pilot.press("c")
    await until_round(pilot)


async def until_form(pilot: Pilot[None], what: str = "a form") -> FormDialog | FormPanel:
    """Until a form is open (a dialog on top, or the form at the foot of the round screen) with each of its
    fields mounted and the first taking keys (a form's rows may be made a moment later); the form."""
    app = pilot.app

    def ready() -> bool:
        form = open_form_of(app)
        return (
            form is not None
            and (not isinstance(form, FormPanel) or form.takes_keys)
            and all(form.query(f"#{_widget_id(index, field.key)}") for index, field in enumerate(form.fields))
        )

    await until(pilot, ready, what)
    form = open_form_of(app)
    assert form is not None
    return form


async def until_prompt(pilot: Pilot[None], what: str = "the amount prompt") -> AmountPrompt:
    """Until the round screen's amount prompt is open and drawn; the prompt."""
    app = pilot.app
    await until(
        pilot,
        lambda: isinstance(app.screen, RoundScreen) and app.screen.amount_prompt.is_open and settled(app.screen),
        what,
    )
    assert isinstance(app.screen, RoundScreen)
    return app.screen.amount_prompt


async def until_prompt_closed(pilot: Pilot[None], what: str = "the amount taken") -> None:
    """Until the amount prompt has closed (what was typed was taken) and the round screen shows it; one that
    refuses what it was given fails this, with its complaint."""
    app = pilot.app
    await until(
        pilot,
        lambda: isinstance(app.screen, RoundScreen) and not app.screen.amount_prompt.is_open and settled(app.screen),
        what,
        describe=lambda: (
            f"the prompt says: {prompt_error(app)}"
            if isinstance(app.screen, RoundScreen) and app.screen.amount_prompt.is_open
            else f"the screen is {type(app.screen).__name__}"
        ),
    )


async def until_closed(pilot: Pilot[None], form: Screen[Any] | FieldsForm, what: str = "the form to close") -> None:
    """Until ``form`` is closed and the screen under it has run what the form's result set going (its
    callback runs a moment after the form is gone); a form that refuses what it was given fails this,
    with its complaint."""
    app = pilot.app

    def closed() -> bool:
        gone = not form.is_open if isinstance(form, FormPanel) else app.screen is not form
        return gone and settled(app.screen)

    await until(
        pilot,
        closed,
        what,
        describe=lambda: (
            f"the form says: {dialog_error(app)}"
            if open_form_of(app) is form
            else f"the screen is {type(app.screen).__name__}"
        ),
    )


async def open_form(pilot: Pilot[None], key: str) -> FormDialog | FormPanel:
    """Press ``key``; the form it opens."""
    await pilot.press(key)
    return await until_form(pilot, f"the form {key} opens")


async def select(pilot: Pilot[None], cid: str) -> None:
    """Move the order list's highlight with the arrows until ``cid`` is selected."""
    order = pilot.app.screen.query_one(OrderList)
    await until(pilot, lambda: order.option_count > 0, "the order list's rows")
    ids = [(order.get_option_at_index(i).id or "").split("#")[0] for i in range(order.option_count)]
    assert cid in ids, ids
    key = "down" if ids.index(cid) > (order.highlighted or 0) else "up"
    for _ in range(order.option_count):
        if selected(pilot.app) == cid:
            break
        await pilot.press(key)
    await until(pilot, lambda: selected(pilot.app) == cid, f"{cid} selected (now {selected(pilot.app)})")


async def leave_damage(pilot: Pilot[None]) -> bool:
    """Esc on the damage prompt a hit opens, if the attack hit (the dice decide): True when there was one.
    Waits until the attack form is gone and the screen under it has run what its closing set going (the
    prompt is opened from there)."""
    app = pilot.app

    def damage_prompt() -> bool:
        screen = app.screen
        return isinstance(screen, RoundScreen) and screen.amount_prompt.is_open

    await until(
        pilot, lambda: damage_prompt() or (open_form_of(app) is None and settled(app.screen)), "the attack taken"
    )
    if damage_prompt():
        await pilot.press("escape")
        await until_prompt_closed(pilot, "the damage prompt left")
        return True
    return False


async def until_footer(pilot: Pilot[None]) -> KeyFooter:
    """Until the screen's footer shows the keys its bindings call for now, laid out (or leaves some out, for
    want of room: :attr:`KeyFooter.left_out`): the footer composes its keys a refresh after the screen's
    bindings change (a screen shown, a row highlighted, a step taken), so until then it is empty or shows the
    keys of before; a key that took on another may wait for its new width to be laid out."""
    app = pilot.app

    def current() -> bool:
        footer = app.screen.query_one(KeyFooter)
        keys = shown_keys(footer)
        shown = {key.action for key in keys if not key.palette}
        shown |= set(getattr(footer, "left_out", ()))
        wanted = {
            binding.action for _node, binding, _enabled, _tip in app.screen.active_bindings.values() if binding.show
        }
        laid_out = footer.region.width > 0
        return bool(keys) and shown == wanted and laid_out and all(key.region.width > 0 for key in keys)

    await until(pilot, current, "the footer's keys")
    return app.screen.query_one(KeyFooter)


async def footer_now(pilot: Pilot[None]) -> str:
    """:func:`footer_text` once the footer shows the keys that apply now."""
    await until_footer(pilot)
    return footer_text(pilot.app)
