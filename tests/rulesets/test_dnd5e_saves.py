"""D&D 5e saving throws, areas, damage types, temporary hit points and concentration, with the books' figures:
a Fireball (8d6 fire, Dexterity save DC 15, half on a success: SRD 5.1) on five goblins (SRD 5.1: 7 hit points,
Dexterity 14, +2) and a 7th-level rogue with Evasion (Dexterity 18 and proficiency +3: +7); the conditions that
fail a save or give it advantage or disadvantage, cover; resistance, immunity and vulnerability in the book's
order; temporary hit points that do not add up and are lost first; concentration kept on a success and lost on
a failure (DC 10 or half the damage), with what it held. What the DM reads, and what the players read under
"outcomes": who saves and what he takes, never the DC, a bonus or a resistance."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.common import ids, typed
from tests.rulesets.dnd5e_fight import Member, act, d20, fight, play, texts
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply, initiative_asked
from tui_combat.engine.audience import players_line
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import render
from tui_combat.engine.model import ROLLS_OPTION, State
from tui_combat.fight.store import Store
from tui_combat.rulesets.dnd5e import RULESET

RAF: Member = ("Raf", 45, {"dex": 18, "saves": "Dex +7, Int +4", "evasion": True})
MIRELA: Member = ("Mirela", 30, {"dex": 12, "saves": "Int +6, Wis +4"})
GOBLINS: Member = ("Goblin", 7, {"dex": 14, "ac": 15}, 5)


def started(sides: dict[str, list[Member]], first: Sequence[str] = (), **options: str) -> State:
    """The fight on, what the players see of rolls "outcomes" (or as ``options`` say), initiative rolled: those
    named in ``first`` in that order, then everyone else."""
    state = play(fight(sides, **options), a.StartFight())
    asked, _fresh = initiative_asked(RULESET, state)
    names = state.names()

    def face(request_combatants: tuple[str, ...]) -> int:
        for place, name in enumerate(first):
            if any(names[c] == name or names[c].rsplit(" ", 1)[0] == name for c in request_combatants):
                return 20 - place
        return 1

    return apply(state, a.RollInitiative(rolls={r.key: d20(face(r.combatants)) for r in asked}))


def public(state: State, count: int) -> list[str]:
    """What the players read of the last ``count`` lines."""
    read = [players_line(entry) for entry in state.log_entries()[-count:]]
    return [render(line) for line in read if line is not None]


def fireball(state: State, faces: dict[str, int]) -> a.AreaEffect:
    named = ids(state)
    return a.AreaEffect(
        name="Fireball",
        source=named["Mirela"],
        damage=typed("8d6", 28),
        kind="fire",
        save="dex",
        dc=15,
        on_save="half",
        targets=tuple(a.AreaTarget(combatant=named[name], roll=d20(face)) for name, face in faces.items()),
    )


FACES = {"Goblin 1": 9, "Goblin 2": 13, "Goblin 3": 20, "Goblin 4": 1, "Goblin 5": 12, "Raf": 8}


# -- the fireball -------------------------------------------------------------------------------------------------
def test_a_fireball_on_five_goblins_and_a_rogue_with_evasion() -> None:
    state = started({"Party": [MIRELA, RAF], "Goblins": [GOBLINS]}, first=("Mirela",))
    state = apply(state, fireball(state, FACES))
    lines = [text for text in texts(state)[-12:] if not text.endswith("is down.")]
    assert lines == [
        "Mirela's Fireball: 28 damage (fire) (8d6 (typed): 28); "
        "Dexterity save against DC 15, half damage on a success.",
        "Goblin 1: Dexterity save: 1d20 (typed): 9, +2 → 11 against DC 15: failed; 28 damage (fire): 0/7 HP.",
        "Goblin 2: Dexterity save: 1d20 (typed): 13, +2 → 15 against DC 15: saved; 14 damage (fire): 0/7 HP.",
        "Goblin 3: Dexterity save: 1d20 (typed): 20, +2 → 22 against DC 15: saved; 14 damage (fire): 0/7 HP.",
        "Goblin 4: Dexterity save: 1d20 (typed): 1, +2 → 3 against DC 15: failed; 28 damage (fire): 0/7 HP.",
        "Goblin 5: Dexterity save: 1d20 (typed): 12, +2 → 14 against DC 15: failed; 28 damage (fire): 0/7 HP.",
        "Raf: Dexterity save: 1d20 (typed): 8, +7 → 15 against DC 15: saved; 0 damage (fire): 45/45 HP.",  # Evasion
    ]
    assert [c.status for c in state.combatants if c.name.startswith("Goblin")] == ["down"] * 5
    assert [entry.facts["saved"] for entry in state.log_entries() if "saved" in entry.facts] == [
        False,
        True,
        True,
        False,
        False,
        True,
    ]


def test_the_players_read_who_saves_and_what_each_takes() -> None:
    state = started({"Party": [MIRELA, RAF], "Goblins": [GOBLINS]}, first=("Mirela",))
    state = apply(state, fireball(state, {**FACES, "Raf": 7}))  # Raf fails: Evasion halves
    assert public(state, 12) == [
        "Mirela's Fireball: 28 damage (fire); Dexterity save, half damage on a success.",
        "Goblin 1 fails the save: 28 damage.",
        "Goblin 1 is down.",
        "Goblin 2 saves: 14 damage.",
        "Goblin 2 is down.",
        "Goblin 3 saves: 14 damage.",
        "Goblin 3 is down.",
        "Goblin 4 fails the save: 28 damage.",
        "Goblin 4 is down.",
        "Goblin 5 fails the save: 28 damage.",
        "Goblin 5 is down.",
        "Raf fails the save: 14 damage: 31/45 HP.",
    ]
    assert (
        texts(state)[-1]
        == "Raf: Dexterity save: 1d20 (typed): 7, +7 → 14 against DC 15: failed; 14 damage (fire): 31/45 HP."
    )


def test_the_gm_shows_the_players_every_roll_or_nothing_of_them() -> None:
    state = started({"Party": [MIRELA, RAF], "Goblins": [GOBLINS]}, first=("Mirela",), **{ROLLS_OPTION: "everything"})
    state = apply(state, fireball(state, {"Raf": 7, "Goblin 1": 9}))
    assert public(state, 4)[:3] == [
        "Mirela's Fireball: 28 damage (fire) (8d6 (typed): 28); "
        "Dexterity save against DC 15, half damage on a success.",
        "Raf: Dexterity save: 1d20 (typed): 7, +7 → 14 against DC 15: failed; 14 damage (fire): 31/45 HP.",
        "Goblin 1 fails the save: 28 damage.",  # a monster's hit points are never theirs
    ]
    state = started({"Party": [MIRELA, RAF], "Goblins": [GOBLINS]}, first=("Mirela",), **{ROLLS_OPTION: "nothing"})
    state = apply(state, fireball(state, {"Goblin 1": 9}))
    assert public(state, 3) == [
        "Mirela's Fireball: 28 damage (fire); Dexterity save, half damage on a success.",
        "Goblin 1 fails the save: 28 damage.",
        "Goblin 1 is down.",
    ]  # damage is read whatever


def test_a_fireball_is_one_action_undone_at_once() -> None:
    store = Store(started({"Party": [MIRELA, RAF], "Goblins": [GOBLINS]}, first=("Mirela",)))
    before = store.state
    store.dispatch(fireball(store.state, FACES))
    assert sum(c.hp for c in store.state.combatants if c.name.startswith("Goblin")) == 0
    store.undo()
    assert store.state == before
    store.redo()
    assert sum(c.hp for c in store.state.combatants if c.name.startswith("Goblin")) == 0


# -- what a save needs -------------------------------------------------------------------------------------------
def odds_of(state: State, name: str, kind: str, dc: int = 15, cover: int = 0) -> tuple[str, int, str, list[str]]:
    odds = RULESET.save_odds(state, ids(state)[name], kind, dc, cover=cover)
    return odds.dice, odds.modifier, odds.auto, [render(reason) for reason in odds.reasons]


def test_the_bonus_is_the_stat_blocks_and_dexterity_falls_back_on_the_score() -> None:
    state = started({"Party": [RAF], "Goblins": [GOBLINS]})
    assert odds_of(state, "Raf", "dex") == ("1d20", 7, "", [])
    assert odds_of(state, "Raf", "con") == ("1d20", 0, "", [])  # not written: +0
    assert odds_of(state, "Goblin 1", "dex") == ("1d20", 2, "", [])  # Dexterity 14
    assert RULESET.save_odds(state, ids(state)["Raf"], "dex", 15).chance() == pytest.approx(0.65)
    with pytest.raises(RuleError, match="A saving throw needs a DC."):
        RULESET.save_odds(state, ids(state)["Raf"], "dex", 0)


def test_a_natural_20_is_no_automatic_success() -> None:
    state = started({"Party": [RAF], "Goblins": [GOBLINS]})
    state = apply(state, a.SavingThrow(combatant=ids(state)["Goblin 1"], kind="dex", roll=d20(20), dc=23))
    assert texts(state)[-1] == "Goblin 1: Dexterity save: 1d20 (typed): 20, +2 → 22 against DC 23: failed."


@pytest.mark.parametrize("condition", ["paralyzed", "petrified", "stunned", "unconscious"])
def test_some_conditions_fail_strength_and_dexterity_saves(condition: str) -> None:
    state = started({"Party": [RAF], "Goblins": [GOBLINS]})
    state = act(state, "condition", "Goblin 1", condition=condition)
    assert odds_of(state, "Goblin 1", "dex")[2:] == ("fail", [condition])
    assert odds_of(state, "Goblin 1", "str")[2] == "fail"
    assert odds_of(state, "Goblin 1", "con")[2] == ""
    state = apply(state, a.SavingThrow(combatant=ids(state)["Goblin 1"], kind="dex", roll=d20(20), dc=5))
    assert texts(state)[-1] == f"Goblin 1: Dexterity save: failed automatically ({condition})."


def test_a_character_lying_at_0_hit_points_fails_a_dexterity_save() -> None:
    state = started({"Party": [RAF], "Goblins": [GOBLINS]})
    state = apply(state, a.Damage(combatant=ids(state)["Raf"], amount=45))
    assert odds_of(state, "Raf", "dex")[2:] == ("fail", ["unconscious"])


def test_restrained_dodging_and_exhaustion_give_disadvantage_or_advantage_that_cancel() -> None:
    state = started({"Party": [RAF], "Goblins": [GOBLINS]})
    restrained = act(state, "condition", "Goblin 1", condition="restrained")
    assert odds_of(restrained, "Goblin 1", "dex") == ("d20dis", 2, "", ["restrained: disadvantage"])
    assert odds_of(restrained, "Goblin 1", "wis")[0] == "1d20"
    both = act(restrained, "condition", "Goblin 1", condition="dodging")
    assert odds_of(both, "Goblin 1", "dex") == ("1d20", 2, "", ["dodging: advantage", "restrained: disadvantage"])
    assert odds_of(act(state, "condition", "Goblin 2", condition="dodging"), "Goblin 2", "dex")[0] == "d20adv"
    tired = act(state, "condition", "Goblin 1", condition="exhaustion", level=2)
    assert odds_of(tired, "Goblin 1", "wis")[0] == "1d20"
    exhausted = act(state, "condition", "Goblin 1", condition="exhaustion", level=3)
    assert odds_of(exhausted, "Goblin 1", "wis") == ("d20dis", 0, "", ["exhaustion: disadvantage"])
    with pytest.raises(
        RuleError, match=r"Goblin 1's saving throw is rolled with d20dis, not 1d20: restrained: disadvantage."
    ):
        apply(restrained, a.SavingThrow(combatant=ids(state)["Goblin 1"], kind="dex", roll=d20(12), dc=15))
    rolled = apply(
        restrained, a.SavingThrow(combatant=ids(state)["Goblin 1"], kind="dex", roll=typed("d20dis", 12), dc=15)
    )
    assert texts(rolled)[-1] == (
        "Goblin 1: Dexterity save (restrained: disadvantage): d20dis (typed): 12, +2 → 14 against DC 15: failed."
    )


def test_cover_adds_to_dexterity_saves_only() -> None:
    state = started({"Party": [RAF], "Goblins": [GOBLINS]})
    assert odds_of(state, "Goblin 1", "dex", cover=2) == ("1d20", 4, "", ["half cover +2"])
    assert odds_of(state, "Goblin 1", "dex", cover=5) == ("1d20", 7, "", ["three-quarters cover +5"])
    assert odds_of(state, "Goblin 1", "con", cover=5) == ("1d20", 0, "", [])
    with pytest.raises(RuleError, match=r"Cover adds \+2 \(half\) or \+5 \(three-quarters\) to a Dexterity save."):
        odds_of(state, "Goblin 1", "dex", cover=3)
    named = ids(state)
    state = apply(
        state,
        a.AreaEffect(
            name="Fireball",
            damage=typed("8d6", 28),
            kind="fire",
            save="dex",
            dc=15,
            targets=(a.AreaTarget(combatant=named["Goblin 1"], roll=d20(10), cover=5),),
        ),
    )
    assert texts(state)[-2] == (
        "Goblin 1: Dexterity save (three-quarters cover +5): 1d20 (typed): 10, +7 → 17 against DC 15: "
        "saved; 14 damage (fire): 0/7 HP."
    )


# -- damage types -------------------------------------------------------------------------------------------------
ORC: Member = ("Orc", 40, {"dex": 12})


def hit(sheet: dict[str, object], amount: int, kind: str, *conditions: str) -> tuple[int, str, str]:
    """What ``amount`` damage of ``kind`` leaves of an orc with ``sheet``: his hit points, the DM's line, the
    players'."""
    state = started({"Party": [RAF], "Orcs": [("Orc", 40, {"dex": 12, **sheet})]})
    for condition in conditions:
        state = act(state, "condition", "Orc", condition=condition)
    state = apply(state, a.Damage(combatant=ids(state)["Orc"], amount=amount, kind=kind, roll=typed("3d8", amount)))
    entry = next(e for e in reversed(state.log_entries()) if "hp_before" in e.facts)
    return state.combatant(ids(state)["Orc"]).hp, entry.text, render(players_line(entry) or "")


