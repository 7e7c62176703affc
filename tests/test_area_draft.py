"""What the area preview works out before anything is applied (tui_combat/screens/area_draft.py), with the rules
themselves: a damage's type read from what the GM types, in English or in his language; whether the rules take a
DC; a fireball's preview on goblins and a rogue with Evasion, equal to what applying it does; one roll for all with
advantage; cover where the rules take it; Trudvang's plain damage."""

from __future__ import annotations

import random

import pytest

from tests.common import ids
from tests.rulesets.test_dnd5e_saves import GOBLINS, MIRELA, RAF, started
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply
from tui_combat.engine.dice import DiceError, Roll
from tui_combat.engine.encounter import ENCOUNTER_DIR, built, load_encounter
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.i18n import language, set_language
from tui_combat.rulesets.dnd5e import RULESET as DND5E
from tui_combat.screens.area_draft import (
    AreaDraft,
    AreaRolls,
    area_action,
    damage_roll,
    dc_matters,
    next_cover,
    outcome,
    read_damage_kind,
    roll_saves,
    split_damage_kind,
    typed_group,
    typed_save,
)
from tui_combat.screens.damage_prompt import damage_and_kind
from tui_combat.widgets.order_rows import status_mark


def demo(file_name: str) -> State:
    path = ENCOUNTER_DIR / file_name
    return built(load_encounter(path), path)


def test_a_damage_type_is_read_after_the_amount() -> None:
    state = started({"Party": [RAF], "Goblins": [GOBLINS]})
    assert split_damage_kind(DND5E, state, "12 fire") == ("12", "fire")
    assert split_damage_kind(DND5E, state, "2d6+1 Fire") == ("2d6+1", "fire")
    assert split_damage_kind(DND5E, state, "fire") == ("", "fire")
    assert split_damage_kind(DND5E, state, "12") == ("12", "")
    assert split_damage_kind(DND5E, state, "8 li") == ("8", "lightning")  # the start of one type alone
    assert read_damage_kind(DND5E, state, "p") is None  # piercing, poison, psychic
    assert damage_and_kind(DND5E, state, "12 fyre") == (
        '"fyre" is not a type of damage; the types are: acid, bludgeoning, cold, fire, force, lightning, necrotic, '
        "piercing, poison, psychic, radiant, slashing, thunder."
    )
    adnd = demo("demo_adnd2e.toml")
    assert split_damage_kind(registry.get("adnd2e"), adnd, "12 fire") == ("12 fire", "")  # no types: the amount's


def test_a_damage_type_in_the_gm_s_language() -> None:
    state = started({"Party": [RAF], "Goblins": [GOBLINS]})
    before = language()
    set_language("ru")
    try:
        from tui_combat.i18n import _

        fire = _("fire")
        assert split_damage_kind(DND5E, state, f"12 {fire}") == ("12", "fire")
    finally:
        set_language(before)


def test_the_dc_is_asked_where_the_odds_follow_it() -> None:
    state = started({"Party": [RAF], "Goblins": [GOBLINS]})
    raf = ids(state)["Raf"]
    assert dc_matters(DND5E, state, raf, "dex")
    adnd = demo("demo_adnd2e.toml")
    assert not dc_matters(registry.get("adnd2e"), adnd, adnd.combatants[0].id, "breath")
    ose = demo("demo_ose.toml")
    assert not dc_matters(registry.get("ose"), ose, ose.combatants[0].id, "breath")
    trudvang = demo("demo_trudvang.toml")
    assert not dc_matters(registry.get("trudvang"), trudvang, trudvang.combatants[0].id, "")


def test_a_fireball_previewed_is_what_applying_it_does() -> None:
    """8d6 fire typed as 28, DC 15 Dex: Raf (+7, Evasion) saves with 13 and takes nothing; Goblin 1 (+2) fails with 4
    and takes 28; Goblin 2 saves with 17 and takes 14 — each as the log then says."""
    state = started({"Party": [MIRELA, RAF], "Goblins": [GOBLINS]}, first=("Mirela",))
    named = ids(state)
    draft = AreaDraft(
        targets=(named["Raf"], named["Goblin 1"], named["Goblin 2"]),
        name="Fireball",
        dice="8d6",
        kind="fire",
        save="dex",
        dc=15,
        source=named["Mirela"],
    )
    rolls = AreaRolls(damage=damage_roll("8d6", None, "28"))
    for target, face in (("Raf", "13"), ("Goblin 1", "4"), ("Goblin 2", "17")):
        rolls = typed_save(DND5E, state, draft, rolls, named[target], face)
    found = outcome(DND5E, state, draft, rolls)
    assert [(row.name, row.total, row.needed, row.chance, row.result, row.takes, row.health) for row in found.rows] == [
        ("Raf", "13+7=20", "DC 15", "65%", "saved", "0", "45/45"),
        ("Goblin 1", "4+2=6", "DC 15", "40%", "failed", "28 fire", f"0/7{status_mark('down')}"),
        ("Goblin 2", "17+2=19", "DC 15", "40%", "saved", "14 fire", f"0/7{status_mark('down')}"),
    ]
    assert found.rows[0].why == "0 of 28"
    after = apply(state, found.action)
    assert [after.combatant(named[name]).hp for name in ("Raf", "Goblin 1", "Goblin 2")] == [45, 0, 0]
    assert found.rows[1].lines[0] == (
        "Goblin 1: Dexterity save: 1d20 (typed): 4, +2 → 6 against DC 15: failed; 28 damage (fire): 0/7 HP."
    )
    assert found.header.startswith("Mirela's Fireball: 28 damage (fire)")
    assert state.combatant(named["Raf"]).hp == 45  # the preview applied nothing


