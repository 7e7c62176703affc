"""The fight's difficulty before it starts, by the data file's ``[encounter]`` tables.

2014 rules: the monsters' XP added up and multiplied by their number (one step up for a party of fewer than
three, one down for six or more), against the party's thresholds (easy, medium, hard, deadly: each
character's by his level, added up). 2024 rules: the monsters' XP added up, against the party's budget
(low, moderate, high). A character counts when he is on a party side with a level (1–20) on his sheet, a
monster when he is on another side with XP on his sheet; those who fled, surrendered or are down do not.
"""

from __future__ import annotations

from msgspec import Struct

from tui_combat.engine.model import State
from tui_combat.i18n import NC_, _, pgettext
from tui_combat.rulesets.dnd5e.data import EncounterRules, data

__all__ = ["Difficulty", "difficulty", "difficulty_line", "multiplier"]

CONTEXT = "encounter difficulty"
WORDS_2014: tuple[str, ...] = (
    NC_("encounter difficulty", "easy"),
    NC_("encounter difficulty", "medium"),
    NC_("encounter difficulty", "hard"),
    NC_("encounter difficulty", "deadly"),
)
WORDS_2024: tuple[str, ...] = (
    NC_("encounter difficulty", "low"),
    NC_("encounter difficulty", "moderate"),
    NC_("encounter difficulty", "high"),
)


class Difficulty(Struct, frozen=True, kw_only=True):
    rules: str
    """"2014" or "2024"."""
    levels: tuple[int, ...]
    monsters: int
    xp: int
    """The monsters' XP added up."""
    factor: float
    """2014: the multiplier for their number (1 for 2024)."""
    thresholds: tuple[int, ...]
    """The party's: easy, medium, hard, deadly (2014); low, moderate, high (2024)."""
    word: str
    """The highest threshold reached (a message id of the context :data:`CONTEXT`); "" below the lowest."""

    @property
    def adjusted(self) -> int:
        return int(self.xp * self.factor)


def multiplier(rules: EncounterRules, monsters: int, characters: int) -> float:
    """The 2014 multiplier for ``monsters`` against a party of ``characters``."""
    steps = [rules.smaller, *(factor for _n, factor in rules.multipliers), rules.larger]
    index = 1 + max((i for i, (n, _factor) in enumerate(rules.multipliers) if monsters >= n), default=0)
    if characters < rules.small_party:
        index += 1
    elif characters >= rules.large_party:
        index -= 1
    return steps[max(0, min(index, len(steps) - 1))]


def _sheet_int(sheet: dict[str, object], key: str) -> int:
    value = sheet.get(key, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def difficulty(state: State) -> Difficulty | None:
    """The fight's difficulty; None when there is no party level or no monster XP to count."""
    party = {side.id for side in state.sides if side.is_party}
    present = [c for c in state.combatants if c.status == "active"]
    levels = tuple(level for c in present if c.side in party if 1 <= (level := _sheet_int(c.sheet, "level")) <= 20)
    xps = [xp for c in present if c.side not in party if (xp := _sheet_int(c.sheet, "xp")) > 0]
    if not levels or not xps:
        return None
    rules = data().encounter
    if state.options.get("difficulty") == "2024":
        budget = tuple(sum(rules.budget_2024[level - 1][i] for level in levels) for i in range(3))
        factor, words = 1.0, WORDS_2024
        thresholds: tuple[int, ...] = budget
        rule = "2024"
    else:
        thresholds = tuple(sum(rules.thresholds[level - 1][i] for level in levels) for i in range(4))
        factor, words = multiplier(rules, len(xps), len(levels)), WORDS_2014
        rule = "2014"
    adjusted = int(sum(xps) * factor)
    word = next((words[i] for i in reversed(range(len(words))) if adjusted >= thresholds[i]), "")
    return Difficulty(
        rules=rule, levels=levels, monsters=len(xps), xp=sum(xps), factor=factor, thresholds=thresholds, word=word
    )


def _factor(value: float) -> str:
    return f"{value:g}"


_BELOW = (NC_("encounter difficulty", "trivial"), NC_("encounter difficulty", "below low"))


def difficulty_line(state: State) -> str | None:
    """The set-up's line: "Difficulty: hard — 5 monsters, 400 XP × 2 = 800 against easy 500 · medium 1000 …"."""
    found = difficulty(state)
    if found is None:
        return None
    words = WORDS_2014 if found.rules == "2014" else WORDS_2024
    against = " · ".join(f"{pgettext(CONTEXT, word)} {value}" for word, value in zip(words, found.thresholds))
    word = pgettext(CONTEXT, found.word or ("trivial" if found.rules == "2014" else "below low"))
    if found.rules == "2014":
        return _(
            "Difficulty: {word} — {monsters} monsters, {xp} XP × {factor} = {adjusted}; party of {party}: {against}",
            word=word,
            monsters=found.monsters,
            xp=found.xp,
            factor=_factor(found.factor),
            adjusted=found.adjusted,
            party=len(found.levels),
            against=against,
        )
    return _(
        "Difficulty (2024): {word} — {monsters} monsters, {xp} XP; budget of the party of {party}: {against}",
        word=word,
        monsters=found.monsters,
        xp=found.xp,
        party=len(found.levels),
        against=against,
    )