def test_resistance_halves_rounding_down() -> None:
    assert hit({"resist": "fire, poison"}, 13, "fire") == (
        34,
        "Orc takes 6 damage (fire: resistant: 13 → 6) (3d8 (typed): 13): 34/40 HP.",
        "Orc takes 6 damage (fire).",
    )
    assert hit({"resist": "fire"}, 13, "cold")[0] == 27


def test_immunity_leaves_nothing() -> None:
    assert hit({"immune": "fire"}, 13, "fire")[:2] == (
        40,
        "Orc takes 0 damage (fire: immune) (3d8 (typed): 13): 40/40 HP.",
    )


def test_vulnerability_doubles_after_resistance() -> None:
    assert hit({"vulnerable": "fire"}, 13, "fire")[:2] == (
        14,
        "Orc takes 26 damage (fire: vulnerable: 13 → 26) (3d8 (typed): 13): 14/40 HP.",
    )
    assert hit({"resist": "fire", "vulnerable": "fire"}, 13, "fire")[0] == 28  # 13 → 6 → 12, not 13 → 26 → 13


def test_several_resistances_to_one_type_count_once() -> None:
    assert hit({"resist": "fire"}, 13, "fire", "petrified")[:2] == (
        34,
        "Orc takes 6 damage (fire: resistant: 13 → 6) (3d8 (typed): 13): 34/40 HP.",
    )
    assert hit({}, 13, "poison", "petrified")[0] == 40  # petrified: immune to poison


