"""The command palette (ctrl+p): every key of the current screen, in the GM's language."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from rich.align import Align
from rich.text import Text
from textual.actions import parse
from textual.app import SystemCommand
from textual.command import CommandList, CommandPalette
from textual.screen import Screen
from textual.visual import VisualType
from textual.widgets.option_list import Option

from tui_combat.i18n import _
from tui_combat.i18n.textual_words import PALETTE_NO_MATCHES, PALETTE_PLACEHOLDER, THEME_PLACEHOLDER
from tui_combat.running.base import AppBase


class TranslatedCommandPalette(CommandPalette):
    """Textual's command palette, saying "No matches found" in the GM's language: Textual adds the words to
    its list of commands itself, as a disabled option, half a second after a search that found nothing; the
    list adds ours in their place."""

    def on_mount(self) -> None:
        results = self.query_one(CommandList)
        add_option = results.add_option

        def add_translated(option: Option | VisualType | None = None) -> CommandList:
            if isinstance(option, Option) and option.disabled and says_no_matches(option.prompt):
                option = Option(
                    Align.center(Text(_(PALETTE_NO_MATCHES), style="not bold")), id=option.id, disabled=True
                )
            return add_option(option)

        results.add_option = add_translated  # type: ignore[method-assign]


def says_no_matches(prompt: object) -> bool:
    """Whether an option's prompt is Textual's "No matches found" (centred, in English: our message id)."""
    return (
        isinstance(prompt, Align)
        and isinstance(prompt.renderable, Text)
        and prompt.renderable.plain == PALETTE_NO_MATCHES
    )


class PalettePart(AppBase):
    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The palette (ctrl+p) offers every key of the current screen, shown in the footer or not."""
        from tui_combat.screens.help import described_bindings

        titles: set[str] = set()
        for command in super().get_system_commands(screen):  # Textual's words, through the catalog
            titles.add(_(command.title))
            yield command._replace(title=_(command.title), help=_(command.help))
        for keys, binding in described_bindings(screen):
            if binding.description not in titles:  # "Quit" is Textual's already
                yield SystemCommand(binding.description, keys, partial(self._run_from_palette, screen, binding.action))
        yield SystemCommand(
            _("Settings"), _("Theme, language, the players' screen's words for health, keys"), self.action_settings
        )

    def action_command_palette(self) -> None:
        if self.use_command_palette and not any(isinstance(screen, CommandPalette) for screen in self.screen_stack):
            self.push_screen(TranslatedCommandPalette(id="--command-palette", placeholder=_(PALETTE_PLACEHOLDER)))

    def search_themes(self) -> None:
        """The theme picker (the palette's "Theme"), its prompt in the GM's language."""
        from textual.theme import ThemeProvider

        self.push_screen(TranslatedCommandPalette(providers=[ThemeProvider], placeholder=_(THEME_PLACEHOLDER)))

    async def _run_from_palette(self, screen: Screen[object], action: str) -> None:
        """Run a key's action as the key would; one that does not apply now says so instead of nothing."""
        _target, name, parameters = parse(action)
        if screen.check_action(name, parameters) is False:
            self.notify(_("That cannot be done now."), severity="warning", timeout=4)
            return
        await screen.run_action(action)
