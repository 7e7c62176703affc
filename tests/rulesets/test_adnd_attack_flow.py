"""The attack flow's pure side for the AD&D family: the chance shown before the roll, the damage a hit asks
for (the weapon's dice with its magic), and the last one attacked named first next time."""

from __future__ import annotations

from tests.common import d10
from tests.engine.test_adnd2e import MONSTERS, PARTY, RAF, demo_store, start
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.contract import DamageDue, last_target
from tui_combat.engine.dice import with_bonus
from tui_combat.engine.log import Msg
from tui_combat.rulesets.adnd2e import RULESET, Sheet
from tui_combat.rulesets.adnd2e.sheet import damage_of, table_damage


def d20(total: int) -> dict[str, object]:
    return {"expr": "1d20", "total": total, "faces": [total]}


def test_the_damage_dice_of_each_attack_form() -> None:
    raf = Sheet(weapon="war hammer", magic=4, damage="1d4+1")
    assert damage_of(raf, "war hammer") == "1d4+5"  # the hammer's +4 adds to the damage too
    troll = Sheet(cls="monster", level="6+6", natural=True, forms="claw, claw, bite", damage="1d4+4, 1d4+4, 2d6")
    assert (damage_of(troll, "claw"), damage_of(troll, "bite")) == ("1d4+4", "2d6")
    two = Sheet(weapon="long sword", damage="1d8", weapon2="dagger", magic2=1, damage2="1d4")
    assert (damage_of(two, "long sword"), damage_of(two, "dagger")) == ("1d8", "1d4+1")
    assert damage_of(Sheet(weapon="mace"), "mace") == ""  # not on the sheet: the GM types it
    assert with_bonus("1d8-1", 1) == "1d8" and with_bonus("2d6", 0) == "2d6" and with_bonus("3", 2) == "5"


def test_the_chance_before_the_roll_and_the_damage_after_a_hit() -> None:
    store = demo_store()
    start(store)
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(3), MONSTERS: d10(8)}))
    state = store.state
    troll = next(c.id for c in state.combatants if c.name == "Troll 1")
    orc = next(c.id for c in state.combatants if c.name == "Orc 1")
    # Raf, warrior 5: THAC0 16; against the troll's AC 4 he needs 12, with the hammer's +4 an 8: 13 faces.
    assert (
        RULESET.form_preview(state, "attack", RAF, {"target": troll})
        == "Needs 8 or more on the d20 (THAC0 16 − AC 4, +4 magic): 65% to hit."
    )
    # A bonus of −10 leaves only the natural 20.
    assert (
        RULESET.form_preview(state, "attack", RAF, {"target": troll, "bonus": "-10"})
        == "Needs 18 or more on the d20 (THAC0 16 − AC 4, +4 magic, -10 other): 15% to hit."
    )
    before = state
    hit = apply(state, a.RulesetAction(name="attack", args={"combatant": RAF, "target": troll, "roll": d20(8)}))
    # The troll is large: the war hammer's large column (PHB Table 44: 1d4+1 / 1d4), with its +4.
    assert RULESET.damage_due(before, hit, "attack", {"combatant": RAF}) == DamageDue(
        target=troll, dice="1d4+4", what="war hammer", note=Msg(id="Against a large target: the weapon's large column.")
    )
    assert last_target(hit, RAF) == troll
    miss = apply(state, a.RulesetAction(name="attack", args={"combatant": RAF, "target": orc, "roll": d20(1)}))
    assert RULESET.damage_due(before, miss, "attack", {"combatant": RAF}) is None
    assert last_target(miss, RAF) == orc
    by_ac = apply(state, a.RulesetAction(name="attack", args={"combatant": RAF, "target_ac": 4, "roll": d20(15)}))
    assert RULESET.damage_due(before, by_ac, "attack", {"combatant": RAF}) is None  # nobody named: nobody to hurt
    fallen = apply(hit, a.SetStatus(combatant=troll, status="down"))
    assert last_target(fallen, RAF) is None


def test_the_large_column_of_table_44() -> None:
    """PHB Table 44 (gaps.md): long sword 1d8 / 1d12, two-handed sword 1d10 / 3d6, war hammer 1d4+1 / 1d4."""
    assert table_damage("long sword") == ("1d8", "1d12") and table_damage("two-handed sword") == ("1d10", "3d6")
    sword = Sheet(weapon="long sword", damage="1d8")
    assert (damage_of(sword, "long sword"), damage_of(sword, "long sword", large=True)) == ("1d8", "1d12")
    strong = Sheet(weapon="long sword", damage="1d8+2")  # his Strength's +2 stays against large
    assert damage_of(strong, "long sword", large=True) == "1d12+2"
    own = Sheet(weapon="long sword", damage="2d6")  # the GM's own figure: used against every size
    assert damage_of(own, "long sword", large=True) == "2d6"
    bare = Sheet(weapon="two-handed sword")  # nothing on the sheet: the table's
    assert (damage_of(bare, "two-handed sword"), damage_of(bare, "two-handed sword", large=True)) == ("1d10", "3d6")
    troll = Sheet(cls="monster", level="6+6", natural=True, forms="claw, claw, bite", damage="1d4+4, 1d4+4, 2d6")
    assert damage_of(troll, "bite", large=True) == "2d6"  # natural forms have no large column