def test_a_resistance_written_in_the_gms_language_and_a_wrong_one_refused() -> None:
    state = play(fight({"Party": [RAF], "Orcs": [ORC]}))
    with pytest.raises(RuleError, match=r'Damage resistances: "plasma" is not a type of damage; the types are: acid,'):
        apply(state, a.EditCombatant(combatant=ids(state)["Orc"], sheet={"resist": "fire, plasma"}))
    with pytest.raises(RuleError, match=r'Saving throw "Dex six": write the ability and the bonus \(Dex \+6\).'):
        apply(state, a.EditCombatant(combatant=ids(state)["Orc"], sheet={"saves": "Dex six"}))
    state = apply(
        state, a.EditCombatant(combatant=ids(state)["Orc"], sheet={"resist": "bludgeoning, piercing, and slashing"})
    )
    assert RULESET.defences(state, ids(state)["Orc"])["resist"] == {"bludgeoning", "piercing", "slashing"}


# -- temporary hit points -------------------------------------------------------------------------------------------
def test_temporary_hit_points_do_not_add_up_and_are_lost_first() -> None:
    state = started({"Party": [RAF], "Orcs": [ORC]})
    raf = ids(state)["Raf"]
    state = act(state, "temp_hp", "Raf", amount=10)
    assert texts(state)[-1] == "Raf gains 10 temporary hit points."
    state = act(state, "temp_hp", "Raf", amount=5)
    assert texts(state)[-1] == "Raf keeps 10 temporary hit points: they do not add up, the higher pool stays."
    assert RULESET.health_shown(state, raf) == "45/45 +10"
    state = apply(state, a.Damage(combatant=raf, amount=7))
    assert texts(state)[-1] == "Raf takes 7 damage (7 taken by temporary hit points): 45/45 HP."
    assert RULESET.health_shown(state, raf) == "45/45 +3"
    state = apply(state, a.Damage(combatant=raf, amount=8, kind="fire"))
    assert texts(state)[-1] == "Raf takes 8 damage (fire: 3 taken by temporary hit points): 40/45 HP."
    assert RULESET.health_shown(state, raf) == "40/45" and RULESET.temp_hp(state, raf) == 0
    state = act(state, "temp_hp", "Raf", amount=12)
    assert dict(RULESET.details(state, raf))["Temporary hit points"] == "12"
    state = act(state, "temp_hp", "Raf", amount=0)
    assert texts(state)[-1] == "Raf has no temporary hit points any more." and RULESET.temp_hp(state, raf) == 0


