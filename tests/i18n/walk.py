"""What a GM meets on a screen at 80×24, read from what is drawn: labels cut by their cells, English words
left in a Russian or Ukrainian screen, a raw catalog header, and footer keys that do nothing when pressed.

Every finding is a line of text naming the screen it was seen on; a walk collects them and the test
shows them all at once, so one run lists every fault rather than the first."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable
from typing import Any

from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import DataTable, Input, Static

from tests.waiting import settled, until
from tui_combat.widgets.amount_prompt import FIELD_WIDTH, AmountPrompt
from tui_combat.widgets.footer import KeyFooter, ShownKey, shown_keys
from tui_combat.widgets.lines import TextLines

LATIN_WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z']+(?![A-Za-z0-9_])")
DICE = re.compile(r"^(?:\d*[dDkк]\d+|d\d+)")
ALLOWED_LATIN = frozenset(
    {
        # Key names as the footer and the hints write them.
        "esc",
        "enter",
        "ctrl",
        "del",
        "delete",
        "tab",
        "shift",
        "space",
        "home",
        "end",
        "pgup",
        "pgdn",
        "up",
        "down",
        "left",
        "right",
        "escape",
        "backspace",
        "insert",
        "ins",
        # THAC0, as the Russian books label it («THAC0 (пробой)»); hit points, AC and NPCs are Cyrillic words.
        "thac",
        "nh",  # an OSE stat block's "save as" a normal human: "SV D14 W15 P16 B17 S18 (NH)", typed as printed
        # Names of the demo data and the program that stay as they are in every language.
        "tui",
        "combat",
        "textual",
        # The books' own names, as the seeds write them.
        "ad",
        "option",
        "player's",
        "trudvang",
        "ose",
        "dolmenwood",
        "old",
        "school",
        "essentials",
        # Formats and the words of the command line, written as typed.
        "markdown",
        "toml",
        "json",
        "encounters",
        # The keys of a weapon written in a sheet ("Club (im -2, actions 3)"), typed as they are.
        "im",
        "actions",
        "like",
        "group",
    }
)
COMMAND = re.compile(r"tui-combat(?: [a-z-]+)?|textual-[a-z-]+")
PATH = re.compile(r"\S*/\S*")
"""A folder or file (its parts wrapped onto the next line too): shown as it is in every language."""
HEADER_WORDS = ("Project-Id-Version", "Plural-Forms", "Content-Type:", "Generated-By")
QUIET_ACTIONS = frozenset({"command_palette"})
"""Footer keys whose effect is not on the screen of the app under test (the palette is its own walk)."""


def _plain(widget: Widget) -> str:
    rendered: Any = widget.render()
    plain = getattr(rendered, "plain", None)
    return str(plain if plain is not None else rendered)


def _words(text: str) -> list[str]:
    return text.replace("…", " ").split()


def drawn(widget: Widget) -> str:
    """The widget's lines as drawn in its region (what its size cuts off is not there)."""
    size = widget.outer_size
    if size.width <= 0 or size.height <= 0:
        return ""
    strips = widget.render_lines(Region(0, 0, size.width, size.height))
    return _unfolded([strip.text.rstrip() for strip in strips], size.width)


def _unfolded(lines: list[str], width: int) -> str:
    """The lines, with a path folded at the edge (``…/settings.to`` then ``ml``) back on one line: how long
    a path is depends on the machine, and its tail on the next line is no English word."""
    joined: list[str] = []
    for line in lines:
        previous = joined[-1] if joined else ""
        last = previous.rpartition(" ")[2]
        if "/" in last and len(previous) >= width - 4 and line.strip():
            joined[-1] = previous + line.lstrip()
        else:
            joined.append(line)
    return "\n".join(joined)


def leaves(screen: Widget) -> list[Widget]:
    return [
        w for w in screen.walk_children() if w.display and w.region.width > 0 and w.region.height > 0 and not w.children
    ]


def screen_text(screen: Widget, fields: bool = True) -> str:
    """What the screen draws; without ``fields``, leaving out what is typed in text fields (a folder), not
    their hints."""
    return "\n".join(
        drawn(widget) for widget in leaves(screen) if fields or not (isinstance(widget, Input) and widget.value)
    )


def prompt_cuts(prompt: AmountPrompt) -> list[str]:
    """The amount prompt's title and keys, drawn on the footer's row, when not all of them shows; its
    placeholder when wider than the field."""
    found = [
        f"prompt {part} cut: {want!r} shows as {prompt.shown(part)!r}"
        for part, want in (("title", prompt.title_text), ("keys", prompt.keys_text))
        if " ".join(_words(want)) not in " ".join(_words(prompt.shown(part)))
    ]
    if not prompt.value and len(prompt.placeholder) > FIELD_WIDTH:
        found.append(f"placeholder cut: {prompt.placeholder!r} in {FIELD_WIDTH} columns")
    return found


