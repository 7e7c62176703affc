"""Trudvang has no saving throws in its combat chapter: an area deals its damage to each of its targets, as a
hit does (Body Points, the damage level), one action and one undo; a GM who asks it for a save is told why not."""

from __future__ import annotations

import pytest

from tests.common import rolled
from tests.rulesets.trudvang_fight import FRIDGAR, fight
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import ROLLS_SHOWN, State
from tui_combat.engine.public import public_entries
from tui_combat.rulesets.trudvang import RULESET


def bandits(rolls_shown: str = "") -> tuple[State, list[str]]:
    state = fight(("Party", "Ulf", FRIDGAR), ("Foes", "Bandit", FRIDGAR), count={"Bandit": 3}, rolls_shown=rolls_shown)
    return state, [c.id for c in state.combatants if c.name.startswith("Bandit")]


@pytest.mark.parametrize("rolls_shown", ROLLS_SHOWN)
def test_an_area_deals_its_damage_to_three_targets_without_saves(rolls_shown: str) -> None:
    state, ids = bandits(rolls_shown)
    assert RULESET.save_kinds(state) == ()
    oil = a.AreaEffect(
        name="Burning oil", targets=tuple(a.AreaTarget(combatant=cid) for cid in ids), damage=rolled("2d6", 3, 4)
    )
    after = apply(state, oil)
    assert [(c.name, c.hp) for c in after.combatants] == [
        ("Ulf", 20),
        ("Bandit 1", 13),
        ("Bandit 2", 13),
        ("Bandit 3", 13),
    ]
    new = [entry.text for entry in after.log_entries()[len(state.log_entries()) :]]
    assert new[0] == "Burning oil: 7 damage (2d6: [3, 4] = 7), no saving throw."
    for name in ("Bandit 1", "Bandit 2", "Bandit 3"):  # each as a hit: the engine's line and Trudvang's damage level
        assert f"{name} takes 7 damage: 13/20 BP." in new
        assert f"{name} loses 7 BP, injured (-1)." in new
    read = [entry.text for entry in public_entries(after)]
    assert "Bandit 3 takes 7 damage: 13/20 BP." not in read  # a foe's Body Points left are the GM's
    assert "Bandit 3 takes 7 damage." in read  # damage is an outcome, whatever they see of rolls
    assert ("Bandit 3 loses 7 BP, injured (-1)." in read) == (rolls_shown == "everything")


def test_trudvang_asked_for_a_save_says_it_has_none() -> None:
    state, ids = bandits()
    with pytest.raises(RuleError, match="no saving throws"):
        apply(state, a.SavingThrow(combatant=ids[0], kind="breath", roll=rolled("1d20", 12)))
    with pytest.raises(RuleError, match="no saving throws"):
        apply(
            state,
            a.AreaEffect(
                name="Breath",
                save="breath",
                damage=rolled("2d6", 3, 4),
                targets=tuple(a.AreaTarget(combatant=cid, roll=rolled("1d20", 9)) for cid in ids),
            ),
        )
    with pytest.raises(RuleError) as error:  # what the screens read before a roll
        RULESET.save_odds(state, ids[0], "breath", 0)
    assert str(error.value) == (
        "Trudvang has no saving throws: resisting is a skill or attribute roll of the game's "
        "own. An area deals its damage to each target, with no save."
    )