def test_a_monsters_temporary_hit_points_are_the_dms() -> None:
    state = started({"Party": [RAF], "Orcs": [ORC]})
    state = act(state, "temp_hp", "Orc", amount=8)
    assert texts(state)[-1] == "Orc gains 8 temporary hit points."
    assert public(state, 1) == ["Orc gains temporary hit points."]
    state = apply(state, a.Damage(combatant=ids(state)["Orc"], amount=10))
    assert texts(state)[-1] == "Orc takes 10 damage (8 taken by temporary hit points): 38/40 HP."
    assert public(state, 1) == ["Orc takes 10 damage."]


# -- concentration --------------------------------------------------------------------------------------------------
def concentrating() -> State:
    """Mirela concentrates on Hold Person (the orc paralyzed, held by her) and Haste (an effect on Raf)."""
    state = started({"Party": [MIRELA, RAF], "Orcs": [ORC]}, first=("Mirela",))
    state = act(state, "condition", "Mirela", condition="concentrating")
    state = act(state, "condition", "Orc", condition="paralyzed", held_by=ids(state)["Mirela"])
    return apply(state, a.AddEffect(combatant=ids(state)["Raf"], name="hasted", rounds=10, holder=ids(state)["Mirela"]))


def dues(state: State) -> list[tuple[str, int, str]]:
    names = state.names()
    return [(names[due.combatant], due.dc, render(due.why)) for due in RULESET.saves_due(state)]


