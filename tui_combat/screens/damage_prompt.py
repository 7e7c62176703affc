"""The damage prompt on the footer's line of the round screen: an amount (a number, or dice the app rolls) given to the
selected combatant, or the damage a hit calls for with its dice filled in (Enter rolls them).

Where the rules give damage types (5e) a type may follow: "12 fire", "2d6+1 огонь", or the type alone after a hit
whose dice the prompt rolls ("fire"); the type words are completed as they are typed, in the GM's language (→ takes
the completion). The engine's line then says what the type did ("fire: immune").
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len

from tui_combat.engine import actions as a
from tui_combat.engine.contract import AnyRuleset, DamageDue, FieldSpec
from tui_combat.engine.dice import DiceError, Roll, parse, roll
from tui_combat.engine.log import Msg, render
from tui_combat.engine.model import State
from tui_combat.i18n import N_, _
from tui_combat.screens.area_draft import split_damage_kind, type_words
from tui_combat.screens.dialogs import AMOUNT_RANGE, read_whole_number, take_roll

if TYPE_CHECKING:
    from tui_combat.screens.round_view import RoundView

__all__ = [
    "PROMPT_LINE_EXTRA",
    "TypeWords",
    "ask_amount",
    "ask_hit_damage",
    "damage_and_kind",
    "read_amount",
    "translated",
    "type_completion",
]


def translated(word: str | Msg) -> str:
    """A ruleset's word (a message id, or a message with parameters) in the active language; "" for none."""
    if isinstance(word, Msg):
        return render(word)
    return _(word) if word else ""


PROMPT_LINE_EXTRA = 2 + 14 + 2
"""What the amount prompt's line has beside its title and its keys: the title's margins, the field, the keys'
padding (:class:`~tui_combat.widgets.amount_prompt.AmountPrompt`'s own sizes)."""


def read_amount(typed: str, rng: random.Random, what: str = "") -> dict[str, Any] | str:
    """Damage or healing as the GM gives it: a whole number from 0 to 9,999, or dice the app rolls
    ("2d6+1"); else the message for the form. A negative amount is refused (heal is its own key), never
    turned into 0. Only ASCII digits make a number (``²`` is no number)."""
    text = typed.strip().replace("−", "-")
    what = what or _("Amount")
    if not text:
        return _("Type a number or a dice expression such as 2d6+1.")
    if text.startswith("-"):
        return _("{what} cannot be negative.", what=what)
    if text.lstrip("+").isascii() and text.lstrip("+").isdigit():
        number = read_whole_number(what, text.lstrip("+"), bounds=AMOUNT_RANGE)
        return {"amount": number, "roll": None} if isinstance(number, int) else number
    try:
        rolled = roll(parse(text), rng)
    except DiceError as error:
        return str(error)
    if rolled.total > AMOUNT_RANGE[1]:
        return _("{what}: a number from {low} to {high}.", what=what, low=AMOUNT_RANGE[0], high=AMOUNT_RANGE[1])
    return {"amount": max(rolled.total, 0), "roll": rolled}


class TypeWords:
    """Completes the last word typed with a damage type's word ("12 fi" → "12 fire"), keeping what was typed as it
    was typed."""

    def __init__(self, words: list[str]) -> None:
        self.words = words

    def complete(self, value: str) -> str | None:
        _head, _space, last = value.rpartition(" ")
        if not last or any(character.isdigit() for character in last):
            return None
        folded = last.casefold()
        word = next((word for word in self.words if word.casefold().startswith(folded) and len(word) > len(last)), None)
        return value + word[len(last) :] if word is not None else None


def type_completion(ruleset: AnyRuleset, state: State) -> TypeWords | None:
    """The completion of the rules' damage types in the GM's language (and in English); None where damage has none."""
    words = type_words(ruleset, state)
    if not words:
        return None
    shown = [word for _kind, word in words]
    return TypeWords(shown + [kind for kind, _word in words if kind not in shown])


