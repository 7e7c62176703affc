"""The D&D 5e attack helper, the catalogue, the demo encounter and house rules. Numbers worked out by hand."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.common import config_folder, house_rules_file, ids, rolled, typed
from tests.rulesets.dnd5e_fight import Member, act, budget, d20, entry, fight, play, texts
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply, initiative_asked
from tui_combat.engine.contract import DamageDue
from tui_combat.engine.dice import Roll, format_roll
from tui_combat.engine.encounter import ENCOUNTER_DIR
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.fight import session
from tui_combat.rulesets.dnd5e import RULESET, critical_dice, critical_roll, data, hit_chance
from tui_combat.rulesets.dnd5e.attack_dice import doubled_dice

SIDES: dict[str, list[Member]] = {
    "Party": [
        ("Brenna", 44, {"dex": 12, "attack": 6, "attacks": 2, "damage": "1d8+3", "ac": 18}),
        ("Mirela", 27, {"dex": 14, "attack": 5, "damage": "1d4+2"}),
    ],
    "Goblins": [("Goblin", 7, {"dex": 14, "ac": 15, "attack": 4, "damage": "1d6+2", "size": "small"}, 2)],
}


def brennas_turn() -> State:
    """Brenna 18 + 1 = 19, Mirela 3 + 2 = 5, the goblins 10 + 2 = 12: Brenna's turn."""
    state = play(fight(SIDES), a.StartFight())
    who = ids(state)
    goblins = initiative_asked(RULESET, state)[0][2].key
    return apply(state, a.RollInitiative(rolls={who["Brenna"]: d20(18), who["Mirela"]: d20(3), goblins: d20(10)}))


@pytest.mark.parametrize(
    ("bonus", "armour", "edge", "percent"),
    [
        (4, 15, 0, 50),  # 11–20 hit: 10 faces of 20
        (4, 15, 1, 75),  # 1 − 0.5²
        (4, 15, -1, 25),  # 0.5²
        (10, 12, 0, 95),  # everything but a natural 1
        (0, 25, 0, 5),  # only a natural 20
        (6, 15, 1, 84),  # 9–20: 0.6; 1 − 0.4² = 0.84
    ],
)
def test_the_chance_to_hit(bonus: int, armour: int, edge: int, percent: int) -> None:
    assert round(100 * hit_chance(bonus, armour, edge)) == percent


def test_the_form_shows_the_chance_before_the_roll() -> None:
    state = brennas_turn()
    who = ids(state)
    fields = RULESET.action_fields(state, "attack", who["Brenna"])
    assert [(f.key, f.kind, f.default) for f in fields] == [
        ("target", "choice", who["Goblin 1"]),
        ("uses", "choice", "action"),
        ("edge", "choice", "none"),
        ("close", "bool", True),
        ("to_hit", "roll", "1d20"),
    ]
    # +6 against AC 15: 9–20, 60 %; Mirela (AC 10) is listed after the foes: 4–20, 85 %.
    assert fields[0].choices == (
        (who["Goblin 1"], "Goblin 1 — AC 15: 60% to hit"),
        (who["Goblin 2"], "Goblin 2 — AC 15: 60% to hit"),
        (who["Mirela"], "Mirela — AC 10: 85% to hit"),
    )
    assert fields[4].label == "To hit +6"
    advantage = RULESET.action_fields(state, "attack_advantage", who["Brenna"])
    assert advantage[4].default == "d20adv" and advantage[0].choices[0][1] == "Goblin 1 — AC 15: 84% to hit"
    assert advantage[2].default == "advantage"
    disadvantage = RULESET.action_fields(state, "attack_disadvantage", who["Brenna"])
    assert disadvantage[4].default == "d20dis" and disadvantage[0].choices[0][1] == "Goblin 1 — AC 15: 36% to hit"
    assert RULESET.action_fields(state, "attack", who["Goblin 1"])[1].default == "reaction"  # not his turn


