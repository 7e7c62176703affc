"""OSE / Dolmenwood at the table: the distance rows that follow the surprise, a typed distance checked against
the row's dice, death at 0 hit points, fleeing melee against those who act before and after the fleer, and
spells in a turn tied sides take simultaneously. The fights are the packaged demo (see ``ose_fight.py``)."""

from __future__ import annotations

import pytest

from tests.common import typed
from tests.rulesets.ose_fight import (
    AMBROSE,
    GOBLIN_SIDE,
    GOBLINS,
    OGRE_SIDE,
    PARTY,
    WENDEL,
    act,
    declare,
    demo,
    last_texts,
    roll_initiative,
    to_slot,
)
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.dice import Roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.engine.public import public_view
from tui_combat.rulesets.ose import RULESET


# -- encounter distance ---------------------------------------------------------------------------------------
def rows(state: State) -> list[str]:
    return [s.id for s in RULESET.encounter_distances(state)]


def test_the_wilderness_row_follows_the_surprise() -> None:
    state = apply(demo(), a.BeginSurprise())
    # Nobody surprised: dungeon 2d6 × 10 ft, wilderness 4d6 × 10 yards.
    assert rows(state) == ["dungeon", "wilderness"]
    with pytest.raises(RuleError, match="does not apply now"):
        apply(state, a.RollDistance(situation="wilderness_surprised", roll=typed("1d4", 2)))
    # A side surprised: in the wilderness only 1d4 × 10 yards.
    state = apply(state, a.SetSurprised(sides=(GOBLIN_SIDE,)))
    assert rows(state) == ["dungeon", "wilderness_surprised"]
    with pytest.raises(RuleError, match="does not apply now"):
        apply(state, a.RollDistance(situation="wilderness", roll=typed("4d6", 14)))
    state = apply(state, a.RollDistance(situation="wilderness_surprised", roll=typed("1d4", 4)))
    assert state.log_entries()[-1].facts == {"distance": 40}


def test_both_sides_surprised_meet_at_the_distance_of_either_side_surprised() -> None:
    """Both sides roll surprised: the effects cancel, yet the wilderness distance is the book's "if either side is
    surprised", 1d4 × 10 yards (it used to offer 4d6 × 10 as if nobody were)."""
    state = apply(demo(), a.BeginSurprise())
    sides = {side.id for side in state.sides}
    state = apply(state, a.RollSurprise(rolls={side: typed("1d6", 1) for side in sides}))
    assert state.surprised == () and "Every side is surprised: the effects cancel." in last_texts(state, 1)
    assert rows(state) == ["dungeon", "wilderness_surprised"]
    state = apply(state, a.RollDistance(situation="wilderness_surprised", roll=typed("1d4", 3)))
    assert state.log_entries()[-1].facts == {"distance": 30}
    # One side's roll surprised, the other's not: the usual one-side row; none surprised: 4d6.
    one = apply(
        apply(demo(), a.BeginSurprise()),
        a.RollSurprise(rolls={side: typed("1d6", 1 if side == GOBLIN_SIDE else 5) for side in sides}),
    )
    assert rows(one) == ["dungeon", "wilderness_surprised"]
    none = apply(apply(demo(), a.BeginSurprise()), a.RollSurprise(rolls={side: typed("1d6", 5) for side in sides}))
    assert rows(none) == ["dungeon", "wilderness"]


@pytest.mark.parametrize(
    ("total", "message"),
    [
        (3, "4d6 cannot show 3 \\(the distance for wilderness\\): from 4 to 24."),
        (1000, "4d6 cannot show 1000 \\(the distance for wilderness\\): from 4 to 24."),
    ],
)
def test_a_typed_distance_is_one_the_rows_dice_can_show(total: int, message: str) -> None:
    state = apply(demo(), a.BeginSurprise())
    with pytest.raises(RuleError, match=f"^{message}$"):
        apply(state, a.RollDistance(situation="wilderness", roll=Roll(expr="4d6", total=total, physical=True)))
    with pytest.raises(RuleError, match="^The distance for wilderness is rolled with 4d6, not 2d6.$"):
        apply(state, a.RollDistance(situation="wilderness", roll=Roll(expr="2d6", total=7, physical=True)))
    # The lowest and highest 4d6 can show are taken: 40 and 240 yards.
    for edge, yards in ((4, 40), (24, 240)):
        after = apply(state, a.RollDistance(situation="wilderness", roll=Roll(expr="4d6", total=edge, physical=True)))
        assert after.log_entries()[-1].facts == {"distance": yards}