def test_damage_to_a_concentrating_caster_owes_one_save_for_each_source() -> None:
    state = concentrating()
    mirela = ids(state)["Mirela"]
    state = apply(state, a.Damage(combatant=mirela, amount=7))  # half is 3: DC 10
    state = apply(state, a.Damage(combatant=mirela, amount=22, kind="fire"))  # half is 11: DC 11
    assert dues(state) == [("Mirela", 10, "concentration: 7 damage"), ("Mirela", 11, "concentration: 22 damage")]
    assert dict(RULESET.details(state, mirela))["Concentration"] == "Constitution save DC 10, Constitution save DC 11"
    state = apply(state, a.SavingThrow(combatant=mirela, kind="con", roll=d20(15), dc=10, source="concentration"))
    assert dues(state) == [("Mirela", 11, "concentration: 22 damage")]  # the oldest is made


def test_concentration_is_kept_on_a_success() -> None:
    state = concentrating()
    mirela = ids(state)["Mirela"]
    state = apply(state, a.Damage(combatant=mirela, amount=22))  # DC 11
    state = apply(state, a.SavingThrow(combatant=mirela, kind="con", roll=d20(11), dc=11, source="concentration"))
    assert texts(state)[-1] == "Mirela: Constitution save: 1d20 (typed): 11 against DC 11: saved."
    assert dues(state) == [] and RULESET.concentrating(state, mirela)
    assert [c.name for c in RULESET.conditions_of(state, ids(state)["Orc"])] == ["paralyzed"]


