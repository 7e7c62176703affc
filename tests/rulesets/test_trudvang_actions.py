"""Trudvang combat actions through the real engine: attacks, parries and dodges, CP and weapon actions,
grapple, break free and Glima, hold / skip / change of action, and the forms the round screen shows.

Numbers are the seed's (Fridgar: 14 CP with a one-handed light weapon, 10 with another, 9 unarmed) or
worked out by hand in the comments; structured results are read from the log entry's facts.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tests.rulesets.trudvang_fight import (
    FRIDGAR,
    WRESTLER,
    act,
    budget,
    cid,
    d10,
    d20,
    declare,
    fight,
    labels,
    last_entry,
    last_log,
    next_round,
    roll_initiative,
    three,
    two,
)
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.dice import Roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import render
from tui_combat.engine.model import State
from tui_combat.i18n import use_catalog
from tui_combat.rulesets.trudvang import RULESET, AttackRecord


# -- attacks, parries and CP ---------------------------------------------------------------------------
def test_attack_spends_locked_cp_first_and_one_weapon_action() -> None:
    state = two(decl={"Fridgar": {"weapon": "seax"}})
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=6, weapon="seax", roll=msgspec.to_builtins(d20(6)))
    # 6 CP from the seax's pools, most specific first: one-handed light 4, any weapon 1, general 1
    assert budget(state, "Fridgar")["CP one-handed light"] == (0, 4)
    assert budget(state, "Fridgar")["CP any weapon"] == (0, 1)
    assert budget(state, "Fridgar")["CP"] == (8, 9)
    assert budget(state, "Fridgar")["Seax actions"] == (3, 4)
    assert "6 CP = SV 6" in last_log(state) and "→ hit" in last_log(state)
    facts = last_entry(state).facts
    assert (facts["cp"], facts["sv"], facts["needed"], facts["roll"], facts["result"], facts["hit"]) == (
        6,
        6,
        6,
        6,
        "success",
        True,
    )
    assert last_entry(state).rolls == (d20(6),)
    assert RULESET.round_of(state).attacks == (
        AttackRecord(id=1, attacker=fridgar, target=ulf, kind="attack", item="Seax", hit=True),
    )
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=2, weapon="seax", roll=d20(1))
    assert "critical hit" in last_log(state) and last_entry(state).facts["result"] == "critical"
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=2, weapon="seax", roll=d20(20))
    assert "fumble" in last_log(state) and (last_entry(state).facts["result"], last_entry(state).facts["hit"]) == (
        "fumble",
        False,
    )
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=2, weapon="seax", roll=d20(3))
    assert "→ miss" in last_log(state) and last_entry(state).facts["result"] == "failure"


def test_not_enough_cp_says_how_many_are_left() -> None:
    state = two(decl={"Fridgar": {"weapon": "broadsword"}})
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=7, weapon="broadsword", roll=d20(15))
    with pytest.raises(RuleError) as error:
        act(state, "attack", combatant=fridgar, target=ulf, cp=5, weapon="broadsword", roll=d20(4))
    assert str(error.value) == "Not enough CP: Fridgar has 3 left for the broadsword, needs 5."


def test_weapon_actions_and_unarmed_attacks_are_limited() -> None:
    state = two({"sv": 30, "weapons": "two-handed sword"}, decl={"Fridgar": {"weapon": "two-handed sword"}})
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    for _ in range(2):
        state = act(state, "attack", combatant=fridgar, target=ulf, cp=1, roll=d20(19))
    with pytest.raises(
        RuleError, match="The two-handed sword allows 2 weapon actions a round; Fridgar has used them all."
    ):
        act(state, "attack", combatant=fridgar, target=ulf, cp=1, roll=d20(19))
    for _ in range(4):
        state = act(state, "attack", combatant=fridgar, target=ulf, cp=1, weapon="unarmed", roll=d20(19))
    with pytest.raises(RuleError, match="all 4 unarmed attacks"):
        act(state, "attack", combatant=fridgar, target=ulf, cp=1, weapon="unarmed", roll=d20(19))


def test_refusals_say_why() -> None:
    state = two()
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    with pytest.raises(RuleError, match="It is not Ulf's turn: his call is 5, the countdown is at 10"):
        act(state, "attack", combatant=ulf, target=fridgar, cp=3, roll=d20(3))
    with pytest.raises(RuleError, match="declared seax this round: change the action first to use the broadsword"):
        act(state, "attack", combatant=fridgar, target=ulf, cp=3, weapon="broadsword", roll=d20(3))
    with pytest.raises(RuleError, match="Choose whom Fridgar attacks"):
        act(state, "attack", combatant=fridgar, cp=3, roll=d20(3))
    with pytest.raises(RuleError, match="1d20"):
        act(state, "attack", combatant=fridgar, target=ulf, cp=3, roll=Roll(expr="1d10!", total=23))
    with pytest.raises(RuleError, match="No hit on Ulf"):
        act(state, "parry", combatant=ulf, cp=3, roll=d20(3))
    with pytest.raises(RuleError, match="Unknown action fireball"):
        act(state, "fireball", combatant=fridgar)
    with pytest.raises(RuleError, match="not a hand"):
        act(state, "attack", combatant=fridgar, target=ulf, cp=3, hand="tail", roll=d20(3))
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=3, roll=d20(15))
    with pytest.raises(RuleError, match="missed: there is nothing to parry"):
        act(state, "parry", combatant=ulf, cp=3, attack=1, roll=d20(3))
    state = apply(state, a.NextStep())
    with pytest.raises(RuleError, match="Fridgar's turn has passed \\(his call was 10\\)"):
        act(state, "attack", combatant=fridgar, target=ulf, cp=3, roll=d20(3))


def test_parry_once_per_attack_and_never_against_ranged() -> None:
    state = two(ulf={"sv": 8, "weapons": "hunting bow, broadsword", "shield": "small"})
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=5, roll=d20(2))
    state = act(state, "parry", combatant=ulf, cp=3, weapon="hunting bow", roll=d20(2))
    assert budget(state, "Ulf")["CP"] == (5, 8) and budget(state, "Ulf")["Hunting bow actions"] == (2, 3)
    assert "parried" in last_log(state)
    assert (
        last_entry(state).facts["defence"],
        last_entry(state).facts["saved"],
        last_entry(state).facts["attack"],
    ) == ("parry", True, 1)
    assert RULESET.round_of(state).attacks[0].defended == "parry"
    with pytest.raises(RuleError, match="one attempt per attack"):
        act(state, "parry", combatant=ulf, cp=3, attack=1, roll=d20(2))
    state = apply(state, a.NextStep())
    state = act(state, "attack", combatant=ulf, target=fridgar, cp=4, weapon="hunting bow", roll=d20(2))
    assert RULESET.round_of(state).attacks[1].ranged
    with pytest.raises(RuleError, match="A ranged attack cannot be parried; Fridgar may dodge"):
        act(state, "parry", combatant=fridgar, cp=3, roll=d20(2))
    state = act(state, "dodge", combatant=fridgar, cp=3, roll=d20(2))
    assert "dodged" in last_log(state) and budget(state, "Fridgar")["CP"] == (6, 9)


def test_ranged_locked_cp_cannot_parry() -> None:
    archer = {"sv": 4, "weapons": "hunting bow", "specialties": "Bows 3"}
    state = two(ulf=archer)
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=5, roll=d20(2))
    with pytest.raises(RuleError, match="Not enough CP: Ulf has 4 left for the hunting bow, needs 5"):
        act(state, "parry", combatant=ulf, cp=5, weapon="hunting bow", roll=d20(2))


def test_undeclared_shield_parry_before_and_after_own_call() -> None:
    state = two(
        ulf={"sv": 8, "weapons": "broadsword", "shield": "medium", "shield_bearer": 1},
        decl={"Ulf": {"weapon": "broadsword", "shield": False}},
    )
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    # the declaration counts: Ulf 9 − 4 = 5
    assert labels(state) == [("10", ["Fridgar"]), ("5", ["Ulf"])]
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=5, roll=d20(2))
    state = act(state, "parry", combatant=ulf, cp=3, weapon="shield", roll=d20(2))
    # before his call the medium shield's IM (−2) is added to his initiative
    assert labels(state) == [("10", ["Fridgar"]), ("3", ["Ulf"])]
    assert RULESET.declaration(state, ulf) == {"weapon": "broadsword", "shield": True}
    assert "3 CP = SV 3" in last_log(state)  # Shield bearer 1: no off-hand penalty
    state = two(
        ulf={"sv": 8, "weapons": "broadsword", "shield": "medium"},
        decl={"Ulf": {"weapon": "broadsword", "shield": False}, "Fridgar": {"weapon": "seax"}},
    )
    state = apply(state, a.NextStep())  # Ulf's call
    with pytest.raises(RuleError, match="call has come"):
        declare(state, "Ulf", weapon="unarmed")
    state = act(state, "attack", combatant=cid(state, "Ulf"), target=cid(state, "Fridgar"), cp=2, roll=d20(2))
    with pytest.raises(RuleError, match="did not count the IM of the broadsword on his turn"):
        act(state, "parry", combatant=cid(state, "Fridgar"), cp=2, weapon="broadsword", roll=d20(2))


def test_off_hand_penalty_and_its_reductions() -> None:
    base = {"sv": 20, "weapons": "broadsword, seax", "shield": "small"}
    # −15; Body control 2: −15 + 6 = −9; Ambidexter 5: −15 + 15 = 0 (no penalty)
    for extra, expected, sv in (
        ({}, "-15 off hand", -5),
        ({"body_control": 2}, "-9 off hand", 1),
        ({"ambidexter": 5}, "= SV 10", 10),
    ):
        state = two({**base, **extra}, decl={"Fridgar": {"weapon": "broadsword", "offhand": "seax", "shield": True}})
        state = act(
            state,
            "attack",
            combatant=cid(state, "Fridgar"),
            target=cid(state, "Ulf"),
            cp=10,
            weapon="seax",
            roll=d20(5),
        )
        assert expected in last_log(state) and last_entry(state).facts["sv"] == sv
    state = two({**base, "shield_bearer": 1}, decl={"Fridgar": {"weapon": "broadsword", "shield": True}})
    state = act(
        state, "attack", combatant=cid(state, "Fridgar"), target=cid(state, "Ulf"), cp=10, weapon="shield", roll=d20(5)
    )
    assert "10 CP = SV 10" in last_log(state) and budget(state, "Fridgar")["Small shield actions"] == (2, 3)


# -- hold, skip, change --------------------------------------------------------------------------------
def test_hold_then_act_at_minus_five() -> None:
    state = three()
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    assert labels(state) == [("10 (13)", ["Fridgar"]), ("10 (11)", ["Sigrid"]), ("5", ["Ulf"]), ("3", ["Orm"])]
    with pytest.raises(RuleError, match="It is not Ulf's turn"):
        act(state, "hold", combatant=ulf)
    state = act(state, "hold", combatant=fridgar)
    assert RULESET.round_of(state).turns[fridgar].held
    assert labels(state) == [("10", ["Sigrid"]), ("5", ["Ulf"]), ("3", ["Orm"])]
    assert state.acting_now() == (cid(state, "Sigrid"),)
    with pytest.raises(RuleError, match="holding his action: act held first"):
        act(state, "attack", combatant=fridgar, target=ulf, cp=3, roll=d20(2))
    with pytest.raises(RuleError, match="call has come"):
        act(state, "change_action", combatant=fridgar, declaration={"weapon": "broadsword"})
    state = apply(state, a.NextStep())  # Ulf's turn
    state = act(state, "act_held", combatant=fridgar)
    assert labels(state)[1:3] == [("held", ["Fridgar"]), ("5", ["Ulf"])]
    assert state.acting_now() == (fridgar,)
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=8, roll=d20(3))
    assert "8 CP -5 held = SV 3" in last_log(state) and "→ hit" in last_log(state)
    state = apply(state, a.NextStep())
    assert state.acting_now() == (ulf,)
    # parries are not part of the held turn
    state = act(state, "attack", combatant=ulf, target=fridgar, cp=3, roll=d20(2))
    state = act(state, "parry", combatant=fridgar, cp=5, roll=d20(2))
    assert "5 CP = SV 5" in last_log(state)


def test_several_held_act_highest_combat_sv_first_ties_by_d10() -> None:
    state = three()
    fridgar, sigrid, orm = cid(state, "Fridgar"), cid(state, "Sigrid"), cid(state, "Orm")
    state = act(state, "hold", combatant=fridgar)
    state = act(state, "hold", combatant=sigrid)
    state = apply(state, a.NextStep())  # Orm (Ulf at 5 acts, then Orm)
    assert state.acting_now() == (orm,)
    state = act(state, "hold", combatant=orm)
    state = act(state, "act_held", combatants=[fridgar, sigrid])
    assert [names for label, names in labels(state) if label == "held"] == [["Sigrid"], ["Fridgar"]]  # SV 12 before 9
    assert last_log(state) == "Held action now: Sigrid, then Fridgar (-5 on that turn's actions)."
    with pytest.raises(RuleError, match="Fridgar is not holding an action"):
        act(state, "act_held", combatant=fridgar)
    state = three()
    for who in (fridgar, sigrid):
        state = act(state, "hold", combatant=who)
    state = apply(state, a.NextStep())
    state = act(state, "hold", combatant=orm)
    with pytest.raises(RuleError, match="same Combat SV \\(12\\): each rolls 1d10"):
        act(state, "act_held", combatants=[sigrid, orm])
    with pytest.raises(RuleError, match="tied again"):
        act(state, "act_held", combatants=[sigrid, orm], tiebreak={sigrid: 4, orm: 4})
    state = act(state, "act_held", combatants="Sigrid, Orm", tiebreak="Sigrid 3, Orm 8")
    assert [names for label, names in labels(state) if label == "held"] == [["Orm"], ["Sigrid"]]


def test_skip_gives_plus_five_next_round_and_still_allows_parries() -> None:
    state = three()
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "skip", combatant=fridgar)
    assert "Fridgar" not in [n for _l, names in labels(state) for n in names]
    with pytest.raises(RuleError, match="gave up his turn this round: he may only parry"):
        act(state, "attack", combatant=fridgar, target=ulf, cp=3, roll=d20(2))
    state = apply(state, a.NextStep())  # Ulf (Sigrid moved up to the cursor after the skip)
    assert state.acting_now() == (ulf,)
    state = act(state, "attack", combatant=ulf, target=fridgar, cp=3, roll=d20(2))
    state = act(state, "parry", combatant=fridgar, cp=4, roll=d20(2))
    assert "parried" in last_log(state)
    state = next_round(state)
    assert any(
        e.text == "Fridgar skipped last round's turn: +5 to initiative." for e in state.log_entries() if e.round == 2
    )
    request = next(r for r in RULESET.initiative_requests(state) if r.key == fridgar)
    assert request.modifier == -1 + 5
    assert budget(state, "Fridgar")["CP"] == (9, 9)
    # 14 − 1 + 5 = 18: call 15
    state = roll_initiative(state, Fridgar=d10(10, 4), Sigrid=d10(10, 2), Ulf=d10(9), Orm=d10(4))
    assert state.order[0].value == 18 and labels(state)[0] == ("15", ["Fridgar"])
    state = next_round(state)
    request = next(r for r in RULESET.initiative_requests(state) if r.key == fridgar)
    assert request.modifier == -1  # only the next round


def test_skip_refused_after_acting_or_after_the_call() -> None:
    state = three()
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=3, roll=d20(2))
    with pytest.raises(RuleError, match="already acted this round"):
        act(state, "skip", combatant=fridgar)
    state = three()
    state = apply(state, a.NextStep())
    with pytest.raises(RuleError, match="Fridgar's turn has passed"):
        act(state, "skip", combatant=fridgar)
    # before his call he may give up his turn
    state = act(state, "skip", combatant=ulf)
    assert [n for _l, names in labels(state) for n in names] == ["Fridgar", "Sigrid", "Orm"]


def test_skip_before_the_countdown_needs_no_roll() -> None:
    state = fight(("Heroes", "Fridgar", FRIDGAR), ("Foes", "Ulf", {"sv": 8, "weapons": "broadsword"}))
    state = act(state, "skip", combatant=cid(state, "Fridgar"))
    assert [str(r.label) for r in RULESET.initiative_requests(state)] == ["Ulf"]
    state = roll_initiative(state, Ulf=d10(9))
    assert labels(state) == [("5", ["Ulf"])]


def test_change_action_before_the_call_moves_him_in_the_countdown() -> None:
    state = three()
    ulf = cid(state, "Ulf")
    # Ulf: 9 − 4 (broadsword) = 5; unarmed: 9 → call 9
    state = act(state, "change_action", combatant=ulf, declaration={"weapon": "unarmed"})
    assert labels(state) == [("10 (13)", ["Fridgar"]), ("10 (11)", ["Sigrid"]), ("9", ["Ulf"]), ("3", ["Orm"])]
    assert "IM -4 → +0, initiative 5 → 9 (call 9)" in last_log(state)
    assert last_entry(state).facts == {"im": 0, "initiative": 9}
    public = last_entry(state).public  # a foe's IMs and initiative are the GM's: the players read what he now uses
    assert public is not None and render(public) == "Ulf changes his action to unarmed."
    state = act(state, "change_action", combatant=ulf, weapon="broadsword")  # flat form fields work too
    assert labels(state)[-2:] == [("5", ["Ulf"]), ("3", ["Orm"])]
    state = apply(state, a.NextStep())
    state = apply(state, a.NextStep())
    assert state.acting_now() == (ulf,)
    with pytest.raises(RuleError, match="Ulf's call has come: he can no longer change his action"):
        act(state, "change_action", combatant=ulf, declaration={"weapon": "unarmed"})


def test_change_to_a_call_already_passed_acts_next() -> None:
    state = three()
    state = apply(state, a.NextStep())  # Sigrid at 11
    orm = cid(state, "Orm")
    state = act(state, "change_action", combatant=orm, declaration={"weapon": "unarmed", "spell_im": 10})
    # Orm: 4 + 10 = 14 ≥ 11: he acts right after the current slot
    assert labels(state) == [("10 (13)", ["Fridgar"]), ("10 (11)", ["Sigrid"]), ("10 (14)", ["Orm"]), ("5", ["Ulf"])]
    assert state.acting_now() == (cid(state, "Sigrid"),)
    state = apply(state, a.NextStep())
    assert state.acting_now() == (orm,)


def test_change_action_before_the_countdown_is_a_declaration() -> None:
    state = fight(("Heroes", "Fridgar", FRIDGAR), ("Foes", "Ulf", {"sv": 8, "weapons": "broadsword"}))
    state = act(state, "change_action", combatant=cid(state, "Fridgar"), declaration={"weapon": "broadsword"})
    assert RULESET.declaration(state, cid(state, "Fridgar")) == {"weapon": "broadsword"}
    assert RULESET.init_modifier(state, cid(state, "Fridgar")) == -4
    assert last_log(state) == "Fridgar chooses: Broadsword."


# -- grapple, break free, Glima -----------------------------------------------------------------------
def test_grapple_break_free_and_glima() -> None:
    state = two(WRESTLER, {"sv": 9, "weapons": "broadsword", "agi_mod": 1, "wrestling": 4})
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    with pytest.raises(RuleError, match="cannot buy SV 7 for a grapple: his Wrestling SV is 6"):
        act(state, "grapple", combatant=fridgar, target=ulf, sv=7, roll=d20(2))
    with pytest.raises(RuleError, match="costs 2 CP per SV"):
        act(state, "grapple", combatant=fridgar, target=ulf, cp=9, roll=d20(2))
    state = act(state, "grapple", combatant=fridgar, target=ulf, sv=6, hand="shield", roll=d20(4))
    # SV 6 for 12 CP; Strength +1; shield hand −10 + 3 (Ambidexter 3) = −7 → SV 0
    assert "SV 6 (12 CP) +1 Strength -7 shield hand only = SV 0" in last_log(state)
    facts = last_entry(state).facts
    assert (facts["sv_bought"], facts["cp"], facts["sv"], facts["result"]) == (6, 12, 0, "failure")
    assert "miss" in last_log(state)
    # 12 CP: wrestling 4 (Wrestling 2 × 2), unarmed 2 (Unarmed combat 2 × 1), then 6 of the 10 general
    assert budget(state, "Fridgar")["CP wrestling"] == (0, 4) and budget(state, "Fridgar")["CP unarmed"] == (0, 2)
    assert budget(state, "Fridgar")["CP"] == (4, 10) and budget(state, "Fridgar")["Unarmed attacks"] == (3, 4)
    with pytest.raises(RuleError, match="already tried a grapple this round"):
        act(state, "grapple", combatant=fridgar, target=ulf, sv=1, roll=d20(1))
    state = next_round(state)
    state = roll_initiative(state, Fridgar=d10(10, 4), Ulf=d10(9))
    state = act(state, "grapple", combatant=fridgar, target=ulf, sv=5, roll=d20(4))
    assert "→ a hold" in last_log(state)
    assert RULESET.fight_of(state).grappled == {ulf: fridgar}
    with pytest.raises(RuleError, match="cannot attack himself"):
        act(state, "attack", combatant=fridgar, target=fridgar, cp=1, roll=d20(1))
    state = act(state, "glima", combatant=fridgar, target=ulf, sv=2, drop=True, roll=d20(2))
    assert "1d6 damage" in last_log(state)
    state = act(state, "glima_defence", combatant=ulf, sv=2, roll=d20(1))
    # SV 2 for 6 CP; the better of Strength 0 and Agility +1
    assert "SV 2 (6 CP) +1 Agility = SV 3" in last_log(state) and "still held" in last_log(state)
    assert (last_entry(state).facts["sv_bought"], last_entry(state).facts["cp"], last_entry(state).facts["saved"]) == (
        2,
        6,
        True,
    )
    with pytest.raises(RuleError, match="one attempt per attack"):
        act(state, "glima_defence", combatant=ulf, sv=1, attack=2, roll=d20(1))
    state = apply(state, a.NextStep())
    assert state.acting_now() == (ulf,)
    with pytest.raises(RuleError, match="Ulf is held by Fridgar: he can only try to break free"):
        act(state, "attack", combatant=ulf, target=fridgar, cp=2, roll=d20(2))
    state = act(state, "break_free", combatant=ulf, sv=1, roll=d20(5))
    # SV 1 for 3 CP; Agility +1 → SV 2; 5 > 2
    assert "SV 1 (3 CP) +1 Agility = SV 2" in last_log(state) and "still held" in last_log(state)
    assert last_entry(state).facts["free"] is False
    with pytest.raises(RuleError, match="already tried to break free"):
        act(state, "break_free", combatant=ulf, sv=1, roll=d20(1))
    state = next_round(state)
    state = roll_initiative(state, Fridgar=d10(10, 4), Ulf=d10(9))
    with pytest.raises(RuleError, match="can try to break free at his call \\(6\\)"):
        act(state, "break_free", combatant=ulf, sv=1, roll=d20(1))
    state = act(state, "glima", combatant=fridgar, target=ulf, sv=3, roll=d20(1))
    assert "1d4 damage" in last_log(state)
    assert RULESET.fight_of(state).grappled == {}
    assert "Ulf" not in " ".join(v for _l, v in RULESET.details(state, fridgar))


def test_a_parried_grapple_does_not_hold() -> None:
    state = two(WRESTLER, {"sv": 9, "weapons": "broadsword"})
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "grapple", combatant=fridgar, target=ulf, sv=3, roll=d20(2))
    assert ("This round", "held by Fridgar") in RULESET.details(state, ulf)
    state = act(state, "parry", combatant=ulf, cp=3, roll=d20(2))
    assert all(label != "This round" for label, _v in RULESET.details(state, ulf))


# -- what the screens ask for -------------------------------------------------------------------------
def form(state: State, name: str, who: str, **values: Any) -> dict[str, Any]:
    """Args as the round screen builds them: the form's defaults, the typed values, the selected combatant."""
    fields = RULESET.action_fields(state, name, cid(state, who))
    args = {f.key: f.default for f in fields if f.kind != "roll"}
    args.update(values)
    return {"combatant": cid(state, who), **args}