def test_extra_attack_a_hit_a_miss_and_no_third_attack() -> None:
    state = brennas_turn()
    who = ids(state)
    goblin = who["Goblin 1"]
    # 9 + 6 = 15 against AC 15: a hit; damage 1d8+3 showing 4: 7, the goblin (7 HP) is down.
    state = act(
        state,
        "attack",
        "Brenna",
        target=goblin,
        uses="action",
        to_hit=rolled("1d20", 9),
        damage=rolled("1d8+3", 4),
        critical=rolled("1d8", 8),
    )
    attack = entry(state, "Brenna attacks")
    assert attack.text == "Brenna attacks Goblin 1: 1d20: [9] = 9, +6 → 15 against AC 15: hit."
    assert attack.facts == {
        "needed": 9,
        "natural": 9,
        "total": 15,
        "hit": True,
        "critical": False,
        "attacker": who["Brenna"],
        "target": goblin,
        "edge": 0,
        "close": True,
    }
    assert state.combatant(goblin).hp == 0 and state.combatant(goblin).status == "down"
    assert budget(state, "Brenna")["Attacks"] == (1, 2) and budget(state, "Brenna")["Action"] == (0, 1)
    # The second attack of the same Attack action: 8 + 6 = 14, a miss.
    state = act(
        state, "attack", "Brenna", target=who["Goblin 2"], uses="action", to_hit=d20(8), damage=typed("1d8+3", 9)
    )
    assert (
        entry(state, "Brenna attacks").text == "Brenna attacks Goblin 2: 1d20 (typed): 8, +6 → 14 against AC 15: miss."
    )
    assert state.combatant(who["Goblin 2"]).hp == 7
    with pytest.raises(RuleError, match="^Brenna has no action left.$"):
        act(state, "attack", "Brenna", target=who["Goblin 2"], uses="action", to_hit=d20(20), damage=typed("1d8+3", 9))


def test_a_natural_20_doubles_the_dice_and_a_natural_1_misses() -> None:
    state = brennas_turn()
    who = ids(state)
    # With advantage: 20 and 3, the 20 kept; damage 1d8+3 showing 5, the critical 1d8 showing 4: 5 + 4 + 3 = 12.
    state = act(
        state,
        "attack_advantage",
        "Brenna",
        target=who["Goblin 1"],
        uses="action",
        to_hit=rolled("d20adv", 20, 3),
        damage=rolled("1d8+3", 5),
        critical=rolled("1d8", 4),
    )
    assert entry(state, "Brenna attacks").text == (
        "Brenna attacks Goblin 1 with advantage (the DM's call): d20adv: [20, (3)] "
        "= 20, +6 → 26 against AC 15: critical hit."
    )
    assert entry(state, "Critical hit").facts == {"damage": 12}
    assert "Goblin 1 takes 12 damage (2d8+3: [5, 4] + 3 = 12): 0/7 HP." in texts(state)  # never below 0
    # A natural 1 misses whatever the bonus: the goblin (+4) against Mirela's AC 10 needs a 6, but rolls 1.
    state = act(
        state, "attack", "Goblin 2", target=who["Mirela"], uses="reaction", to_hit=d20(1), damage=typed("1d6+2", 8)
    )
    assert (
        entry(state, "Goblin 2 attacks").text
        == "Goblin 2 attacks Mirela: 1d20 (typed): 1, +4 → 5 against AC 10: miss (natural 1)."
    )
    assert state.combatant(who["Mirela"]).hp == 27


def test_the_form_says_what_is_needed_and_a_hit_asks_for_the_damage() -> None:
    state = brennas_turn()
    who = ids(state)
    goblin = who["Goblin 1"]
    # +6 against AC 15: 9 or more, 12 faces of 20; with advantage 1 − 0.4² = 84 %.
    assert (
        RULESET.form_preview(state, "attack", who["Brenna"], {"target": goblin})
        == "Needs 9 or more on the d20 (AC 15, +6 to hit): 60% to hit."
    )
    assert (
        RULESET.form_preview(state, "attack_advantage", who["Brenna"], {"target": who["Mirela"]})
        == "Needs 4 or more on the d20 (AC 10, +6 to hit) with advantage (the DM's call): 98% to hit."
    )
    hit = act(state, "attack", "Brenna", target=goblin, uses="action", to_hit=rolled("1d20", 9))
    assert hit.combatant(goblin).hp == 7  # nothing dealt yet: the damage is asked for next
    args = {"combatant": who["Brenna"], "target": goblin}
    assert RULESET.damage_due(state, hit, "attack", args) == DamageDue(target=goblin, dice="1d8+3")
    critical = act(state, "attack", "Brenna", target=goblin, uses="action", to_hit=rolled("1d20", 20))
    due = RULESET.damage_due(state, critical, "attack", args)
    assert due is not None and (due.target, due.dice) == (goblin, "2d8+3")
    miss = act(state, "attack", "Brenna", target=goblin, uses="action", to_hit=rolled("1d20", 8))
    assert RULESET.damage_due(state, miss, "attack", args) is None


