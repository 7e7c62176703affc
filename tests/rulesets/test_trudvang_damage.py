"""Trudvang damage, armour, shields and Body Points through the real engine, with the GMG's figures
(gaps.md "Trudvang damage, armour and Body Points"): the open-ended d10 by weapon class + Strength, PV
absorbed, BV worn (PV = ⌈BV / 10⌉), a parry putting the damage on the shield, an unarmed parry halving
it, Body Points from the race, the damage levels and their penalties, dying at 0 or less.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.rulesets.trudvang_fight import (
    FRIDGAR,
    act,
    cid,
    d10,
    d20,
    fight,
    last_entry,
    last_log,
    next_round,
    roll_initiative,
    two,
)
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.fight.report import fight_report
from tui_combat.i18n import set_language
from tui_combat.rulesets.trudvang import RULESET
from tui_combat.rulesets.trudvang.health import damage_level, pv_of

ULF = {"sv": 8, "weapons": "broadsword", "armour": "chain"}


def hit(state: State, attacker: str = "Fridgar", target: str = "Ulf", **args: Any) -> State:
    return act(
        state,
        "attack",
        combatant=cid(state, attacker),
        target=cid(state, target),
        cp=args.pop("cp", 5),
        roll=d20(2),
        **args,
    )


def damage(state: State, name: str, amount: int) -> State:
    return apply(state, a.Damage(combatant=cid(state, name), amount=amount))


def due_after(before: State, after: State, name: str = "attack", **args: Any):  # type: ignore[no-untyped-def]
    return RULESET.damage_due(before, after, name, args)


# -- the damage roll -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("weapon", "dice"),
    [
        ("seax", "1d10!+2"),  # one-handed light: OR 10
        ("broadsword", "1d10!9+2"),  # one-handed heavy: OR 9
        ("two-handed axe", "1d10!8+2"),  # two-handed: OR 8
        ("longbow", "1d10!9"),  # bows add no Strength
        ("crossbow", "1d10!8"),
        ("unarmed", "1d6+2"),  # a medium creature's fist, + Strength
    ],
)
def test_a_hit_fills_in_the_weapons_open_ended_d10_and_strength(weapon: str, dice: str) -> None:
    sheet = {**FRIDGAR, "weapons": weapon if weapon != "unarmed" else "seax", "str_mod": 2}
    state = two(fridgar=sheet, decl={"Fridgar": {"weapon": weapon}})
    after = hit(state, weapon=weapon)
    due = due_after(state, after)
    assert due is not None and due.target == cid(state, "Ulf") and due.dice == dice


def test_negative_strength_and_a_house_rule_damage() -> None:
    state = two(fridgar={**FRIDGAR, "str_mod": -3})
    assert due_after(state, hit(state)).dice == "1d10!-3"
    state = two(fridgar={**FRIDGAR, "weapons": "Club (like broadsword, damage 2d6)", "str_mod": 1})
    assert due_after(state, hit(state, weapon="Club")).dice == "2d6+1"
    state = two(fridgar={**FRIDGAR, "weapons": "Heavy seax (like seax, or 8)"})
    assert due_after(state, hit(state, weapon="Heavy seax")).dice == "1d10!8"


# -- armour: PV absorbed, BV worn --------------------------------------------------------------------------
def test_armour_absorbs_its_pv_and_wears_by_the_excess() -> None:
    state = hit(two(ulf=ULF))
    state = damage(state, "Ulf", 12)  # chain mail PV 5: 7 through
    ulf = state.combatant(cid(state, "Ulf"))
    assert (ulf.hp, ulf.max_hp) == (13, 20)
    assert last_log(state) == "Ulf loses 7 BP, injured (-1). Chain mail absorbs 5. Chain mail: BV 50 → 43, PV 5."
    assert (last_entry(state).facts["body_damage"], last_entry(state).facts["absorbed"]) == (7, 5)
    assert RULESET.fight_of(state).wear == {cid(state, "Ulf"): {"armour": 43}}
    assert RULESET.round_of(state).attacks[0].damaged


@pytest.mark.parametrize(
    ("armour", "pv"),
    [
        ("thick fabric", 1),
        ("metal-reinforced leather", 4),
        ("scale-reinforced chain mail", 6),
        ("Scale plating", 7),
        ("double chain", 8),
        ("banded", 9),
        ("кольчуга с чешуёй", 6),
    ],
)
def test_the_rulebooks_other_armours_absorb_their_pv(armour: str, pv: int) -> None:
    """The six armours of the rulebook p. 119 (gaps.md) the data lacked: a hit of 12 leaves 12 − PV."""
    state = damage(hit(two(ulf={**ULF, "armour": armour})), "Ulf", 12)
    assert last_entry(state).facts["absorbed"] == pv
    assert state.combatant(cid(state, "Ulf")).hp == 20 - (12 - pv)


@pytest.mark.parametrize(
    ("shield", "pv"),
    [
        ("small fur shield", 5),
        ("Small metal shield", 6),
        ("medium fur shield", 6),
        ("medium metal shield", 7),
        ("large fur shield", 8),
        ("large metal shield", 9),
        ("великий металевий щит", 9),
    ],
)
def test_a_fur_or_metal_shield_takes_a_parried_blow_with_its_own_pv(shield: str, pv: int) -> None:
    """The rulebook p. 118 (gaps.md: "wood; fur +1, metal +2"): a parried 10 wears the shield by 10 − PV."""
    state = two(fridgar=FRIDGAR, ulf={**ULF, "shield": shield, "shield_bearer": 1})
    state = hit(state)
    state = act(state, "parry", combatant=cid(state, "Ulf"), weapon="shield", cp=3, roll=d20(2))
    state = damage(state, "Ulf", 10)
    ulf = cid(state, "Ulf")
    assert RULESET.bv_now(state, ulf, "shield") == pv * 10 - (10 - pv)
    assert state.combatant(ulf).hp == 20


@pytest.mark.parametrize(
    ("weapon", "far", "body"),
    [
        ("hunting bow", True, 1),  # 13 at long range: half, 6, less the chain mail's PV 5
        ("hunting bow", False, 8),  # 13 less 5
        ("longbow", True, 8),  # only the hunting bow loses half at long range
    ],
)
def test_a_hunting_bow_deals_half_damage_at_long_range(weapon: str, far: bool, body: int) -> None:
    """gaps.md (from the GMG): "A hunting bow deals half damage at long range" — it was left to the GM."""
    state = two(fridgar={**FRIDGAR, "weapons": weapon}, ulf=ULF, decl={"Fridgar": {"weapon": weapon}})
    fields = {f.key for f in RULESET.action_fields(state, "attack", cid(state, "Fridgar"))}
    assert "long_range" in fields
    before = state
    state = hit(state, weapon=weapon, long_range=far)
    due = due_after(before, state)
    assert due is not None and ("At long range: half of it reaches him." in str(due.note)) == (
        far and weapon == "hunting bow"
    )
    state = damage(state, "Ulf", 13)
    assert state.combatant(cid(state, "Ulf")).hp == 20 - body
    if far and weapon == "hunting bow":
        assert "Long range: half, 6." in last_log(state)


def test_the_hit_is_said_in_body_points_and_the_report_counts_what_was_lost() -> None:
    before = two(ulf=ULF)
    ulf = cid(before, "Ulf")
    done = [a.Damage(combatant=ulf, amount=12), a.Heal(combatant=ulf, amount=2)]
    state = before
    for action in done:
        state = apply(state, action)
    said = [entry.text for entry in state.log_entries()[-3:]]
    assert said[0] == "Ulf takes 12 damage: 13/20 BP." and said[1].startswith("Ulf loses 7 BP")
    assert said[2] == "Ulf heals 2: 15/20 BP."
    set_language("ru")
    try:
        assert [entry.text for entry in state.log_entries()[-3:]][0] == "Ulf: урон 12, ОТ 13/20."
    finally:
        set_language("en")
    report = fight_report(before, done)
    assert [(t.name, t.damage, t.healing) for t in report.damage] == [("Ulf", 7, 2)]  # 12 dealt, 5 on the chain mail
    players = fight_report(before, done, public=True)
    assert "Ulf takes 12 damage." in [e.text for r in players.rounds for e in r.entries]
    assert [(t.name, t.damage) for t in players.damage] == [("Ulf", 12)]  # dealt: what got through is a foe's figure
    assert all("lost" not in e.facts for r in players.rounds for e in r.entries)


def test_worn_armour_protects_less_and_a_small_hit_does_nothing() -> None:
    state = damage(two(ulf={**ULF, "sv": 8}), "Ulf", 20)  # 15 through: BV 50 → 35, PV ⌈3.5⌉ = 4
    ulf = cid(state, "Ulf")
    assert (RULESET.bv_now(state, ulf, "armour"), RULESET.pv_now(state, ulf, "armour")) == (35, 4)
    state = damage(state, "Ulf", 4)  # all of it absorbed: no BP lost, no wear
    assert state.combatant(ulf).hp == 5 and RULESET.bv_now(state, ulf, "armour") == 35
    assert last_log(state) == "Ulf loses 0 BP, seriously injured (-3). Chain mail absorbs 4."
    state = damage(state, "Ulf", 6)  # PV 4 now: 2 through
    assert state.combatant(ulf).hp == 3 and RULESET.bv_now(state, ulf, "armour") == 33
    assert dict(RULESET.details(state, ulf))["Armour"] == "Chain mail: IM -2, PV 4, BV 33 of 50"


def test_wear_by_one_a_hit_is_an_option() -> None:
    state = two(ulf=ULF)
    state = apply(state, a.SetOption(key="wear", value="one"))
    state = damage(state, "Ulf", 12)
    assert RULESET.bv_now(state, cid(state, "Ulf"), "armour") == 49
    assert state.combatant(cid(state, "Ulf")).hp == 13  # the PV still absorbs 5


@given(st.integers(min_value=0, max_value=100), st.integers(min_value=0, max_value=60))
def test_pv_follows_bv_and_body_damage_is_never_negative(bv: int, amount: int) -> None:
    assert pv_of(bv) == -(-bv // 10) and (pv_of(bv) - 1) * 10 < bv <= pv_of(bv) * 10 or bv == pv_of(bv) == 0
    state = damage(two(ulf=ULF), "Ulf", amount)
    assert state.combatant(cid(state, "Ulf")).hp == 20 - max(amount - 5, 0)


# -- parries: onto the shield, halved unarmed ----------------------------------------------------------
def test_a_shield_parry_puts_the_damage_on_the_shield() -> None:
    state = two(fridgar=FRIDGAR, ulf={**ULF, "shield": "medium", "shield_bearer": 1})
    state = hit(state)
    before = state
    state = act(state, "parry", combatant=cid(state, "Ulf"), weapon="shield", cp=3, roll=d20(2))
    due = due_after(before, state, "parry", weapon="shield")
    assert due is not None and due.target == cid(state, "Ulf") and due.dice == "1d10!"
    assert due.note == "Parried: the damage goes onto the Medium shield (PV 5, BV 50), not onto Ulf."
    state = damage(state, "Ulf", 9)  # 4 above the medium shield's PV 5
    ulf = cid(state, "Ulf")
    assert state.combatant(ulf).hp == 20
    assert RULESET.bv_now(state, ulf, "shield") == 46 and RULESET.bv_now(state, ulf, "armour") == 50
    assert last_log(state) == (
        "The parry puts the 9 damage on the Medium shield (PV 5): "
        "Ulf's body takes none. Medium shield: BV 50 → 46, PV 5."
    )
    # the next damage is no longer that hit's: it goes through the armour
    state = damage(state, "Ulf", 9)
    assert state.combatant(ulf).hp == 16


def test_a_failed_parry_asks_for_the_damage_with_the_armour_note() -> None:
    state = hit(two(ulf={**ULF, "shield": "medium", "shield_bearer": 1}))
    before = state
    state = act(state, "parry", combatant=cid(state, "Ulf"), weapon="shield", cp=3, roll=d20(19))
    due = due_after(before, state, "parry", weapon="shield")
    assert (
        due is not None
        and due.note == "A 10 rolls again: type the dice one by one (10 4). Chain mail absorbs 5 (BV 50)."
    )
    assert damage(state, "Ulf", 9).combatant(cid(state, "Ulf")).hp == 16


def test_an_unarmed_parry_of_an_armed_attack_halves_the_damage_before_the_armour() -> None:
    state = hit(two(ulf=ULF))
    before = state
    state = act(state, "parry", combatant=cid(state, "Ulf"), weapon="unarmed", cp=3, roll=d20(2))
    due = due_after(before, state, "parry", weapon="unarmed")
    assert due is not None and due.note.startswith("An unarmed parry of an armed attack: half of it reaches him.")
    state = damage(state, "Ulf", 15)  # half is 7, chain mail PV 5: 2
    assert state.combatant(cid(state, "Ulf")).hp == 18
    assert "Unarmed parry of an armed attack: half, 7." in last_log(state)


def test_once_the_damage_is_dealt_it_cannot_be_parried() -> None:
    state = damage(hit(two(ulf=ULF)), "Ulf", 8)
    with pytest.raises(RuleError, match="damage of attack #1 has been dealt"):
        act(state, "parry", combatant=cid(state, "Ulf"), cp=3, roll=d20(2))


def test_a_dodged_hit_takes_no_damage_form() -> None:
    state = hit(two(ulf=ULF))
    before = state
    state = act(state, "dodge", combatant=cid(state, "Ulf"), cp=3, roll=d20(2))
    assert due_after(before, state, "dodge") is None


# -- Body Points and damage levels --------------------------------------------------------------------------
def test_body_points_from_the_race_or_typed() -> None:
    state = fight(
        ("Heroes", "Fridgar", {**FRIDGAR, "race": "human", "con_mod": 1, "str_mod": 2}),
        ("Foes", "Troll", {"sv": 8, "race": "ogro", "con_mod": -2}),
        ("Foes", "Ulf", ULF),
    )
    assert state.combatant(cid(state, "Fridgar")).max_hp == 35  # human 32 + Con 1 + Str 2
    assert state.combatant(cid(state, "Troll")).max_hp == 36
    assert state.combatant(cid(state, "Ulf")).max_hp == 20  # no race: the HP typed
    with pytest.raises(RuleError, match='unknown race "hobbit"'):
        fight(("Heroes", "Bilbo", {"sv": 3, "race": "hobbit"}))


@pytest.mark.parametrize(
    ("lost", "level"), [(0, None), (8, 0), (9, 1), (16, 1), (17, 2), (24, 2), (25, 3), (31, 3), (32, 4), (40, 4)]
)
def test_damage_levels_by_quarters_of_32(lost: int, level: int | None) -> None:
    assert damage_level(32 - lost, 32) == level


def test_levels_on_the_card_the_players_screen_and_dying_below_zero() -> None:
    state = two(ulf={"sv": 8, "weapons": "broadsword", "race": "human"})
    ulf = cid(state, "Ulf")
    assert RULESET.condition_word(state, ulf) is None
    state = damage(state, "Ulf", 9)
    assert RULESET.condition_word(state, ulf) == "injured"
    assert ("Damage level", "injured (-1)") in RULESET.details(state, ulf)
    state = damage(state, "Ulf", 23)  # 0 BP: dying, out of the fight
    combatant = state.combatant(ulf)
    assert (combatant.hp, combatant.status, RULESET.condition_word(state, ulf)) == (0, "down", "dying")
    state = damage(state, "Ulf", 5)
    assert state.combatant(ulf).hp == -5  # BP go on below 0 while dying
    state = apply(state, a.Heal(combatant=ulf, amount=10))
    assert (state.combatant(ulf).hp, state.combatant(ulf).status, RULESET.condition_word(state, ulf)) == (
        5,
        "active",
        "critically injured",
    )


def test_the_level_penalty_applies_to_actions_at_once() -> None:
    state = two(fridgar={**FRIDGAR, "race": "human"})  # 32 BP
    state = damage(state, "Fridgar", 10)  # injured: −1
    state = hit(state, cp=6)
    assert "6 CP -1 damage = SV 5" in last_log(state) and last_entry(state).facts["sv"] == 5
    state = damage(state, "Fridgar", 10)  # 20 lost: seriously injured, −3
    state = act(state, "attack", combatant=cid(state, "Fridgar"), target=cid(state, "Ulf"), cp=6, roll=d20(2))
    assert last_entry(state).facts["sv"] == 3


def test_the_level_penalty_applies_to_next_rounds_initiative() -> None:
    state = two(fridgar={**FRIDGAR, "race": "human"})
    fridgar = cid(state, "Fridgar")
    im = RULESET.init_modifier(state, fridgar)
    state = damage(state, "Fridgar", 20)  # seriously injured in round 1: this round's initiative stands
    assert RULESET.init_modifier(state, fridgar) == im
    state = next_round(state)
    assert ("damage", -3) in RULESET.im_parts(state, fridgar)
    assert RULESET.init_modifier(state, fridgar) == im - 3
    state = roll_initiative(state, Fridgar=d10(6), Ulf=d10(9))
    assert RULESET.value_of(state, RULESET.round_of(state), fridgar) == 6 + im - 3


@given(st.lists(st.integers(min_value=0, max_value=40), max_size=8), st.sampled_from(["excess", "one"]))
def test_every_damage_takes_the_pv_of_the_moment_and_wears_the_armour_down(amounts: list[int], wear: str) -> None:
    state = apply(two(ulf={**ULF, "armour": "plate"}), a.SetOption(key="wear", value=wear))
    ulf = cid(state, "Ulf")
    for amount in amounts:
        hp, bv, pv = state.combatant(ulf).hp, RULESET.bv_now(state, ulf, "armour"), RULESET.pv_now(state, ulf, "armour")
        state = damage(state, "Ulf", amount)
        through = max(amount - pv, 0)
        assert state.combatant(ulf).hp == hp - through
        after = RULESET.bv_now(state, ulf, "armour")
        assert after == (bv if not through else max(bv - (through if wear == "excess" else 1), 0))
        assert RULESET.pv_now(state, ulf, "armour") == (pv if not through else pv_of(after))