def test_action_forms_drive_the_actions() -> None:
    state = two(ulf={"sv": 8, "weapons": "broadsword", "shield": "small", "shield_bearer": 1})
    attack_form = RULESET.action_fields(state, "attack", cid(state, "Fridgar"))
    assert [f.key for f in attack_form] == ["target", "weapon", "cp", "hand", "modifier", "roll"]
    assert (attack_form[-1].kind, attack_form[-1].default) == ("roll", "1d20")
    state = apply(
        state,
        a.RulesetAction(name="attack", args=form(state, "attack", "Fridgar", cp=5, roll=msgspec.to_builtins(d20(2)))),
    )
    assert "Fridgar attacks Ulf with the seax" in last_log(state)
    parry = RULESET.action_fields(state, "parry", cid(state, "Ulf"))
    against = next(f for f in parry if f.key == "attack")
    assert against.choices == (("1", "#1 Fridgar (attack, Seax)"),)
    state = apply(
        state,
        a.RulesetAction(
            name="parry", args=form(state, "parry", "Ulf", weapon="shield", cp=4, roll=msgspec.to_builtins(d20(3)))
        ),
    )
    assert "parries attack #1 with the small shield: 4 CP = SV 4" in last_log(state)
    change = form(state, "change_action", "Ulf", weapon="broadsword", shield=False)
    assert set(change) >= {"weapon", "shield", "spell_im", "other_im"}
    state = apply(state, a.RulesetAction(name="change_action", args=change))
    assert "changes his action" in last_log(state)
    assert RULESET.action_fields(state, "hold", cid(state, "Fridgar")) == ()
    for spec in RULESET.actions:
        fields = RULESET.action_fields(state, spec.name, cid(state, "Ulf"))
        assert [f.key for f in fields if f.kind == "roll"] in ([], ["roll"])
    declared = {f.key: f.default for f in RULESET.declaration_fields(state, cid(state, "Ulf"))}
    assert declared == {"weapon": "Broadsword", "shield": True, "spell_im": 0, "other_im": 0}
    assert dict(RULESET.details(state, cid(state, "Fridgar")))["CP by weapon"] == "Seax 14 · Broadsword 10 · unarmed 9"


