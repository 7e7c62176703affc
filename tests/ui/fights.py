"""Saved fights for the interface tests, built with the engine (no keys pressed): a session in the resolve
step of round 1 of an AD&D 2e fight, the party acting first."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from textual.pilot import Pilot

from tests.waiting import until as wait_until
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.dice import Roll
from tui_combat.engine.model import State
from tui_combat.fight.store import Store, new_state
from tui_combat.saves.locations import sessions_dir
from tui_combat.screens.round import RoundScreen
from tui_combat.testing.pilot import opened

PARTY_SIDE, MONSTER_SIDE = "s1", "s2"


def round_state(party: list[str], monsters: int, monster_name: str = "Orc", name: str = "Ambush") -> State:
    """Round 1, resolve step: ``party`` (one combatant each, 20 HP) acts at initiative 3, then ``monsters``
    of ``monster_name`` (8 HP each, in groups of at most 500) at 7."""
    state = new_state(seed=1, ruleset="adnd2e")
    steps: list[a.Action] = [
        a.SetName(name=name),
        a.SetRuleset(ruleset="adnd2e"),
        a.AddSide(name="Party", is_party=True),
        a.AddSide(name="Monsters"),
    ]
    steps += [
        a.AddCombatants(side=PARTY_SIDE, name=hero, hp=20, sheet={"cls": "warrior", "level": 3}) for hero in party
    ]
    left = monsters
    while left:
        count = min(left, 500)
        steps.append(
            a.AddCombatants(
                side=MONSTER_SIDE, name=monster_name, hp=8, count=count, sheet={"cls": "monster", "level": 1}
            )
        )
        left -= count
    steps += [
        a.BeginSurprise(),
        a.StartFight(),
        a.NextStep(),
        a.NextStep(),
        a.RollInitiative(
            rolls={
                PARTY_SIDE: Roll(expr="1d10", total=3, faces=(3,)),
                MONSTER_SIDE: Roll(expr="1d10", total=7, faces=(7,)),
            }
        ),
    ]
    for action in steps:
        state = apply(state, action)
    assert state.phase == "round" and len(state.order) == 2, (state.phase, state.order)
    return state


def saved_round(data_root: Path, key: str, party: list[str], monsters: int, monster_name: str = "Orc") -> Path:
    """The fight of :func:`round_state` saved as the session ``key``; returns its folder."""
    folder = sessions_dir(data_root) / key
    Store.create(round_state(party, monsters, monster_name), folder).close()
    return folder


# -- waiting for the app ------------------------------------------------------------------------------
async def until(pilot: Pilot[None], condition: Callable[[], object], what: str) -> None:
    """Let the app work until ``condition`` holds (see :func:`tests.waiting.until`)."""
    await wait_until(pilot, condition, what)


async def opened_round(pilot: Pilot[None]) -> RoundScreen:
    """Until the session the app was started on is open, on its round screen."""
    await opened(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, RoundScreen)
    return screen


async def until_help(pilot: Pilot[None]) -> list[tuple[str, str]]:
    """Until the help is open with its rows: the round's panel over its screen, any other screen's help screen.
    Its rows, (keys, description) each, in order."""
    from textual.widgets import DataTable

    from tui_combat.screens.help import HelpScreen

    app = pilot.app
    rows: list[tuple[str, str]] = []

    def shown() -> bool:
        screen = app.screen
        if isinstance(screen, RoundScreen):
            rows[:] = screen.help_panel.rows if screen.help_panel.is_open else []
        elif isinstance(screen, HelpScreen):
            table = screen.query_one(DataTable)
            rows[:] = [(str(row[0]), str(row[1])) for row in map(table.get_row_at, range(table.row_count))]
        return bool(rows)

    await wait_until(pilot, shown, "the help and its rows")
    return rows


def help_closed(app: CombatApp) -> bool:
    """No help is open: neither the round's panel nor a help screen."""
    from tui_combat.screens.help import HelpScreen

    screen = app.screen
    return not isinstance(screen, HelpScreen) and not (isinstance(screen, RoundScreen) and screen.help_panel.is_open)


def messages(app: CombatApp) -> list[str]:
    """The notifications shown so far, oldest first."""
    return [notification.message for notification in app._notifications]


def newest(app: CombatApp) -> str:
    """The identity of the notification given last ("" when none is shown): a message given again while it
    is shown takes the place of the one shown, under a new identity."""
    shown = list(app._notifications)
    return shown[-1].identity if shown else ""