def test_one_roll_for_all_and_advantage() -> None:
    """A dodging goblin rolls his Dexterity save with advantage: one roll for all needs both d20, the better his."""
    state = started({"Party": [MIRELA], "Goblins": [GOBLINS]})
    named = ids(state)
    goblin_1, goblin_2 = named["Goblin 1"], named["Goblin 2"]
    state = apply(
        state,
        a.RulesetAction(name="condition", args={"combatant": goblin_1, "condition": "dodging", "ends": "removed"}),
    )
    draft = AreaDraft(
        targets=(goblin_1, goblin_2), name="Fireball", dice="8d6", kind="fire", save="dex", dc=15, group_roll=True
    )
    rolls = AreaRolls(damage=damage_roll("8d6", None, "28"))
    with pytest.raises(RuleError, match="type both d20"):
        typed_group(DND5E, state, draft, rolls, "14")
    rolls = typed_group(DND5E, state, draft, rolls, "6 14")
    saves = {target.combatant: target.roll for target in area_action(DND5E, state, draft, rolls).targets}
    assert saves[goblin_2] == Roll(expr="1d20", total=6, faces=(6,), physical=True)
    assert saves[goblin_1] is not None and saves[goblin_1].total == 14 and saves[goblin_1].faces == (6, 14)
    rows = outcome(DND5E, state, draft, rolls).rows
    assert [(row.roll, row.result) for row in rows] == [("14 (6)", "saved"), ("6", "failed")]
    with pytest.raises(DiceError):
        typed_group(DND5E, state, draft, rolls, "21")


def test_cover_where_the_rules_take_it() -> None:
    state = started({"Party": [RAF], "Goblins": [GOBLINS]})
    raf = ids(state)["Raf"]
    dex = AreaDraft(targets=(raf,), name="Fireball", dice="8d6", save="dex", dc=15)
    assert [next_cover(DND5E, state, dex, raf, now) for now in (0, 2, 5)] == [2, 5, 0]
    wisdom = AreaDraft(targets=(raf,), name="Fear", save="wis", dc=15)
    assert next_cover(DND5E, state, wisdom, raf, 0) is None  # cover helps Dexterity saves only
    adnd = demo("demo_adnd2e.toml")
    breath = AreaDraft(targets=(adnd.combatants[0].id,), name="Breath", dice="4d8", save="breath")
    assert next_cover(registry.get("adnd2e"), adnd, breath, adnd.combatants[0].id, 0) is None


def test_the_app_s_dice_keep_what_was_typed() -> None:
    state = started({"Party": [RAF], "Goblins": [GOBLINS]})
    named = ids(state)
    draft = AreaDraft(targets=(named["Raf"], named["Goblin 1"]), name="Fireball", dice="8d6", save="dex", dc=15)
    rolls = typed_save(DND5E, state, draft, AreaRolls(), named["Raf"], "11")
    rolled = roll_saves(DND5E, state, draft, rolls, random.Random(1))
    assert rolled.saves[named["Raf"]].total == 11 and named["Goblin 1"] in rolled.saves
    again = roll_saves(DND5E, state, draft, rolled, random.Random(2), again=True)
    assert again.saves[named["Raf"]].physical is False


def test_trudvang_deals_the_damage_to_each() -> None:
    state = demo("demo_trudvang.toml")
    for action in (a.BeginSurprise(), a.StartFight()):
        state = apply(state, action)
    rules = registry.get("trudvang")
    targets = tuple(c.id for c in state.combatants[:3])
    draft = AreaDraft(targets=targets, name="Avalanche", dice="2d10")
    found = outcome(rules, state, draft, AreaRolls(damage=damage_roll("2d10", None, "13")))
    assert all(row.result == "—" and row.needed == "—" for row in found.rows)
    assert all(row.takes.startswith("13") for row in found.rows)
    assert found.header == "Avalanche: 13 damage (2d10 (typed): 13), no saving throw."
