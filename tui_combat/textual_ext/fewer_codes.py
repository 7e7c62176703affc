"""What Textual writes to the terminal, with the colour codes and cursor moves that change nothing left out.

Textual (through Rich) writes every piece of text with its whole style and a reset after it:
``\\x1b[38;2;224;224;224;48;2;39;39;39m  Orc 5\\x1b[0m\\x1b[38;2;88;209;235;48;2;39;39;39m  8/8\\x1b[0m``. A row of
the turn list is three such pieces (the margin, the name, the health): some 75 of its 130 bytes are colour codes,
most of them saying again what the terminal has already. :func:`with_fewer_codes` keeps the terminal's style
as the text goes and writes only what changes: a reset and the style after it become the difference between
the style before and after (``\\x1b[38;2;88;209;235m``: a new colour on the same background), or, when an
attribute has to go, one code that resets and sets (``\\x1b[0;1;38;…m``). Each style is written when the text
it is for comes, not before: blanks get only their background (a blank shows nothing else, unless underlined,
reversed …), so the margin before a name keeps the colour of the health before it, and the name's colour is
then written only when it differs.

It also leaves out the cursor moves that another move makes pointless: Textual moves to a cell at which it
then writes nothing when the rows it redraws end where another widget begins (some 8 bytes a row), and goes
to the next line before moving the cursor anew.

Each piece of output is made over on its own, the terminal's style unknown when it begins and put back to the
style it was left in when it ends, so a terminal written to by others in between is never misled. Any sequence
not understood here is written as it is, in the style wanted by then: the screen shows the same, cell for cell,
as each cell shows (``tests/test_fewer_codes.py`` checks it on a terminal of its own)."""

from __future__ import annotations

import re
from functools import lru_cache

Look = tuple[frozenset[str], str | None, str | None]
"""The terminal's style: the attributes set (their SGR numbers), the foreground and the background (their
SGR parameters, None for the terminal's default)."""

PLAIN: Look = (frozenset(), None, None)
RESET = "\x1b[0m"

TOKEN = re.compile(
    r"\x1b\[(?P<sgr>[0-9;]*)m"  # select graphic rendition
    r"|(?P<move>\x1b\[\d*;?\d*H|[\r\n])"  # a cursor move (to a cell, or to the next line)
    r"|(?P<other>\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|.))",  # any other sequence
    re.DOTALL,
)
ATTRIBUTES = frozenset({"1", "2", "3", "4", "5", "6", "7", "8", "9", "21", "51", "52", "53"})
"""The attributes Rich sets, each by a number of its own (an attribute is turned off by another number)."""
FOREGROUND = frozenset({*(str(n) for n in range(30, 38)), *(str(n) for n in range(90, 98))})
BACKGROUND = frozenset({*(str(n) for n in range(40, 48)), *(str(n) for n in range(100, 108))})


@lru_cache(maxsize=1024)
def parsed(parameters: str) -> Look | None:
    """The style an SGR sequence of ``parameters`` sets from the default; None for one not understood here
    (one that turns an attribute off, an underline colour …) or one that resets first."""
    numbers = parameters.split(";")
    attributes: set[str] = set()
    foreground = background = None
    index = 0
    while index < len(numbers):
        number = numbers[index]
        if number in ATTRIBUTES:
            attributes.add(number)
        elif number in FOREGROUND:
            foreground = number
        elif number in BACKGROUND:
            background = number
        elif number in ("38", "48") and index + 1 < len(numbers) and numbers[index + 1] in ("2", "5"):
            length = 5 if numbers[index + 1] == "2" else 3
            colour = numbers[index : index + length]
            if len(colour) != length or not all(part.isdigit() for part in colour):
                return None
            if number == "38":
                foreground = ";".join(colour)
            else:
                background = ";".join(colour)
            index += length
            continue
        else:
            return None
        index += 1
    return frozenset(attributes), foreground, background


@lru_cache(maxsize=1024)
def difference(before: Look, after: Look) -> str | None:
    """The SGR parameters that take the terminal from ``before`` to ``after`` without a reset ("" for none);
    None when an attribute has to be turned off."""
    if not before[0] <= after[0]:
        return None
    parameters = sorted(after[0] - before[0], key=int)
    if after[1] != before[1]:
        parameters.append(after[1] or "39")
    if after[2] != before[2]:
        parameters.append(after[2] or "49")
    return ";".join(parameters)


BLANK_SHOWS = frozenset({"4", "7", "9", "21", "51", "52", "53"})
"""The attributes that show on a blank cell (underlines, reverse, strike, frames, overline): without them a blank
shows only its background."""


def on_blanks(look: Look | None, wanted: Look) -> Look | None:
    """The style blanks meant in ``wanted`` can be written in when the terminal is in ``look``: its own but for
    the background (a blank shows nothing else); None when more of either shows on a blank, or ``look`` is
    not known."""
    if look is None or look[0] & BLANK_SHOWS or wanted[0] & BLANK_SHOWS:
        return None
    return look[0], look[1], wanted[2]


def with_fewer_codes(text: str) -> str:
    """``text`` as it shows on the terminal, written with fewer bytes (see the module's description)."""
    if "\x1b" not in text:
        return text
    out: list[str] = []
    write = out.append
    look: Look | None = None
    """The terminal's style as written so far (None: not known)."""
    wanted: Look | None = None
    """The style the text that follows is meant in (None: the terminal's, whatever it is)."""
    parameters = ""
    """``wanted`` as the SGR parameters it was written with."""
    after_reset = False
    """The last sequence was a reset: a style that follows it is the whole style (as Rich writes them)."""
    moves: list[str] = []
    """Cursor moves owed: dropped when another move to a cell comes before anything is written."""

    def settle(blanks: bool = False) -> None:
        """Write the moves owed, and put the terminal in the style wanted (``blanks``: for blanks only, its
        foreground and attributes left as they are when they do not show on them)."""
        nonlocal look
        if moves:
            out.extend(moves)
            moves.clear()
        if wanted is None or wanted == look:
            return
        target = on_blanks(look, wanted) if blanks else None
        if target is None:
            target = wanted
        change = difference(look, target) if look is not None else None
        whole = f"\x1b[0;{parameters}m" if parameters else RESET
        if change is None or (target == wanted and len(change) + 3 >= len(whole)):
            write(whole)
            target = wanted
        elif change:
            write(f"\x1b[{change}m")
        look = target

    position = 0
    for token in TOKEN.finditer(text):
        start = token.start()
        if start > position:  # text
            piece = text[position:start]
            settle(blanks=not piece.strip(" "))
            write(piece)
            after_reset = False
        position = token.end()
        move, sgr = token["move"], token["sgr"]
        if move is not None:
            if move.endswith("H"):
                moves.clear()  # (a move to a cell makes those before it pointless)
            moves.append(move)
            continue
        if sgr is None:  # another sequence: written in the style wanted (an erase fills with its background)
            settle()
            write(token[0])
            if not token[0].startswith("\x1b["):  # (an escape that may change the style: restore a saved cursor…)
                look = wanted = None
            after_reset = False
            continue
        if sgr in ("", "0"):
            wanted, parameters, after_reset = PLAIN, "", True
            continue
        whole = parsed(sgr) if after_reset else None
        if whole is None:  # (not understood, or added to the style before it: written as it is)
            settle()
            write(token[0])
            look = wanted = None
        else:
            wanted, parameters = whole, sgr
        after_reset = False
    if position < len(text):
        piece = text[position:]
        settle(blanks=not piece.strip(" "))
        write(piece)
    settle()
    return "".join(out)
