"""Keys that come and go change the footer in the frame of the key that changed them: the footer is one line
that redraws the cells that changed, nothing is mounted or removed. Textual's footer composed its row anew a
refresh later, a frame of its own some 40 ms after the key."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.pilot import Pilot
from textual.screen import Screen

from tests.ui.fights import opened_round
from tests.ui.steps import SIZE, store, to_round, until_footer
from tests.ui.test_attack_flow import fight
from tests.waiting import settled, until
from tui_combat.app import CombatApp
from tui_combat.fight.store import Store
from tui_combat.saves.locations import sessions_dir
from tui_combat.screens.round import RoundScreen
from tui_combat.widgets.footer import KeyFooter, ShownKey, shown_keys


def shown(screen: RoundScreen) -> list[str]:
    return [key.action for key in shown_keys(screen.query_one(KeyFooter)) if not key.palette]


def wanted(screen: RoundScreen) -> list[str]:
    footer = screen.query_one(KeyFooter)
    actions = dict.fromkeys(
        binding.action for _node, binding, _enabled, _tip in screen.active_bindings.values() if binding.show
    )
    return [action for action in actions if action not in footer.left_out]


async def round_screen(pilot: Pilot[None]) -> RoundScreen:
    await to_round(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, RoundScreen)
    await until_footer(pilot)
    await until(pilot, lambda: settled(screen), "the round settled")
    return screen


async def test_each_step_shows_its_keys_at_once_with_the_keys_already_there(make_app: Callable[..., CombatApp]) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await round_screen(pilot)
        footer = screen.query_one(KeyFooter)
        steps = []
        for _ in range(2):  # the monsters' declarations → the players' → initiative
            before = store(app).state.step
            screen.action_next()  # no await: what the footer shows is seen as the key's frame would draw it
            assert store(app).state.step != before
            steps.append(shown(screen))
            assert shown(screen) == wanted(screen), (shown(screen), wanted(screen))
            await until(pilot, lambda: settled(screen), "the step settled")
        assert len({tuple(row) for row in steps}) > 1, steps  # the keys did change from step to step
        assert not footer.children  # one line of its own: nothing mounted, nothing removed
        assert all(key.region.width > 0 for key in shown_keys(footer))


async def test_the_footer_back_after_the_prompt_shows_the_keys_of_now(make_app: Callable[..., CombatApp]) -> None:
    """The damage prompt lies over the footer; Enter applies it and the footer shows again with the keys of
    now (Undo among them), drawn whole."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await round_screen(pilot)
        footer = screen.query_one(KeyFooter)
        await pilot.press("d")
        await until(pilot, lambda: screen.amount_prompt.is_open and footer.covered, "the prompt")
        await pilot.press("3", "enter")
        await until(
            pilot,
            lambda: not screen.amount_prompt.is_open and not footer.covered and settled(screen),
            "the footer back",
        )
        assert shown(screen) == wanted(screen)
        assert "undo" in shown(screen)
        assert all(key.region.width > 0 for key in shown_keys(footer))


async def test_undo_stands_in_the_row_dimmed_until_there_is_something_to_undo(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    """Undo is in the footer from the fight's first key, dimmed while nothing is done; the first action lights
    it, and the keys around it stay where they were (a key coming into the middle of the row moved the keys
    after it, each laid out and drawn again)."""
    Store.create(fight("adnd2e"), sessions_dir(data_root) / "hammer").close()
    app = make_app(resume="hammer")
    async with app.run_test(size=SIZE) as pilot:
        screen = await opened_round(pilot)
        await until_footer(pilot)
        await until(pilot, lambda: settled(screen), "the round settled")
        footer = screen.query_one(KeyFooter)
        assert not store(app).can_undo
        row = shown(screen)
        undo = next(key for key in shown_keys(footer) if key.action == "undo")
        assert undo.disabled
        state = store(app).state
        await pilot.press("u")  # nothing to undo: nothing happens
        await until(pilot, lambda: settled(screen), "the key taken")
        assert store(app).state is state
        await pilot.press("n")
        await until(pilot, lambda: store(app).can_undo and settled(screen), "the first action")
        undo = next(key for key in shown_keys(footer) if key.action == "undo")
        assert not undo.disabled
        assert shown(screen) == row


class Growing(Screen[None]):
    """One key, then eight."""

    BINDINGS = [Binding(key, f"say('{key}')", f"Say {key}", id=f"test.say-{key}") for key in "abcdefgh"]
    many = False

    def compose(self) -> ComposeResult:
        yield KeyFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.many or parameters == ("a",)

    def action_say(self, key: str) -> None:
        self.notify(key)


def keys_of(footer: KeyFooter) -> list[ShownKey]:
    return [key for key in shown_keys(footer) if not key.palette]


async def growing_from_one_key(pilot: Pilot[None]) -> tuple[Growing, KeyFooter]:
    """A :class:`Growing` screen pushed, its footer showing its one key."""
    screen = Growing()
    await pilot.app.push_screen(screen)
    footer = screen.query_one(KeyFooter)
    await until(pilot, lambda: [key.key for key in keys_of(footer)] == ["a"], "the one key")
    return screen, footer


async def test_keys_coming_are_drawn_in_their_place_with_their_words() -> None:
    app: App[None] = App()
    async with app.run_test(size=(100, 10)) as pilot:
        screen, footer = await growing_from_one_key(pilot)
        screen.many = True
        screen.refresh_bindings()
        await until(pilot, lambda: len(keys_of(footer)) == 8, "the eight keys")
        assert [(key.key, key.description) for key in keys_of(footer)] == [(key, f"Say {key}") for key in "abcdefgh"]
        assert all(key.region.width > 0 for key in shown_keys(footer))


async def test_keys_coming_leave_the_keys_already_drawn_alone() -> None:
    """Keys added after the first leave it as it was drawn: only the cells after it are redrawn."""
    app: App[None] = App()
    async with app.run_test(size=(100, 10)) as pilot:
        screen, footer = await growing_from_one_key(pilot)
        await until(pilot, lambda: settled(screen), "the key drawn")
        first = keys_of(footer)[0]
        regions: list[tuple[Any, ...]] = []
        refresh = footer.refresh

        def noted(*dirty: Any, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Any:
            regions.append(dirty)
            return refresh(*dirty, repaint=repaint, layout=layout, recompose=recompose)

        footer.refresh = noted  # type: ignore[method-assign]
        screen.many = True
        screen.refresh_bindings()
        await until(pilot, lambda: len(keys_of(footer)) == 8 and settled(screen), "the eight keys")
        assert keys_of(footer)[0] == first
        assert regions and all(dirty for dirty in regions), regions  # never the whole line
        assert all(region.x >= first.region.right - footer.region.x for dirty in regions for region in dirty), regions