def cut_labels(screen: Widget, inputs: str = "all") -> list[str]:
    """Statics and texts (labels, notes, hints, the round's next move, footer keys, tick boxes) whose text is
    not all drawn, and fields whose
    placeholder is wider than the field (with ``inputs="focused"``, only the focused field's: a form shows
    the focused field's hint in full)."""
    found = []
    text = " ".join(_words(screen_text(screen)))  # a focused field's hint may be shown in full elsewhere
    for widget in leaves(screen):
        if isinstance(widget, Input):
            if inputs == "focused" and not widget.has_focus:
                continue
            if (
                widget.placeholder
                and not widget.value
                and len(widget.placeholder) > widget.content_size.width
                and not (widget.has_focus and widget.placeholder in " ".join(_words(text)))
            ):
                found.append(f"placeholder cut: {widget.placeholder!r} in {widget.content_size.width} columns")
            continue
        if isinstance(widget, KeyFooter) and widget.drawn_over:
            found.extend(prompt_cuts(widget.screen.amount_prompt))
            continue
        if isinstance(widget, KeyFooter):
            seen_keys = " ".join(_words(drawn(widget)))
            found.extend(
                f"footer key cut: {label!r}" for label in widget.labels() if " ".join(_words(label)) not in seen_keys
            )
            continue
        if isinstance(widget, Static) and not widget.has_class("arrow") or type(widget) is TextLines:
            wanted = _plain(widget)  # (a text of many lines scrolls: only one of a line or a few is read)
        else:
            continue
        want, seen = _words(PATH.sub(" ", wanted)), _words(PATH.sub(" ", drawn(widget)))
        if want and " ".join(want) not in " ".join(seen):
            found.append(f"cut: {' '.join(want)!r} shows as {' '.join(seen)!r}")
    return found


def _cells_cut(table: DataTable[Any]) -> list[str]:
    """The cells of a table cut short with "…" to fit their column (the session list's names)."""
    cut = []
    for index in range(table.row_count):
        for cell in table.get_row_at(index):
            text = str(getattr(cell, "plain", cell))
            if text.endswith("…") and len(text) > 1:
                cut.append(text)
    return cut


def plugin_names() -> set[str]:
    """The words of the names of installed rulesets that are not built in (the example plugin's "Savage
    Worlds"): a plugin's own name is its title, and it may ship no Russian or Ukrainian words."""
    from tui_combat.engine import registry

    names = (
        registry.get(ruleset_id).name
        for ruleset_id in registry.available()
        if not type(registry.get(ruleset_id)).__module__.startswith("tui_combat.")
    )
    return {word.casefold() for name in names for word in LATIN_WORD.findall(name)}


def latin_words(text: str, allowed: Iterable[str] = ()) -> list[str]:
    allow = ALLOWED_LATIN | {word.casefold() for word in allowed} | plugin_names()
    found = []
    text = COMMAND.sub(" ", PATH.sub(" ", text))
    for match in LATIN_WORD.finditer(text):
        word = match.group()
        start = match.start()
        if DICE.match(text[max(0, start - 3) : start + len(word) + 3].lstrip("0123456789 ")):
            continue
        if re.fullmatch(r"d\d*", word) or word.casefold() in allow:
            continue
        if text[match.end() : match.end() + 1] == "…" and any(w.startswith(word.casefold()) for w in allow):
            continue  # a name cut short with its ellipsis
        line = text[:start].rpartition("\n")[2][-30:] + text[start:].partition("\n")[0][:30]
        found.append(f"{word} ({line.strip()!r})")
    return found


async def inspect(pilot: Pilot[Any], where: str, lang: str, allowed: Iterable[str] = ()) -> list[str]:
    """Everything wrong with the screen now shown, each line naming ``where``; in a form, each text field
    is focused in turn (as Tab does) and read with its hint."""
    screen = pilot.app.screen
    try:
        await until(pilot, lambda: footer_current(screen), "the footer's keys", seconds=10)
    except AssertionError:
        return [f"{where}: the footer does not show the keys that apply"]
    await until(pilot, lambda: settled(screen) and laid_out(screen), "the screen drawn")
    text = screen_text(screen, fields=False)
    found = [f"{where}: {problem}" for problem in cut_labels(screen, "focused")]
    for field in [w for w in screen.query(Input) if w.display and w.region.area and not w.has_focus]:
        field.focus()
        await until(pilot, lambda: field.has_focus, "the field focused")
        await until(pilot, lambda: settled(field) and settled(screen) and laid_out(screen), "the focused field drawn")
        found += [f"{where}: {problem}" for problem in cut_labels(screen, "focused") if "placeholder" in problem]
    found += [f"{where}: {problem}" for problem in footer_faults(screen)]
    found += [f"{where}: raw catalog header" for word in HEADER_WORDS if word in text][:1]
    if lang != "en":  # (the English demo titles are longer than the session list leaves them with a fight saved)
        found += [
            f"{where}: cell cut: {cell!r}"
            for table in screen.query(DataTable)
            if table.display
            for cell in _cells_cut(table)
        ]
        words = sorted(set(latin_words(text, allowed)))
        if words:
            found.append(f"{where}: English words {words}")
    return found


