"""The words Textual itself shows in this app (the command palette's system commands, its search prompt and
what it says when nothing matches, the theme picker's prompt, the footer's palette key), so that the
extractor puts them in the catalogs. The app passes them through ``_()`` where it hands them to Textual. The texts
are Textual 8's; one a later Textual changes simply shows in English until the catalogs are updated."""

from __future__ import annotations

from tui_combat.i18n import N_

PALETTE_PLACEHOLDER = N_("Search for commands…")
PALETTE_NO_MATCHES = N_("No matches found")
THEME_PLACEHOLDER = N_("Search for themes…")
PALETTE_KEY = N_("palette")
PALETTE_TOOLTIP = N_("Open the command palette")

SYSTEM_COMMANDS = (
    N_("Bell"),
    N_("Ring the bell"),
    N_("Theme"),
    N_("Change the current theme"),
    N_("Quit"),
    N_("Quit the application as soon as possible"),
    N_("Keys"),
    N_("Hide the keys and widget help panel"),
    N_("Show help for the focused widget and a summary of available keys"),
    N_("Minimize"),
    N_("Minimize the widget and restore to normal size"),
    N_("Maximize"),
    N_("Maximize the focused widget"),
    N_("Screenshot"),
    N_("Save an SVG 'screenshot' of the current screen"),
)
