"""The shapes the engine and a ruleset speak in (:mod:`tui_combat.engine.contract` names them all): a step of the
round, an option, a form's field, a budget's meter, a ruleset action, what a hit leaves, the damage an action
calls for, one waiting outside the order.

Each is a frozen ``msgspec.Struct``; what the hooks of :class:`~tui_combat.engine.contract.Ruleset` take and give
back."""

from __future__ import annotations

from typing import Any, Literal

import msgspec
from msgspec.structs import replace

from tui_combat.engine.log import Msg
from tui_combat.engine.model import State, Status
from tui_combat.i18n import _, data_word, data_words, spellings

StepKind = Literal["declare", "initiative", "resolve", "end", "other"]
FieldKind = Literal["int", "str", "choice", "bool", "roll"]

__all__ = [
    "ActionSpec",
    "BudgetLine",
    "DamageDue",
    "FieldKind",
    "FieldSpec",
    "Health",
    "NoState",
    "OptionSpec",
    "Situation",
    "StepDef",
    "StepKind",
    "SurpriseModifier",
    "Waiting",
    "shown_value",
]


class Health(msgspec.Struct, frozen=True, kw_only=True):
    """What a hit or a heal leaves of a combatant (see :meth:`Ruleset.after_damage`)."""

    hp: int
    status: Status
    said: Msg | None = None
    """The log line of the hit or the heal in the book's words ("Grunt takes 9 against Toughness 5: Shaken."), in
    place of the engine's "{name} takes {amount} damage: {hp}/{max} HP." (which says the ruleset's
    :attr:`Ruleset.health_label`); None keeps the engine's."""
    said_public: Msg | None = None
    """What the players read in place of :attr:`said` when it holds what is not theirs (a stat marked
    :func:`~tui_combat.engine.audience.behind`, exact hit points): "Grunt is Shaken." for the line above."""
    lost: int | None = None
    """What a hit took off his health when that is not the damage dealt (Trudvang: what got past the armour),
    for the log's fact ``lost`` that the fight's report counts; None: the damage dealt."""
    round_state: Any = None
    """The ruleset's round state as the hit or the heal leaves it (its ``round_state_type``: a box of stress
    ticked), stored by the engine before the line is logged; None leaves it as it was."""
    fight_state: Any = None
    """The same for the fight state."""

    def written(self, state: State) -> State:
        """``state`` with the ruleset's states this health carries (those it leaves None, as they were)."""
        if self.round_state is not None:
            state = replace(state, round_state=self.round_state)
        if self.fight_state is not None:
            state = replace(state, fight_state=self.fight_state)
        return state


class Waiting(msgspec.Struct, frozen=True, kw_only=True):
    """A combatant outside the turn order who may come in when the GM says (:meth:`Ruleset.out_of_order`)."""

    combatant: str
    """The combatant's id."""
    label: Msg
    """Why he waits, as the turn list and the players' screen say it: "on hold", "Joker: acts at any time"."""


class StepDef(msgspec.Struct, frozen=True, kw_only=True):
    """One step of the round (:meth:`Ruleset.steps`)."""

    id: str
    label: str
    """English, marked with ``N_``; translated when shown."""
    kind: StepKind
    secret: bool = False
    """Whatever is done in it is the GM's alone (the monsters' intentions)."""
    help: str = ""
    """A message id shown after the keys of the step's hint line: what the book does here."""
    dice: bool = True
    """For an ``initiative`` step: False when no dice are rolled in it (an opener the GM picks with one of the
    ruleset's actions, which settles the order with :func:`~tui_combat.engine.initiative.settle`). The round
    screen then offers no Roll nor Typed key and its hint line says the step's ``help`` (what to do instead); the
    engine refuses a roll there, and *next* until the order stands."""