def damage_and_kind(ruleset: AnyRuleset, state: State, text: str) -> tuple[str, str] | str:
    """What was typed in the damage prompt as (the amount or dice, the type id): "12 fire" → ("12", "fire"); a last
    word that is neither a type nor part of the amount is refused, with the types."""
    amount, kind = split_damage_kind(ruleset, state, text)
    if kind or not ruleset.damage_types(state):
        return amount, kind
    words = amount.split()
    if len(words) > 1 and words[-1].isalpha():
        return _(
            '"{kind}" is not a type of damage; the types are: {known}.',
            kind=words[-1],
            known=", ".join(word for _kind, word in type_words(ruleset, state)),
        )
    return amount, ""


def ask_amount(
    screen: RoundView,
    title: str,
    what: str,
    then: Callable[[str, dict[str, Any]], str | None],
    *,
    typed_kind: bool = False,
) -> None:
    """The prompt for an amount (typed, or dice the app rolls) given to the selected combatant; with
    ``typed_kind``, a damage type after it where the rules have types ("12 fire": ``kind`` in the values)."""
    combatant_id = screen.selected()
    if combatant_id is None:
        return
    rng = screen.store.rng
    completion = type_completion(screen.ruleset, screen.state) if typed_kind else None

    def submit(typed: str) -> str | None:
        split = damage_and_kind(screen.ruleset, screen.state, typed) if completion is not None else (typed, "")
        if isinstance(split, str):
            return split
        amount = read_amount(split[0], rng, what)
        return amount if isinstance(amount, str) else then(combatant_id, {**amount, "kind": split[1]})

    screen.ask_prompt(
        title.format(name=screen.state.combatant(combatant_id).name),
        submit,
        completion=completion,
        placeholder=_("12 fire") if completion is not None else "",
    )


def ask_hit_damage(screen: RoundView, due: DamageDue | None) -> None:
    """The damage a hit calls for, asked in the prompt and applied to the target: with known dice, Enter
    rolls them and a number typed is what real dice showed; without, an amount or dice to roll. Esc
    leaves it (the damage key still gives it)."""
    if due is None:
        return
    try:
        target = screen.state.combatant(due.target)
    except KeyError:
        return
    what, note = translated(due.what), translated(due.note)
    title = (
        _("Damage to {name} ({what})", name=target.name, what=what) if what else _("Damage to {name}", name=target.name)
    )
    keys = _("Enter: roll {dice} · Esc: cancel", dice=due.dice) if due.dice else _("Enter: apply · Esc: cancel")
    # The prompt's title has half the line at most, and leaves the keys after the field whole.
    if what and (
        cell_len(title) > screen.size.width // 2 - 2
        or cell_len(title) + cell_len(keys) + PROMPT_LINE_EXTRA > screen.size.width
    ):
        title = _("Damage to {name}", name=target.name)
        note = " · ".join(part for part in (what, note) if part)  # "critical hit: the damage dice twice"
    rng = screen.store.rng
    completion = type_completion(screen.ruleset, screen.state)

    def split(text: str) -> tuple[str, str] | str:
        """The amount and the damage's type typed after it ("12 fire"; "fire" alone: the dice rolled)."""
        return damage_and_kind(screen.ruleset, screen.state, text) if completion is not None else (text, "")

    def deal(amount: int, rolled: Roll | None, kind: str) -> str | None:
        return screen.host.refusal(
            a.Damage(combatant=due.target, amount=max(amount, 0), roll=rolled, critical=due.critical, kind=kind)
        )

    if due.dice:
        spec = FieldSpec(key="damage", label=N_("Damage"), kind="roll", default=due.dice)

        def rolled(typed: str) -> str | None:
            parts = split(typed)
            if isinstance(parts, str):
                return parts
            taken = take_roll(spec, parts[0], rng)
            return taken if isinstance(taken, str) else deal(taken.total, taken, parts[1])

        screen.ask_prompt(title, rolled, placeholder=due.dice, note=note, completion=completion, keys=keys)
        return

    def typed(text: str) -> str | None:
        parts = split(text)
        if isinstance(parts, str):
            return parts
        amount = read_amount(parts[0], rng, _("Damage"))
        return amount if isinstance(amount, str) else deal(amount["amount"], amount["roll"], parts[1])

    screen.ask_prompt(title, typed, note=note, completion=completion)
