"""Trudvang's combat in terms the actions share: an attack's or a defence's arguments, what it buys with combat
points, its outcome, and the log parameters that say them."""

from __future__ import annotations

from typing import Literal

import msgspec

from tui_combat.engine.dice import Roll
from tui_combat.engine.log import Fact, Msg, Param, plural_msg
from tui_combat.i18n import N_
from tui_combat.rulesets.trudvang.base import signed
from tui_combat.rulesets.trudvang.state import OnceARound

Result = Literal["critical", "success", "failure", "fumble"]
SUCCESS: tuple[Result, ...] = ("critical", "success")


class CombatArgs(msgspec.Struct, frozen=True, kw_only=True):
    """The arguments of every combat action; each uses the ones it needs (see the package docstring)."""

    combatant: str
    roll: Roll
    modifier: int = 0
    target: str = ""
    cp: int | None = None
    sv: int | None = None
    weapon: str = ""
    hand: str = ""
    drop: bool = False
    attack: int | None = None
    long_range: bool = False
    """An attack at long range (a hunting bow then deals half damage)."""


class Purchase(msgspec.Struct, frozen=True, kw_only=True):
    """What an action buys and how it is paid for."""

    pays: str
    """What the CP pools pay for: a weapon's name, ``shield``, ``unarmed``, ``wrestling`` or ``dodge``."""
    cp: int
    sv: int
    """The SV bought, before modifiers."""
    base: Msg
    """How the SV was bought, for the log: "6 CP", "SV 3 (6 CP)"."""
    bought: bool = False
    """SV bought at a rate (wrestling) rather than CP put in one for one."""
    parry: bool = False
    weapon_action: str | None = None
    unarmed_attack: bool = False
    once: OnceARound | None = None
    once_label: Msg | None = None
    mods: tuple[tuple[str, int], ...] = ()
    """(label as a message id, value): the modifiers of this kind of action."""


class Outcome(msgspec.Struct, frozen=True, kw_only=True):
    sv: int
    sv_text: Msg
    result: Result
    facts: dict[str, Fact]

    @property
    def success(self) -> bool:
        return self.result in SUCCESS


def concat(parts: list[Param]) -> Msg:
    """Parameters shown one right after another."""
    return Msg(
        id="".join(f"{{p{index}}}" for index in range(len(parts))),
        params={f"p{index}": part for index, part in enumerate(parts)},
    )


def notes_param(notes: list[Msg]) -> Param:
    """Sentences after a log message, each after a space ("" for none)."""
    if not notes:
        return ""
    return Msg(
        id="".join(f" {{n{index}}}" for index in range(len(notes))),
        params={f"n{index}": note for index, note in enumerate(notes)},
    )


def sv_param(base: Msg, mods: list[tuple[str, int]], sv: int) -> Msg:
    """ "6 CP -5 surprised = SV 1" as a log parameter."""
    parts: list[Param] = [base]
    parts += [
        Msg(id=" {value} {label}", params={"value": signed(value), "label": Msg(id=label)}) for label, value in mods
    ]
    parts.append(Msg(id=" = {sv}", params={"sv": Msg(id=N_("SV {sv}"), params={"sv": sv})}))
    return concat(parts)


def cp_text(cp: int) -> Msg:
    return plural_msg("{n} CP", "{n} CP", cp)