def test_critical_dice_and_the_doubled_roll() -> None:
    assert critical_dice("1d8+3") == "1d8" and critical_dice("2d6+1d4-1") == "2d6+1d4" and critical_dice("5") == ""
    doubled = critical_roll(
        Roll(expr="2d6+1d4+2", total=13, faces=(3, 5, 3)), Roll(expr="2d6+1d4", total=9, faces=(6, 1, 2))
    )
    assert doubled is not None and format_roll(doubled) == "4d6+2d4+2: [3, 5, 6, 1] + [3, 2] + 2 = 22"
    assert (
        doubled_dice("1d8+3") == "2d8+3"
        and doubled_dice("2d6+1d4-1") == "4d6+2d4-1"
        and doubled_dice("4d6kh3") == "4d6kh3"
    )
    typed_in = critical_roll(typed("1d8+3", 7), rolled("1d8", 6))
    assert typed_in == Roll(expr="2d8+3", total=13, physical=True)


def test_an_attack_needs_a_target_and_the_turn() -> None:
    state = brennas_turn()
    with pytest.raises(RuleError, match="^Choose a target.$"):
        act(state, "attack", "Brenna", uses="action", to_hit=d20(10), damage=typed("1d8+3", 5))
    with pytest.raises(RuleError, match="^It is not Mirela's turn.$"):
        act(
            state,
            "attack",
            "Mirela",
            target=ids(state)["Goblin 1"],
            uses="action",
            to_hit=d20(10),
            damage=typed("1d4+2", 3),
        )


def test_the_catalogue_and_what_applies_now() -> None:
    registry.forget()
    assert "dnd5e" in registry.available()
    assert [(s.name, s.key) for s in registry.get("dnd5e").actions] == [
        ("attack", "a"),
        ("attack_advantage", "A"),
        ("attack_disadvantage", "D"),
        ("legendary", "l"),
        ("recharge", "k"),
        ("temp_hp", "p"),
        ("death_save", "v"),
        ("tie", "f"),
        ("use", "s"),
        ("move", "m"),
        ("condition", "c"),
        ("end_condition", "C"),
        ("counter", "g"),
    ]
    state = brennas_turn()
    who = ids(state)
    available = {s.name for s in RULESET.actions if RULESET.action_available(state, s.name, who["Brenna"])}
    assert available == {
        "attack",
        "attack_advantage",
        "attack_disadvantage",
        "temp_hp",
        "use",
        "move",
        "condition",
        "counter",
    }
    assert not RULESET.action_available(state, "move", who["Mirela"])  # not her turn


def test_the_demo_is_offered_and_builds() -> None:
    demo = next(d for d in session.DEMOS if d.ruleset == "dnd5e")
    state = session.check_encounter(ENCOUNTER_DIR / demo.file_name)
    assert state.ruleset == "dnd5e" and [s.name for s in state.sides] == ["Party", "Goblins"]
    assert [c.name for c in state.combatants] == [
        "Brenna",
        "Oswin",
        "Lia",
        "Mirela",
        "Goblin 1",
        "Goblin 2",
        "Goblin 3",
        "Goblin 4",
        "Bugbear",
    ]


# -- house rules --------------------------------------------------------------------------------------------
@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    with config_folder(tmp_path / "config", monkeypatch, data) as folder:
        yield folder


def write_house_rules(config_dir: Path, text: str) -> Path:
    return house_rules_file(config_dir, "dnd5e", text, data)


def test_house_rules_change_a_speed_factor(config_dir: Path) -> None:
    write_house_rules(config_dir, "[speed_factor]\nloading_ranged = -3\n")
    state = play(
        fight(
            {"Party": [("Ada", 20, {"dex": 12, "weapons": "light crossbow"})], "Orcs": [("Orc", 15, {})]},
            initiative="speed_factor",
        ),
        a.StartFight(),
    )
    state = apply(
        state, a.Declare(combatant=ids(state)["Ada"], declaration={"action": "attack", "weapon": "light crossbow"})
    )
    assert entry(state, "Ada declares").facts == {"speed_factor": -3}


def test_a_wrong_house_rule_is_refused_naming_the_file(config_dir: Path) -> None:
    path = write_house_rules(config_dir, '[initiative]\nlair_count = "20"\n')
    with pytest.raises(RuleError) as refused:
        RULESET.prepare()
    assert str(path) in str(refused.value) and "initiative.lair_count" in str(refused.value)
