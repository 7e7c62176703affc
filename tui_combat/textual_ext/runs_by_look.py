"""A frame of changes written one look at a time, where that takes fewer bytes than writing it line by line.

A new page of the turn list changes, on each row, an orc's number and his health: two colours a row, so a frame
written line by line switches colour twice a row (``\\x1b[38;2;224;224;224m6\\x1b[38;2;88;209;235m  3``, some 40
bytes of codes for four cells). Every piece of such a frame is written at a cell the frame moves the cursor to,
so the pieces can be written in any order: all those of one colour, then all those of the next, with a cursor
move (some 8 bytes) in place of each colour switch (18). :func:`runs_by_look` makes that order, and the caller
keeps whichever of the two is shorter.

Only frames made of cursor moves to a cell, colour codes Rich writes (a reset and a whole style) and text are
ordered anew, and only when no two of their pieces write over the same cell, the frame ends by moving the cursor
where it is to stay and setting the style it is left in, and nothing but a mode set (the cursor hidden, output
synchronised) comes before the first piece or after the last; a piece written right after another without a
move of its own stays after it unless the one before is plain ASCII (its width is then certain). Anything else
is left as it was written (None)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rich.cells import cell_len

from tui_combat.textual_ext.fewer_codes import PLAIN, RESET, Look, difference, on_blanks, parsed, with_fewer_codes

SEQUENCE = re.compile(
    r"(\x1b\[[0-9;]*m"  # select graphic rendition
    r"|\x1b\[\d+;\d+H"  # a cursor move to a cell
    r"|[\r\n]|\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|.))",  # any other sequence
    re.DOTALL,
)
MODE = re.compile(r"\x1b\[\?[0-9;]*[hl]")
"""A mode set (the cursor hidden or shown, output synchronised): changes no cell, and is changed by none."""
LONGEST = 16_384
"""Frames longer than this (a screen drawn whole, written line by line anyway) are left as they are."""
STYLE_CHARACTERS = frozenset("0123456789;")


@dataclass(slots=True)
class Run:
    text: str
    style: str
    """The SGR parameters it is written in, after a reset ("" for the terminal's default)."""
    at: tuple[int, int] | None
    """Its row and column; None when it follows the run before it wherever that one ended."""
    plain: bool = False
    """Its text is printable ASCII: its width is its length, on any terminal."""
    number: int = 0
    """Its place in the frame."""
    follows: bool = False
    """It was written right after the run before it, without a move: written after it, it needs none."""
    added: bool = False
    """Its style was set on whatever style the terminal had (no reset before it in the frame): it is written first,
    as it came."""


@dataclass(slots=True)
class End:
    """What a frame leaves after its last piece: where the cursor stays, the style, the modes set."""

    move: str
    style: str
    modes: str


def with_fewest_codes(text: str) -> str:
    """``text`` as it shows on the terminal in the fewest bytes: its pieces written line by line as they came
    (with only the codes that change something: :mod:`~tui_combat.textual_ext.fewer_codes`) or one style at a
    time, whichever is shorter."""
    fewer = with_fewer_codes(text)
    by_look = runs_by_look(text)
    return by_look if by_look is not None and len(by_look) < len(fewer) else fewer


def runs_by_look(text: str) -> str | None:
    """``text``, a frame of pieces each at a cell, written one style at a time; None when ``text`` is not such a
    frame (or has one style only)."""
    if len(text) > LONGEST or "\x1b[" not in text:
        return None
    parsed_frame = _runs(SEQUENCE.split(text))
    if parsed_frame is None:
        return None
    prefix, runs, end = parsed_frame
    units = _units(runs)
    if units is None:
        return None
    by_style: dict[str | None, list[list[Run]]] = {None: []}
    for unit in units:
        by_style.setdefault(None if unit[0].added else unit[0].style, []).append(unit)
    if len(by_style) <= 2:
        return None
    by_look = _encoded([run for unit_list in by_style.values() for unit in unit_list for run in unit], end)
    return None if by_look is None else prefix + by_look


def _runs(parts: list[str]) -> tuple[str, list[Run], End] | None:
    """The frame split at its sequences (text at even places, a sequence at odd ones) as: the mode sets before its
    first piece, its pieces, the sequences after the last (a move and a style among them, and else only mode
    sets); None for anything else."""
    runs: list[Run] = []
    prefix: list[str] = []
    style: str | None = None
    """The style set last (None: none set yet in this frame, the terminal's, whatever it is)."""
    added = False
    """The style was set without a reset before it: on the terminal's, whatever it was."""
    at: tuple[int, int] | None = None
    line_moved = False
    """A line feed or a carriage return since the last move to a cell: the next piece's place is not known."""
    last_run, first_mode = -1, len(parts)
    """Where in ``parts`` the last piece is, and the first mode set after the first piece."""
    for index, part in enumerate(parts):
        if not index % 2:
            if part:
                if style is None or line_moved:
                    return None  # (a piece in a style not set here, or at no known cell)
                runs.append(Run(part, style, at, number=len(runs), follows=at is None, added=added))
                at, last_run = None, index
            continue
        kind = part[-1]
        if kind == "m" and part[1] == "[" and STYLE_CHARACTERS.issuperset(part[2:-1]):
            sgr = part[2:-1]
            if sgr in ("", "0"):
                style, added = "", False
            elif sgr.startswith("0;"):
                style, added = sgr[2:], False
            elif style == "":
                style = sgr
            elif style is None and not runs:
                style, added = sgr, True
            else:
                return None  # (a style added to the one before it, not set whole after a reset)
        elif kind == "H" and part[1] == "[" and ";" in part:
            row, _semicolon, column = part[2:-1].partition(";")
            at, line_moved = (int(row), int(column)), False
        elif part in ("\r", "\n"):
            at, line_moved = None, True  # (Textual goes to the next line before it moves the cursor anew)
        elif not MODE.fullmatch(part):
            return None  # (an erase, say: it takes the style and the place it is written at)
        elif runs:
            first_mode = min(first_mode, index)
        else:
            prefix.append(part)
    if not runs or line_moved or first_mode < last_run:
        return None  # (no piece, none at a known cell, or a mode set between two)
    end = _end(parts[last_run + 1 :: 2])
    return None if end is None else ("".join(prefix), runs, end)


def _end(sequences: list[str]) -> End | None:
    """What the ``sequences`` after a frame's last piece leave; a move and a whole style are needed (the frame must
    leave the cursor and the style as it says, whatever piece is written last)."""
    moves, styles, modes = [], [], []
    for part in sequences:
        if MODE.fullmatch(part):
            modes.append(part)
        elif part.endswith("H"):
            moves.append(part)
        elif part.endswith("m"):
            styles.append(part[2:-1])
    if not moves or not styles or not (styles[-1] in ("", "0") or styles[-1].startswith("0;")):
        return None
    return End(moves[-1], styles[-1].removeprefix("0").removeprefix(";"), "".join(modes))


def _units(runs: list[Run]) -> list[list[Run]] | None:
    """The runs in pieces that can go anywhere: a run without a place of its own is given the cell after a plain
    run before it, or kept with it. None when two runs would write over the same cell."""
    units: list[list[Run]] = []
    taken: dict[int, list[tuple[int, int]]] = {}
    after: tuple[int, int] = (0, 0)
    """Where the run before ended (its width as Rich counts it)."""
    plain_before = False
    for run in runs:
        run.plain = run.text.isascii() and run.text.isprintable()
        if run.at is None:
            if not units:
                return None  # (the first piece has no place of its own)
            if plain_before:
                run.at = after
            else:
                units[-1].append(run)
        if run.at is not None:
            units.append([run])
        row, column = run.at or after
        width = len(run.text) if run.plain else cell_len(run.text)
        spans = taken.setdefault(row, [])
        if any(column < right and left < column + width for left, right in spans):
            return None
        spans.append((column, column + width))
        after, plain_before = (row, column + width), run.plain
    return units


def _encoded(runs: list[Run], end: End) -> str | None:
    """``runs`` written in this order, each where it goes (a move where the cursor is not there already) and in
    its style (only what changes from the style before: see :func:`~tui_combat.textual_ext.fewer_codes.
    difference`), then the frame's ``end``; None for a style not understood there, or one set on the terminal's
    that does not come first."""
    out: list[str] = []
    write = out.append
    look: Look | None = None
    cursor: tuple[int, int] | None = None
    last = -1
    """The place in the frame of the run written last."""
    for index, run in enumerate(runs):
        at = run.at
        if at is not None and at != cursor and not (run.follows and run.number == last + 1):
            write(f"\x1b[{at[0]};{at[1]}H")
        if run.added:
            if index:
                return None
            write(f"\x1b[{run.style}m")  # (as it came: on the terminal's style, whatever it is)
        else:
            look = _restyled(out, look, run.style, blanks=not run.text.strip(" "))
            if look is None:
                return None
        write(run.text)
        cursor = (at[0], at[1] + len(run.text)) if at is not None and run.plain else None
        last = run.number
    write(end.move)
    if _restyled(out, look, end.style) is None:
        return None
    write(end.modes)
    return "".join(out)


def _restyled(out: list[str], look: Look | None, style: str, *, blanks: bool = False) -> Look | None:
    """The terminal taken from ``look`` (None: not known) to ``style`` (for ``blanks``: only what shows on
    blanks), the codes written to ``out``; the style it is then in, None for a style not understood."""
    wanted = parsed(style) if style else PLAIN
    if wanted is None:
        return None
    target = on_blanks(look, wanted) if blanks else None
    if target is None:
        target = wanted
    if target == look:
        return look
    change = difference(look, target) if look is not None else None
    whole = f"\x1b[0;{style}m" if style else RESET
    if change is None or (target == wanted and len(change) + 3 >= len(whole)):
        out.append(whole)
        return wanted
    if change:
        out.append(f"\x1b[{change}m")
    return target
