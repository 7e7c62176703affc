"""The AD&D family's small words and numbers: a signed bonus, a whole number from a form, an attack worked out from
its form, a spell and an ordinal as log parameters."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from tui_combat.engine.audience import typed
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, Param
from tui_combat.engine.model import Combatant
from tui_combat.i18n import N_, _

__all__ = ["AttackReckoning", "int_arg", "ordinal", "signed", "spell_param"]


def signed(value: int) -> str:
    """``+5`` / ``-5``: a modifier as a log parameter (log parameters carry no format specs)."""
    return f"{value:+d}"


def int_arg(args: Mapping[str, Any], key: str, default: int) -> int:
    value = args.get(key, default)
    if value in ("", None):
        return default
    try:
        return int(str(value).strip().replace("−", "-"))
    except (TypeError, ValueError):
        raise RuleError(_('"{value}" is not a whole number.', value=value)) from None


class AttackReckoning(NamedTuple):
    """What one attack needs, worked out from the form (see ``AdndFamily.reckon``)."""

    form: str
    one_weapon: bool
    target: Combatant | None
    ac: int
    armour: str
    modifier: int
    kind: str | None
    magic: int
    bonus: int
    surprised: int
    """+1 against a surprised target (0 otherwise)."""
    dex_lost: int
    """The Dex bonus the surprised target's AC lost (2 for −2), 0 for none."""
    needed: int
    """THAC0 − AC, with the weapon-vs-armour modifier: what the d20 plus bonuses must reach."""

    def modifiers_text(self) -> str:
        """ " +4 magic +1 other" for the preview (translated); "" when there are none."""
        parts = []
        if self.modifier:
            parts.append(
                _(
                    "{modifier} {armour} vs {kind}",
                    modifier=signed(self.modifier),
                    armour=_(self.armour),
                    kind=_(self.kind or ""),
                )
            )
        if self.magic:
            parts.append(_("{value} magic", value=signed(self.magic)))
        if self.bonus:
            parts.append(_("{value} other", value=signed(self.bonus)))
        if self.surprised:
            parts.append(_("{value} surprised", value=signed(self.surprised)))
        if self.dex_lost:
            parts.append(_("surprised: AC without Dex {value}", value=signed(-self.dex_lost)))
        return "".join(f", {part}" for part in parts)


def spell_param(spell: str) -> Param:
    """A spell's name as a log parameter, as typed; an unnamed one is "the spell" (translated when shown)."""
    return typed(spell) if spell and spell != "spell" else Msg(id=N_("the spell"))


def ordinal(number: int) -> str:
    """The message id of a repeated attack's slot: "2nd · 7", "3rd · 7", "4th · 7"."""
    if number == 2:
        return N_("2nd · {value}")
    if number == 3:
        return N_("3rd · {value}")
    return N_("{n}th · {value}")
