"""Every screen and dialog of every ruleset at 80×24, in English, Russian and Ukrainian: the session list,
the set-up and its forms, the surprise screen, each step of the first round with the form or dialog of each
key its footer offers, help, settings, the library picker, the fight report and the look-back screen.

Nothing on them is cut (a label whose text does not fit its cell, a placeholder wider than its field), no
English word is left in Russian or Ukrainian outside the allow-list (key names, dice, the abbreviations the
seeds write in Latin letters), no raw catalog header shows, and every key the footer offers does
something when pressed."""

from __future__ import annotations

import re
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from textual.command import CommandPalette
from textual.pilot import Pilot

from tests.i18n.interface import SIZE, interface_in, make_app, screen_name
from tests.i18n.walk import drawn, footer, inspect, press_and_see, screen_text
from tests.i18n.walk_known import KNOWN
from tests.waiting import until
from tui_combat.fight import session
from tui_combat.fight.session import DEMOS

LANGUAGES = ("en", "ru", "uk")
STEPS = 10
"""Steps of the round walked at most (the demos reach round 2 sooner, or have shown every kind of step)."""
MOVES_ON = frozenset({"begin", "start", "next", "leave", "quit", "app.quit", "open", "cancel", "close"})
"""Footer keys that leave the screen for the next one of the walk: pressed by the walk itself."""
EXTRA_KEYS = {
    "SetupScreen": ("l", "f2", "o"),
    "SurpriseScreen": ("m", "f1"),
    "RoundScreen": ("h", "x", "i", "O", "E", "R", "L", "f1"),
}
"""Keys kept out of the footer (they are in help and the palette) whose dialogs the walk opens too, where
the screen offers them (5e has no surprise modifiers). The settings (f3) are the same for every fight: the
session list's walk opens them."""
SAME_IN_EVERY_FIGHT = {"SetupScreen": ("w", "f1")}
"""Keys whose dialogs say the same whatever the rules (the set-up's help, saving it as an encounter file): the
first demo's walk opens them, in each language."""


def kind(finding: str) -> str:
    """A finding without what changes from run to run: step numbers, folders."""
    finding = re.sub(r" step \d+", " step", finding)
    return re.sub(r"/tmp/\S*", "…", finding)


def assert_known(found: list[str], prefix: tuple[str, ...]) -> None:
    """Every finding is a known fault (:data:`KNOWN`), and every known fault of these screens (their
    findings start with ``prefix``) is still found: one that is gone must leave the list."""
    known = [finding for finding in KNOWN if finding.startswith(prefix)]
    kinds = sorted(set(kind(finding) for finding in found))
    new = [finding for finding in kinds if finding not in known]
    gone = [finding for finding in known if finding not in kinds]
    assert not new and not gone, "\n".join(["new faults:", *new, "fixed, to leave KNOWN:", *gone])


