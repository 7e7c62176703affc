"""Log messages of earlier versions. A saved fight's journal keeps each line as a message id and its
parameters, so a message the code no longer writes is still shown when an older fight is opened: listed
here, it stays in the catalogs and is shown translated."""

from __future__ import annotations

from tui_combat.i18n import N_

RETIRED = (
    N_("{name}: {effect} for {rounds} rounds."),  # now one of "{n} round" / "{n} rounds" forms
    N_("critical: grappled"),  # a Trudvang grapple's result, now "critical: a hold" ("grappled" is a 5e condition)
    N_("{name} loses 1 hit point: {hp}. He is dead."),  # AD&D −10: now the loss, then "{name} is dead at −10."
)