def test_a_typed_roll_from_real_dice_is_logged_as_typed() -> None:
    state = two()
    typed = {"expr": "1d20", "total": 4, "faces": [], "physical": True}
    state = act(state, "attack", combatant=cid(state, "Fridgar"), target=cid(state, "Ulf"), cp=5, roll=typed)
    assert (
        last_log(state)
        == "#1 Fridgar attacks Ulf with the seax: 5 CP = SV 5; 1d20 (typed): 4 → hit. Ulf may parry or dodge."
    )


def test_the_log_is_data_rendered_in_the_language_shown() -> None:
    """An attack's entry keeps message ids and parameters: another catalogue renders every part of it
    (the words inside too), and the facts do not depend on the language."""
    state = two()
    state = act(state, "attack", combatant=cid(state, "Fridgar"), target=cid(state, "Ulf"), cp=6, roll=d20(2))
    entry = last_entry(state)
    english = entry.text
    try:
        use_catalog(
            "xx",
            {
                "#{id} {name} attacks {target} with "
                "{what}: {sv}; {roll} → {result}.{notes}": "{name} ⚔ {target} ({what}): {sv}, {roll}: {result}.{notes}",
                "the {item}": "[{item}]",
                "{n} CP": "{n} BO",
                "SV {sv}": "ZN {sv}",
                "hit": "HIT",
                "{target} may parry or dodge.": "{target}: parry/dodge?",
            },
        )
        assert entry.text == "Fridgar ⚔ Ulf ([seax]): 6 BO = ZN 6, 1d20: [2] = 2: HIT. Ulf: parry/dodge?"
    finally:
        use_catalog("en", {})
    assert (
        entry.text
        == english
        == "#1 Fridgar attacks Ulf with the seax: 6 CP = SV 6; 1d20: [2] = 2 → hit. Ulf may parry or dodge."
    )
    assert entry.facts == {
        "cp": 6,
        "sv": 6,
        "needed": 6,
        "roll": 2,
        "result": "success",
        "success": True,
        "attack": 1,
        "hit": True,
        "attacker": "c3",
        "target": "c4",
    }