def laid_out(screen: Widget) -> bool:
    """No layout is waiting on the screen now shown: a line just shown (a form's hint) has its place, and is
    read; a screen under a dialog waits for its turn, so this is only for the one shown."""
    return not screen._layout_required and not any(widget._layout_required for widget in screen.walk_children())


def footer_current(screen: Widget) -> bool:
    """The screen's footer (if it has one) shows the keys that apply now, laid out, or leaves them out for
    want of room (it composes them a refresh after they change)."""
    footers = list(screen.query(KeyFooter))
    if not footers or not footers[0].display or footers[0].covered:  # a prompt or a form over it
        return True
    keys = shown_keys(footers[0])
    shown = {key.action for key in keys if not key.palette}
    wanted = {
        binding.action
        for _node, binding, _enabled, _tip in screen.active_bindings.values()  # type: ignore[attr-defined]
        if binding.show
    }
    return bool(keys) and shown | set(footers[0].left_out) == wanted and all(key.region.width > 0 for key in keys)


def footer_faults(screen: Widget) -> list[str]:
    """What is wrong with the screen's footer as drawn: a key under the palette key (cut, or hidden), the
    palette key short of the right edge (a letter of the key under it shows there), or help not shown whole.
    (A key left out of a full row is no fault: help and the palette list it.)"""
    footers = [
        widget
        for widget in screen.query(KeyFooter)
        if widget.display and not widget.covered and widget.region.width > 0
    ]
    if not footers:
        return []
    keys = shown_keys(footers[0])
    palette = [key for key in keys if key.palette]
    right = palette[0].region.x if palette else screen.app.size.width
    found = [
        f"footer key under the palette key: {key.key_display} {key.description}"
        for key in keys
        if not key.palette and key.region.right > right
    ]
    if palette and palette[0].region.right != screen.app.size.width:
        found.append(f"palette key not at the right edge: {palette[0].region}")
    helps = [key for key in keys if key.action.rpartition(".")[2] == "help"]
    if not helps or any(key.region.right > right or key.region.width == 0 for key in helps):
        found.append("footer without help")
    if found:  # the footer as it was, for a fault that comes only now and then (under load)
        print(footer_state(footers[0]), file=sys.stderr)
    return found


def footer_state(footer_widget: KeyFooter) -> str:
    """The footer's row as worked out and as laid out: what was left out, for which room, and each key."""
    lines = [
        f"footer: left out {footer_widget.left_out}, rows drawn {footer_widget.rows_drawn}, "
        f"room {footer_widget.room()}, size {footer_widget.size}"
    ]
    lines += [
        f"  {key.key_display!r} {key.description!r} {key.region} palette={key.palette}" for key in footer_widget.shown()
    ]
    return "\n".join(lines)


def footer(pilot: Pilot[Any]) -> list[ShownKey]:
    """The footer's keys drawn whole, left of the palette key."""
    keys = shown_keys(pilot.app.screen)
    palette = [key for key in keys if key.palette]
    right = palette[0].region.x if palette else pilot.app.size.width
    return [key for key in keys if not key.palette and key.region.width > 0 and key.region.right - 1 <= right]


def look(pilot: Pilot[Any]) -> tuple[object, ...]:
    """What a key may change: the screens, the fight, the messages shown, what is drawn."""
    app = pilot.app
    store = getattr(app, "store", None)
    state = (len(store.state.log_entries()), store.can_undo) if store is not None else None
    return (tuple(id(s) for s in app.screen_stack), state, len(app._notifications), screen_text(app.screen))


async def press_and_see(pilot: Pilot[Any], key: str) -> bool:
    """Press ``key``; True once anything it may change has changed (six seconds at most: a busy machine)."""
    before = look(pilot)
    await pilot.press(key)
    try:
        await until(pilot, lambda: look(pilot) != before, f"a change after {key}", seconds=6)
    except AssertionError:
        return False
    return True