class OptionSpec(msgspec.Struct, frozen=True, kw_only=True):
    key: str
    label: str
    choices: tuple[tuple[str, str], ...]
    """(value, label) pairs; the first is the default."""

    def values_written(self, written: str) -> tuple[str, ...]:
        """The values ``written`` may mean: the value itself ("group"); else a choice's label in English or in any
        language of the interface ("групповая: 1d10 на сторону + свои модификаторы"), case aside; else the
        label's short form, its words before a colon ("групповая", "group-modified"). More than one when the
        short form is shared ("индивидуальная"); none when it is no choice."""
        if written in dict(self.choices):
            return (written,)
        wanted = " ".join(written.split()).casefold()
        labels = {
            value: [" ".join(spelt.split()).casefold() for spelt in spellings(label)] for value, label in self.choices
        }
        whole = tuple(value for value, spelt in labels.items() if wanted == value.casefold() or wanted in spelt)
        if whole:
            return whole
        return tuple(
            value
            for value, spelt in labels.items()
            if any(":" in label and wanted == label.partition(":")[0].strip() for label in spelt)
        )


class FieldSpec(msgspec.Struct, frozen=True, kw_only=True):
    """One field of a form (a combatant's sheet, a declaration, a ruleset action)."""

    key: str
    label: str
    kind: FieldKind = "str"
    default: Any = ""
    """For a ``roll`` field: the dice expression. Left empty the app rolls it; or the GM types what
    real dice showed."""
    choices: tuple[tuple[str, str], ...] = ()
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None
    """For an ``int`` field: the range it takes (a form refuses what is outside, with the range); None leaves
    it to the app's default, a range wide enough for modifiers, AC and feet."""
    suggestions: tuple[str, ...] = ()
    """For a ``str`` field: words offered as the GM types (message ids, shown translated); he may type others."""


class Situation(msgspec.Struct, frozen=True, kw_only=True):
    """An encounter-distance situation: its roll and how to read it."""

    id: str
    label: str
    dice: str = ""
    multiplier: int = 1
    unit: str = "ft"


class SurpriseModifier(msgspec.Struct, frozen=True, kw_only=True):
    label: str
    value: int


class BudgetLine(msgspec.Struct, frozen=True, kw_only=True):
    """One thing a combatant may still do, as a meter: ``left`` of ``total``. ``label`` is translated
    (budgets are computed when shown, never stored)."""

    label: str
    left: int
    total: int


class ActionSpec(msgspec.Struct, frozen=True, kw_only=True):
    """A ruleset action in the static catalogue: its name, the key that triggers it, its label."""

    name: str
    key: str
    label: str
    """English, marked with ``N_``; translated when shown."""
    footer: bool = True
    """Shown in the footer when available (it fits about eight keys at 80 columns); all are in help
    and the palette. A footer too full for every key that applies leaves out the last ones (the catalogue's
    order, after the app's own keys; help stays): put first what applies only now and then."""
    needs_combatant: bool = True
    """The action is about the selected combatant (his id is passed as ``combatant``)."""
    in_turn: bool = False
    """The action belongs to the actor's own turn (an attack, a move, a spell): taken by someone who does not
    act now (:meth:`Ruleset.acts_now`), the screens ask the GM first and the log says it was out of turn.
    False for what may come at any time (a parry, a saving throw, a condition)."""


class DamageDue(msgspec.Struct, frozen=True, kw_only=True):
    """Damage an action calls for: what the screen asks for next, pre-filled."""

    target: str
    """The combatant id the damage goes to."""
    dice: str = ""
    """The damage dice, every known bonus included ("1d4+5"); "" when the sheet does not say."""
    what: str | Msg = ""
    """What deals it, for the form's title: a weapon, "critical hit"."""
    note: str | Msg = ""
    """A line for the GM under the title ("if he parries, take the parry first")."""
    critical: bool = False
    """The damage of a critical hit: the engine's ``Damage`` is applied with ``critical=True``."""


class NoState(msgspec.Struct, frozen=True, kw_only=True):
    """For rulesets that keep nothing of their own."""


def shown_value(field: FieldSpec, value: object) -> str:
    """A sheet value as the GM reads it: a choice by its translated label, a checkbox as "yes" or nothing."""
    if isinstance(value, bool):
        return _("yes") if value else ""
    if field.choices:
        return data_word(dict(field.choices).get(str(value), str(value)))
    if isinstance(value, str):
        return data_words(value) if value else ""
    return str(value)