class Walk:
    def __init__(self, pilot: Pilot[Any], lang: str) -> None:
        self.pilot = pilot
        self.lang = lang
        self.found: list[str] = []
        self.keys_seen: set[tuple[str, ...]] = set()

    def where(self, *parts: str) -> str:
        return f"[{self.lang}] " + " / ".join(parts)

    async def inspect(self, *parts: str, allowed: tuple[str, ...] = ()) -> None:
        self.found += await inspect(self.pilot, self.where(*parts), self.lang, allowed)

    async def back_to(self, screen: object) -> None:
        app = self.pilot.app
        for _ in range(6):
            if app.screen is screen:
                return
            depth = len(app.screen_stack)
            await self.pilot.press("escape")
            await until(
                self.pilot,
                lambda: len(app.screen_stack) < depth or app.screen is screen,
                "the dialog closing",
                seconds=5,
            )
        await until(self.pilot, lambda: app.screen is screen, "back on the screen walked")

    async def keys_of(self, place: str, extra: tuple[str, ...] = ()) -> None:
        """Each footer key of the screen now shown (and ``extra``): what it opens is inspected and closed."""
        screen = self.pilot.app.screen
        pressed: set[str] = set()
        shown = [(key.key, key.action, key.description) for key in footer(self.pilot)]
        seen = (place.split(" step ")[0], *sorted(action for _key, action, _d in shown), *extra)
        if seen in self.keys_seen:  # the same keys on a later step of the round: their dialogs are seen
            return
        self.keys_seen.add(seen)
        active = self.pilot.app.active_bindings
        offered = [key for key in extra if key in active and active[key].enabled]  # not a key this book leaves out
        for key, action, description in shown + [(key, "", key) for key in offered]:
            name = action.rpartition(".")[2].split("(")[0]
            if name in MOVES_ON or key in pressed or self.pilot.app.screen is not screen:
                continue
            if action and action not in {shown_now.action for shown_now in footer(self.pilot)}:
                continue  # gone from the footer since an earlier key (a roll that ended the step)
            pressed.add(key)
            changed = await press_and_see(self.pilot, key)
            if not changed and action:
                step = getattr(screen, "step_kind", lambda: "")()
                self.found.append(f"{self.where(place)}: key {key} ({description}) does nothing ({step})")
            prompt = getattr(screen, "amount_prompt", None)
            if prompt is not None and prompt.is_open:  # damage, healing: asked over the footer
                await self.inspect(place, f"{key} → the amount prompt")
                await self.pilot.press("escape")
                await until(self.pilot, lambda: not prompt.is_open, "the prompt left", seconds=5)
            for form in (getattr(screen, "form_panel", None), getattr(screen, "add_panel", None)):
                if form is not None and form.is_open:  # what a combatant does, or who comes: asked at the foot
                    await until(self.pilot, lambda: form.takes_keys, "the form's rows", seconds=5)
                    await self.inspect(place, f"{key} → the form at the foot")
                    await self.pilot.press("escape")
                    await until(self.pilot, lambda: not form.is_open, "the form left", seconds=5)
            panel = getattr(screen, "help_panel", None)
            if panel is not None and panel.is_open:  # help over the round: a panel of the screen
                await self.inspect(place, f"{key} → the help")
                await self.pilot.press("escape")
                await until(self.pilot, lambda: not panel.is_open, "the help closed", seconds=5)
            if self.pilot.app.screen is not screen:
                await self.inspect(place, f"{key} → {screen_name(self.pilot)}")
                await self.back_to(screen)


async def walk_fight(pilot: Pilot[Any], lang: str, ruleset: str) -> list[str]:
    walk = Walk(pilot, lang)
    await until(pilot, lambda: screen_name(pilot) == "SetupScreen", "the set-up")
    await walk.inspect(ruleset, "set-up")
    once = SAME_IN_EVERY_FIGHT["SetupScreen"] if ruleset == DEMOS[0].ruleset else ()
    await walk.keys_of(f"{ruleset} set-up", EXTRA_KEYS["SetupScreen"] + once)
    await pilot.press("c")
    await until(pilot, lambda: screen_name(pilot) == "SurpriseScreen", "the surprise screen")
    await walk.inspect(ruleset, "surprise")
    await walk.keys_of(f"{ruleset} surprise", EXTRA_KEYS["SurpriseScreen"])
    await walk.inspect(ruleset, "surprise after its keys")
    await pilot.press("c")
    await until(pilot, lambda: screen_name(pilot).startswith("RoundScreen"), "the round")
    store = pilot.app.store
    for step in range(STEPS):
        await walk.inspect(ruleset, f"round step {step}")
        await walk.keys_of(f"{ruleset} round step {step}", EXTRA_KEYS["RoundScreen"] if step == 0 else ())
        if store.state.round > 1:
            break
        screen = pilot.app.screen
        before = (store.state.round, store.state.step, store.state.cursor)
        await press_and_see(pilot, "n")
        if pilot.app.screen is screen and (store.state.round, store.state.step, store.state.cursor) == before:
            await pilot.press("r")  # a step that wants its rolls first (n said so, or did nothing)
            await press_and_see(pilot, "n")
        if pilot.app.screen is not screen:  # a step that asks (a choice, a form): seen, then left
            await walk.inspect(ruleset, f"round step {step} → {screen_name(pilot)}")
            await walk.back_to(screen)
            await pilot.press("r")
            await press_and_see(pilot, "n")
    await pilot.press("escape")
    await until(pilot, lambda: screen_name(pilot) == "SessionsScreen", "the session list")
    await walk.inspect(ruleset, "session list with the fight")
    await pilot.press("w")
    await until(pilot, lambda: screen_name(pilot) == "RewindScreen", "the look-back screen")
    await walk.inspect(ruleset, "look-back")
    await walk.keys_of(f"{ruleset} look-back")
    return walk.found