def test_the_attack_form_offers_cp_and_shows_the_chance_at_once() -> None:
    """Fridgar's seax: 14 CP over 4 weapon actions → 3 offered, SV 3: a 1–3 on the d20, 15 %; then the
    CP of his last attack (6), never more than he has left (8)."""
    state = two()
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    fields = {f.key: f for f in RULESET.action_fields(state, "attack", fridgar)}
    assert fields["weapon"].default == "Seax" and fields["cp"].default == 3
    values = {key: f.default for key, f in fields.items() if f.kind != "roll"}
    assert RULESET.form_preview(state, "attack", fridgar, values) == "SV 3: needs 3 or less on the d20: 15% to succeed."
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=6, roll=d20(15))
    assert {f.key: f.default for f in RULESET.action_fields(state, "attack", fridgar)}["cp"] == 6
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=6, roll=d20(15))
    assert {f.key: f.default for f in RULESET.action_fields(state, "attack", fridgar)}["cp"] == 2  # 14 − 12 left
    # Ulf's parry: 8 CP over the broadsword's 3 actions → 2; then what he parried with last
    state = act(state, "attack", combatant=fridgar, target=ulf, cp=2, roll=d20(2))
    assert {f.key: f.default for f in RULESET.action_fields(state, "parry", ulf)}["cp"] == 2
    state = act(state, "parry", combatant=ulf, cp=5, roll=d20(19))
    state = apply(state, a.NextStep())
    assert {f.key: f.default for f in RULESET.action_fields(next_round(state), "parry", ulf)}["cp"] == 5
