"""Saving throws in AD&D 2e and Player's Option: PHB Table 60 by class group and level.

* A character saves on his class group's rows at his level; a multi-class character (his other classes on
  the sheet: "wizard 6") uses the best number of each column (PHB and DMG: "the most advantageous").
* A monster saves on the warrior's rows at a level equal to its Hit Dice, its pluses counting one more level
  for every four points or fraction (DM's Guide, chapter 9: 5+6 saves at 7th level); less than one full die
  (1-1, ½) at warrior 0; a creature of no intelligence at half that level, rounded up, except against
  paralyzation, poison and death magic. One with another class's abilities (a spellcaster: "wizard 7") uses
  the better of the two tables, column by column.
* A monster whose book entry gives its own numbers has them on its sheet ("saves": five numbers in Table 60's
  order); they replace the table.
* The GM's bonus (race, magic: "save_bonus") is added to the d20.

Roll 1d20: the number or higher saves. The figures are in the data file (``[saves]``), with their source.
"""

from __future__ import annotations

from typing import Final

from tui_combat.engine.errors import RuleError
from tui_combat.engine.messages import Msg
from tui_combat.engine.saves import SaveOdds
from tui_combat.i18n import N_, _
from tui_combat.rulesets.adnd2e.data import tables
from tui_combat.rulesets.adnd2e.save_text import Five, class_levels, own_saves
from tui_combat.rulesets.adnd2e.sheet import Sheet, level_number, level_text
from tui_combat.rulesets.hit_dice import read_hit_dice

__all__ = ["SAVE_KINDS", "monster_save_level", "reckon_saves", "save_odds_of", "saves_text"]

SAVE_KINDS: Final = (
    ("paralyzation", N_("Paralyzation, poison, death magic")),
    ("rod", N_("Rod, staff, wand")),
    ("petrification", N_("Petrification, polymorph")),
    ("breath", N_("Breath weapon")),
    ("spell", N_("Spell")),
)
"""PHB Table 60's columns, in its order (which is also their priority: the first that applies is rolled)."""


def _row(group: str, level: int) -> Five:
    rows = tables().saves.rows(group)
    chosen = rows[0]
    for row in rows:
        if level >= row[0]:
            chosen = row
    return (chosen[1], chosen[2], chosen[3], chosen[4], chosen[5])


def monster_save_level(hit_dice: int | str, *, mindless: bool = False) -> tuple[int, int]:
    """The warrior level a monster saves at: (against paralyzation, poison and death magic, against the rest).
    Its Hit Dice, each four points of pluses (or fraction) one more (DMG: 5+6 → 7th); less than one full die:
    the data's level for it (0). No intelligence: half of it, rounded up, but against poison and death."""
    data = tables().saves
    dice = read_hit_dice(hit_dice)
    if dice.below_one():
        level = data.below_one_die_level
    else:
        per = data.extra_hit_points_per_die
        level = dice.dice + (-(-dice.plus // per) if dice.plus > 0 else 0)
    return level, (-(-level // 2) if mindless else level)


def _best(rows: list[Five]) -> Five:
    return (
        min(r[0] for r in rows),
        min(r[1] for r in rows),
        min(r[2] for r in rows),
        min(r[3] for r in rows),
        min(r[4] for r in rows),
    )


def reckon_saves(sheet: Sheet) -> tuple[Five, tuple[Msg, ...]]:
    """His five numbers and why ("warrior 8: 6+6 Hit Dice", "best of warrior 5 and wizard 6", "his own"). Raises
    :class:`RuleError` for a sheet that cannot say (a level that is not a number)."""
    own = own_saves(sheet.saves)
    if own is not None:
        return own, (Msg(id=N_("his own saving throws")),)
    others = class_levels(sheet.multiclass)
    rows: list[Five] = []
    reasons: list[Msg] = []
    if sheet.cls == "monster":
        data = tables().saves
        death, rest = monster_save_level(sheet.level, mindless=sheet.mindless)
        first, second = _row(data.monsters_as, death), _row(data.monsters_as, rest)
        rows.append((first[0], second[1], second[2], second[3], second[4]))
        reasons.append(
            Msg(
                id=N_("{group} {level}: {dice} Hit Dice"),
                params={"group": Msg(id=data.monsters_as), "level": death, "dice": level_text(sheet)},
            )
        )
        if rest != death:
            reasons.append(
                Msg(
                    id=N_("no intelligence: {group} {level} but against paralyzation, poison, death magic"),
                    params={"group": Msg(id=data.monsters_as), "level": rest},
                )
            )
    else:
        level = level_number(sheet)
        rows.append(_row(sheet.cls, level))
        reasons.append(Msg(id="{group} {level}", params={"group": Msg(id=sheet.cls), "level": level}))
    for group, level in others:
        rows.append(_row(group, level))
        reasons.append(Msg(id="{group} {level}", params={"group": Msg(id=group), "level": level}))
    if len(rows) > 1:
        return _best(rows), (Msg(id=N_("the best of each: {classes}"), params={"classes": list(reasons)}),)
    return rows[0], tuple(reasons)


def save_odds_of(sheet: Sheet, kind: str) -> SaveOdds:
    """What he needs on a save of ``kind`` (one of :data:`SAVE_KINDS`): the table's number, his bonus added to
    the d20, and why."""
    ids = [kind_id for kind_id, _label in SAVE_KINDS]
    if kind not in ids:
        raise RuleError(
            _(
                '"{kind}" is not a saving throw of these rules: {known}.',
                kind=kind,
                known=", ".join(_(label) for _id, label in SAVE_KINDS),
            )
        )
    numbers, reasons = reckon_saves(sheet)
    if sheet.save_bonus:
        reasons = (*reasons, Msg(id=N_("saving throw bonus {bonus}"), params={"bonus": f"{sheet.save_bonus:+d}"}))
    return SaveOdds(kind=kind, needed=numbers[ids.index(kind)], modifier=sheet.save_bonus, reasons=reasons)


def saves_text(sheet: Sheet) -> str:
    """His five numbers as the card shows them, "14 16 15 17 17", his bonus after them ("+1")."""
    numbers, _reasons = reckon_saves(sheet)
    text = " ".join(str(number) for number in numbers)
    return f"{text} ({sheet.save_bonus:+d})" if sheet.save_bonus else text