def test_concentration_lost_to_damage_ends_what_it_held() -> None:
    state = concentrating()
    mirela = ids(state)["Mirela"]
    state = apply(state, a.Damage(combatant=mirela, amount=22))  # DC 11
    state = apply(state, a.SavingThrow(combatant=mirela, kind="con", roll=d20(10), dc=11, source="concentration"))
    assert texts(state)[-5:] == [
        "Mirela: Constitution save: 1d20 (typed): 10 against DC 11: failed.",
        "Mirela loses concentration: the Constitution save failed.",
        "Mirela is no longer concentrating.",
        "Orc is no longer paralyzed.",
        "hasted on Raf ends.",
    ]
    assert public(state, 5)[0] == "Mirela fails the save."
    assert not RULESET.concentrating(state, mirela) and state.effects == () and dues(state) == []
    with pytest.raises(RuleError, match="Mirela is not concentrating."):
        apply(state, a.SavingThrow(combatant=mirela, kind="con", roll=d20(10), dc=10, source="concentration"))


def test_an_area_owes_one_save_and_falling_or_being_stunned_ends_concentration() -> None:
    state = concentrating()
    named = ids(state)
    state = apply(
        state,
        a.AreaEffect(
            name="Fire Breath",
            damage=typed("4d6", 14),
            kind="fire",
            save="dex",
            dc=13,
            targets=(a.AreaTarget(combatant=named["Mirela"], roll=d20(2)),),
        ),
    )
    assert dues(state) == [("Mirela", 10, "concentration: 14 damage")]
    stunned = act(state, "condition", "Mirela", condition="stunned")
    assert "Mirela loses concentration: stunned." in texts(stunned) and not stunned.effects and dues(stunned) == []
    fallen = apply(state, a.Damage(combatant=named["Mirela"], amount=30))
    assert texts(fallen)[-8:-2] == [
        "Mirela takes 30 damage: 0/30 HP.",
        "Mirela is down.",
        "Mirela loses concentration: down.",
        "Mirela is no longer concentrating.",
        "Orc is no longer paralyzed.",
        "hasted on Raf ends.",
    ]
    assert texts(fallen)[-1] == "Mirela is prone."  # falling unconscious
    assert dues(fallen) == []


