"""Key sequences shared by the interface tests: each helper presses real keys, as a GM would; and short
readers of what the screen shows."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.app import App
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Footer, Static
from textual.widgets._footer import FooterKey

from tui_combat.app import CombatApp
from tui_combat.screens.dialogs import ChoiceDialog, FormDialog
from tui_combat.screens.round import RoundScreen
from tui_combat.screens.setup import SetupScreen
from tui_combat.screens.surprise import SurpriseScreen
from tui_combat.store import Store
from tui_combat.widgets.budget import BudgetMeter
from tui_combat.widgets.order_list import OrderList

SEED = 1
SIZE = (80, 24)
PARTY = "s1"
MONSTERS = "s5"


def session_folders(data_root: Path) -> list[Path]:
    folder = data_root / "sessions"
    return sorted(child for child in folder.iterdir() if child.is_dir()) if folder.exists() else []


def store(app: CombatApp) -> Store:
    assert app.store is not None, "no session is open"
    return app.store


def dialog_error(app: CombatApp) -> str:
    """The plain text under the open form (empty when the form has no complaint)."""
    assert isinstance(app.screen, FormDialog), f"no form is open but {type(app.screen).__name__}"
    return str(app.screen.query_one("#dialog-error", Static).render()).strip()


def visible_text(widget: Widget) -> str:
    """What the widget shows on the terminal, line by line: text cut off by its size is not there."""
    strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return "\n".join(strip.text.rstrip() for strip in strips)


def combatant_id(app: CombatApp, name: str) -> str:
    return next(c.id for c in store(app).state.combatants if c.name == name)


def log_texts(app: CombatApp) -> list[str]:
    """The text of every log entry of the session, in order."""
    return [entry.text for entry in store(app).state.log_entries()]


def footer_text(app: App[Any]) -> str:
    """The descriptions of the keys the footer shows now."""
    return " · ".join(key.description for key in app.screen.query_one(Footer).query(FooterKey))


def budget_text(app: App[Any]) -> str:
    """The budget meter as rendered."""
    return str(app.screen.query_one("#budget", BudgetMeter).render())


def selected(app: App[Any]) -> str | None:
    """The combatant highlighted in the order list."""
    return app.screen.query_one(OrderList).selected_combatant()


async def open_demo(pilot: Pilot[None]) -> None:
    """Session list → Enter on its only row, the demo → set-up."""
    await pilot.press("enter")
    assert isinstance(pilot.app.screen, SetupScreen), type(pilot.app.screen).__name__


async def to_surprise(pilot: Pilot[None]) -> None:
    await open_demo(pilot)
    await pilot.press("c")
    assert isinstance(pilot.app.screen, SurpriseScreen), type(pilot.app.screen).__name__


async def to_round(pilot: Pilot[None], party: str = "5", monsters: str = "8") -> None:
    """Demo → set-up → surprise typed from physical dice (5 and 8: nobody surprised) → round 1."""
    await to_surprise(pilot)
    await pilot.press("t")
    assert isinstance(pilot.app.screen, FormDialog)
    await pilot.press(*party, "enter", *monsters, "enter")
    assert isinstance(pilot.app.screen, SurpriseScreen), dialog_error(pilot.app)  # type: ignore[arg-type]
    await pilot.press("c")
    assert isinstance(pilot.app.screen, RoundScreen), type(pilot.app.screen).__name__


async def type_initiative(pilot: Pilot[None], party: str, monsters: str) -> None:
    """From the round's first step: n, n to the initiative step, t, then the two sides' d10s."""
    await pilot.press("n", "n", "t")
    assert isinstance(pilot.app.screen, FormDialog), type(pilot.app.screen).__name__
    await pilot.press(*party, "enter", *monsters, "enter")
    assert isinstance(pilot.app.screen, RoundScreen), dialog_error(pilot.app)  # type: ignore[arg-type]


async def choose(pilot: Pilot[None], value: str) -> None:
    """In an open ChoiceDialog, move the highlight to ``value`` with the arrows and press Enter."""
    screen = pilot.app.screen
    assert isinstance(screen, ChoiceDialog), type(screen).__name__
    values = [choice for choice, _label in screen.choices]
    current = values.index(screen.current) if screen.current in values else 0
    steps = values.index(value) - current
    await pilot.press(*(["down"] * steps if steps > 0 else ["up"] * -steps), "enter")


async def to_round_from_setup(pilot: Pilot[None], mark: int | None = None) -> None:
    """An encounter opened on set-up (waiting for it to show) → surprise, where nobody is surprised unless
    the row ``mark`` is marked → round 1."""
    await pilot.pause()
    for _ in range(50):
        if isinstance(pilot.app.screen, SetupScreen):
            break
        await pilot.pause()
    assert isinstance(pilot.app.screen, SetupScreen), type(pilot.app.screen).__name__
    await pilot.press("c")
    assert isinstance(pilot.app.screen, SurpriseScreen), type(pilot.app.screen).__name__
    if mark is not None:
        await pilot.press(*["down"] * mark, "s")
    await pilot.press("c")
    assert isinstance(pilot.app.screen, RoundScreen), type(pilot.app.screen).__name__
    await pilot.pause()


async def open_form(pilot: Pilot[None], key: str) -> FormDialog:
    """Press ``key``; the form it opens."""
    await pilot.press(key)
    await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, FormDialog), type(screen).__name__
    return screen


async def select(pilot: Pilot[None], cid: str) -> None:
    """Move the order list's highlight with the arrows until ``cid`` is selected."""
    order = pilot.app.screen.query_one(OrderList)
    ids = [(order.get_option_at_index(i).id or "").split("#")[0] for i in range(order.option_count)]
    assert cid in ids, ids
    key = "down" if ids.index(cid) > (order.highlighted or 0) else "up"
    for _ in range(order.option_count):
        if selected(pilot.app) == cid:
            break
        await pilot.press(key)
    assert selected(pilot.app) == cid, (selected(pilot.app), cid)


async def leave_damage(pilot: Pilot[None]) -> bool:
    """Esc on the damage form a hit opens, if the attack hit (the dice decide): True when there was one."""
    await pilot.pause()
    screen = pilot.app.screen
    if isinstance(screen, FormDialog) and [f.key for f in screen.fields] in (["damage"], ["amount"]):
        await pilot.press("escape")
        return True
    return False