# -- death at 0 hit points ------------------------------------------------------------------------------------
def test_zero_hit_points_is_dead_and_never_below() -> None:
    state = roll_initiative(demo(), {PARTY: 5, GOBLIN_SIDE: 2, OGRE_SIDE: 1})
    goblin = GOBLINS[0]
    state = apply(state, a.Damage(combatant=goblin, amount=8))  # 3 HP, 8 damage: 0, not −5
    fallen = state.combatant(goblin)
    assert (fallen.hp, fallen.status) == (0, "down")
    assert RULESET.condition_word(state, goblin) == "dead"
    seen = [c for group in public_view(state).groups for c in group.combatants if c.name == "Goblin 1"]
    assert seen and all(c.health == "dead" for c in seen)
    with pytest.raises(RuleError, match="^Goblin 1 is dead: healing does not bring the dead back.$"):
        apply(state, a.Heal(combatant=goblin, amount=2))
    # Hurt but standing: no word of the book, the hit points go down to 1.
    state = apply(state, a.Damage(combatant=GOBLINS[1], amount=2))
    assert state.combatant(GOBLINS[1]).hp == 1 and RULESET.condition_word(state, GOBLINS[1]) is None


# -- fleeing melee --------------------------------------------------------------------------------------------
def test_a_fleer_whose_side_acted_first_is_gone_before_the_others_melee() -> None:
    state = declare(demo(), AMBROSE, "flee")
    state = roll_initiative(state, {PARTY: 5, GOBLIN_SIDE: 2, OGRE_SIDE: 1})
    state = act(state, "move", combatant=AMBROSE)
    state = to_slot(state, "Goblins · melee")
    fields = RULESET.action_fields(state, "attack", GOBLINS[1])
    assert dict(fields[0].choices)[AMBROSE] == "Sir Ambrose: fled from melee, out of reach"
    with pytest.raises(
        RuleError, match="^Sir Ambrose turned and fled from melee in his side's turn: he is out of reach.$"
    ):
        act(state, "attack", combatant=GOBLINS[1], target=AMBROSE, to_hit=typed("1d20", 13))


def test_a_fleer_in_a_tied_simultaneous_turn_gives_his_opponents_plus_two() -> None:
    state = apply(demo(), a.SetOption(key="ties", value="simultaneous"))
    state = declare(state, AMBROSE, "flee")
    state = roll_initiative(state, {PARTY: 4, GOBLIN_SIDE: 4, OGRE_SIDE: 1})
    state = to_slot(state, "Party + Goblins · movement")
    state = act(state, "move", combatant=AMBROSE)
    assert last_texts(state, 1) == [
        "Sir Ambrose turns and flees from melee: his opponents acting with him this turn "
        "get +2 to hit and ignore his shield."
    ]
    state = to_slot(state, "Party + Goblins · melee")
    # 13 + 2 = 15 against AC 16 − shield 1 = 15: a hit.
    state = act(state, "attack", combatant=GOBLINS[1], target=AMBROSE, to_hit=typed("1d20", 13))
    attack = state.log_entries()[-1]
    assert attack.text == (
        "Goblin 2 attacks Sir Ambrose (melee): 1d20 (typed): 13 +2 = 15 against AC 15 "
        "(+2: fleeing melee, shield ignored): hit."
    )


# -- spells when tied sides act simultaneously ----------------------------------------------------------------
@pytest.mark.parametrize(("option", "disrupted"), [(None, False), ("simultaneous", False), ("phases", True)])
def test_a_hit_in_the_shared_turn_before_the_magic_phase(option: str | None, disrupted: bool) -> None:
    state = apply(demo(), a.SetOption(key="ties", value="simultaneous"))
    if option is not None:
        state = apply(state, a.SetOption(key="tied_disruption", value=option))
    state = declare(state, WENDEL, "spell", "sleep")
    state = roll_initiative(state, {PARTY: 4, GOBLIN_SIDE: 4, OGRE_SIDE: 1})
    state = to_slot(state, "Party + Goblins · missiles")
    state = apply(state, a.Damage(combatant=WENDEL, amount=1))
    assert (WENDEL in RULESET.round_of(state).disrupted) is disrupted
    # A hit before the shared turn (during the declarations of another round, or before initiative) still
    # disrupts either way: that is the seed's "before his side's initiative".


def test_a_hit_before_initiative_disrupts_whatever_the_tie_option() -> None:
    state = apply(demo(), a.SetOption(key="ties", value="simultaneous"))
    state = declare(state, WENDEL, "spell", "sleep")
    state = apply(state, a.Damage(combatant=WENDEL, amount=1))
    assert RULESET.round_of(state).disrupted == (WENDEL,)