@pytest.mark.slow
@pytest.mark.parametrize("demo", DEMOS, ids=[demo.ruleset for demo in DEMOS])
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_every_screen_of_a_fight_reads_whole(lang: str, demo: Any, data_root: Path) -> None:
    with interface_in(lang) as module:
        app = make_app(module, data_root)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: screen_name(pilot) == "SessionsScreen", "the session list")
            # As d does for the first demo: the demo in the GM's language.
            app.open_session(partial(session.open_demo, data_root, demo.file_name, seed=app.seed))
            found = await walk_fight(pilot, lang, demo.ruleset)
    assert_known(found, (f"[{lang}] {demo.ruleset}",))


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_the_session_list_and_a_new_fight_read_whole(lang: str, data_root: Path) -> None:
    with interface_in(lang) as module:
        app = make_app(module, data_root)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: screen_name(pilot) == "SessionsScreen", "the session list")
            walk = Walk(pilot, lang)
            await walk.inspect("session list")
            await walk.keys_of("session list", ("f1", "f3", "d"))
            await pilot.press("n")
            await until(pilot, lambda: screen_name(pilot) != "SessionsScreen", "a new fight")
            await walk.inspect("new fight", screen_name(pilot))
            await pilot.press("ctrl+p")
            await until(pilot, lambda: isinstance(pilot.app.screen, CommandPalette), "the palette")
            await pilot.press(*"zzqq")
            await until(pilot, lambda: "zzqq" in str(pilot.app.screen.query_one("Input").value), "the search")
            await until(
                pilot,
                lambda: pilot.app.screen.query_one("CommandList").option_count > 0,
                "the palette saying it found nothing",
            )
            await walk.inspect("palette, nothing found", allowed=("zzqq",))
            # Closed once its search is done: a search still running as the app closes finds no list to fill.
            palette = pilot.app.screen
            await until(
                pilot,
                lambda: all(worker.is_finished for worker in pilot.app.workers if worker.node is palette),
                "the palette's search done",
            )
            await pilot.press("escape")
            await until(pilot, lambda: pilot.app.screen is not palette, "the palette closed")
    assert_known(walk.found, tuple(f"[{lang}] {where}" for where in ("session list", "new fight", "palette")))


@pytest.mark.slow
@pytest.mark.parametrize("large", [False, True], ids=["normal", "large"])
@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_the_players_screen_reads_whole(lang: str, large: bool, data_root: Path, tmp_path: Path) -> None:
    """The players' screen of each demo at 80×24 in its first round, someone hurt and someone out: its head on
    its lines, nothing cut, no English word."""
    from tui_combat.engine import actions as a
    from tui_combat.screens.player_view import PlayerViewApp

    found: list[str] = []
    for demo in DEMOS:
        with interface_in(lang):
            store = session.open_demo(data_root, demo.file_name, seed=1)
        assert store.folder is not None
        key = store.folder.folder.name
        store.dispatch(a.StartFight())
        first, second, *_rest = [c for c in store.state.combatants if c.hp > 1]
        store.dispatch(a.Damage(combatant=first.id, amount=first.hp // 2))
        store.dispatch(a.SetStatus(combatant=second.id, status="fled"))
        name = store.state.name
        store.close()
        with interface_in(lang):
            viewer = PlayerViewApp(
                data_root,
                key,
                settings_path=tmp_path / "none.toml",
                poll_seconds=0.02,
                handle_hangup=False,
                large=large,
            )
            async with viewer.run_test(size=SIZE) as view:
                await until(view, lambda: second.name in screen_text(view.app.screen), "the players' screen")
                found += await inspect(view, f"{demo.ruleset} players' screen", lang)
                if not large:
                    assert name in screen_text(view.app.screen)
                    head = drawn(view.app.screen.query_one("#view-head")).splitlines()
                    steps = [step.label for step in view.app.screen.view.steps]
                    broken = [step for step in steps if not any(step in line for line in head)]
                    assert not broken, (head, broken)  # a step's name on one line, never broken across two
    assert not found, "\n".join(found)