def test_a_new_concentration_ends_the_old_one() -> None:
    state = concentrating()
    state = act(state, "condition", "Mirela", condition="concentrating")
    assert "Mirela loses concentration: a new spell." in texts(state)
    assert [c.name for c in RULESET.conditions_of(state, ids(state)["Mirela"])] == ["concentrating"]
    assert RULESET.conditions_of(state, ids(state)["Orc"]) == [] and state.effects == ()


def test_only_a_concentrating_creature_holds_a_condition() -> None:
    state = started({"Party": [MIRELA, RAF], "Orcs": [ORC]})
    with pytest.raises(RuleError, match="Mirela is not concentrating."):
        act(state, "condition", "Orc", condition="paralyzed", held_by=ids(state)["Mirela"])


# -- the same path as a damage, and what the players never read ---------------------------------------------------
def test_an_area_on_a_dying_character_is_a_death_save_failure_as_any_damage() -> None:
    state = started({"Party": [MIRELA, RAF], "Goblins": [GOBLINS]}, first=("Mirela",))
    state = apply(state, a.Damage(combatant=ids(state)["Raf"], amount=45))  # 0 hit points: dying
    state = apply(state, fireball(state, {"Raf": 20}))  # unconscious: the save fails on its own
    assert texts(state)[-2:] == [
        "Raf: Dexterity save: failed automatically (unconscious); 14 damage (fire): 0/45 HP.",  # Evasion: half
        "Raf: damage at 0 hit points: a failure; successes ○○○, failures ✕○○.",
    ]


def test_a_hidden_goblin_and_a_hidden_caster_are_in_no_line_of_the_players() -> None:
    state = play(fight({"Party": [RAF], "Goblins": [GOBLINS, ("Shaman", 12, {"dex": 10})]}))
    for name in ("Goblin 5", "Shaman"):
        state = apply(state, a.SetHidden(combatant=ids(state)[name], hidden=True))
    state = play(state, a.StartFight())
    asked, _fresh = initiative_asked(RULESET, state)
    state = apply(state, a.RollInitiative(rolls={r.key: d20(10) for r in asked}))
    named = ids(state)
    before = state.log_count
    state = apply(
        state,
        a.AreaEffect(
            name="Fireball",
            source=named["Shaman"],
            damage=typed("8d6", 20),
            kind="fire",
            save="dex",
            dc=13,
            targets=tuple(a.AreaTarget(combatant=named[n], roll=d20(2)) for n in ("Raf", "Goblin 4", "Goblin 5")),
        ),
    )
    read = public(state, state.log_count - before)
    assert read == [
        "Raf fails the save: 10 damage: 35/45 HP.",
        "Goblin 4 fails the save: 20 damage.",
        "Goblin 4 is down.",
    ]
    assert not any("Shaman" in line or "Goblin 5" in line for line in read)


@settings(max_examples=60, deadline=None)
@given(
    amount=st.integers(min_value=0, max_value=200),
    temporary=st.integers(min_value=0, max_value=50),
    resist=st.booleans(),
    immune=st.booleans(),
    vulnerable=st.booleans(),
)
def test_what_reaches_the_hit_points_follows_the_books_order(
    amount: int, temporary: int, resist: bool, immune: bool, vulnerable: bool
) -> None:
    sheet = {
        "dex": 12,
        **({"resist": "fire"} if resist else {}),
        **({"immune": "fire"} if immune else {}),
        **({"vulnerable": "fire"} if vulnerable else {}),
    }
    state = started({"Party": [RAF], "Orcs": [("Orc", 400, sheet)]})
    orc = ids(state)["Orc"]
    if temporary:
        state = act(state, "temp_hp", "Orc", amount=temporary)
    incoming = RULESET.incoming_damage(state, orc, amount, "fire")
    typed_amount = 0 if immune else (amount // 2 if resist else amount) * (2 if vulnerable else 1)
    assert incoming.absorbed == min(temporary, typed_amount)
    assert incoming.amount == typed_amount - incoming.absorbed >= 0
    assert RULESET.temp_hp(incoming.state, orc) == temporary - incoming.absorbed
