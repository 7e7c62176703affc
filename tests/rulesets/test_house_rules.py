"""AD&D 2e house rules: a data file in the GM's config folder changes play, and a wrong one is refused clearly."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.common import DEMO, config_folder, d10, house_rules_file
from tui_combat.engine import actions as a
from tui_combat.engine.encounter import load_encounter
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.fight.store import store_from_encounter
from tui_combat.rulesets import adnd2e
from tui_combat.rulesets.adnd2e import RULESET

# Ids in the demo encounter (sides and groups take an id too).
PARTY, MONSTERS = "s1", "s5"
RAF, RUPERT, DELSENORA = "c2", "c3", "c4"
TROLLS = ("c7", "c8", "c9")
ORCS = ("c11", "c12", "c13", "c14", "c15", "c16")


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty config folder of our own; the cached tables are read again from it, and again after."""
    with config_folder(tmp_path / "config", monkeypatch, adnd2e.tables) as folder:
        yield folder


def write_house_rules(config_dir: Path, text: str) -> Path:
    return house_rules_file(config_dir, "adnd2e", text, adnd2e.tables)


def play_group_initiative() -> State:
    """The demo fight with group-modified initiative: declare, roll party 6 and monsters 5."""
    store = store_from_encounter(load_encounter(DEMO), seed=1)
    store.dispatch(a.SetOption(key="initiative", value="group"))
    store.dispatch(a.BeginSurprise())
    store.dispatch(a.StartFight())
    store.dispatch(a.NextStep())  # the monsters' secret intentions → the players declare
    store.dispatch(a.Declare(combatant=RAF, declaration={"action": "item", "item": "misc", "text": "horn of blasting"}))
    store.dispatch(a.Declare(combatant=RUPERT, declaration={"action": "weapon"}))
    store.dispatch(a.Declare(combatant=DELSENORA, declaration={"action": "spell", "spell": "haste"}))
    store.dispatch(a.NextStep())  # → initiative
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(6), MONSTERS: d10(5)}))
    return store.state


def order_of(state: State) -> list[tuple[str, set[str]]]:
    return [(str(slot.label), set(slot.combatants)) for slot in state.order]


def test_a_house_rule_weapon_speed_changes_the_order(config_dir: Path) -> None:
    # Packaged tables (the config folder holds nothing). Party 6, monsters 5:
    #   Raf, misc magic item +3 → 9; Delsenora, haste (casting 3) → 9;
    #   Rupert, bastard sword two-handed 8 − 1 for his +1 → 13;
    #   trolls, natural weapons, large +6 → 11; orcs, long sword 5 → 10.
    packaged = play_group_initiative()
    assert order_of(packaged) == [
        ("9", {RAF, DELSENORA}),
        ("10", set(ORCS)),
        ("11", set(TROLLS)),
        ("13", {RUPERT}),
    ]

    # The house rule makes a long sword a quick weapon: the orcs' 5 + 2 = 7 puts them first.
    write_house_rules(config_dir, '[weapon_speeds]\n"long sword" = 2\n')
    ruled = play_group_initiative()
    assert order_of(ruled) == [
        ("7", set(ORCS)),
        ("9", {RAF, DELSENORA}),
        ("11", set(TROLLS)),
        ("13", {RUPERT}),  # his weapon's speed still comes from the packaged table
    ]
    assert [e.text for e in ruled.log_entries()][-1] == (
        "Order: 7: Orc 1, Orc 2, Orc 3, Orc 4, Orc 5, Orc 6; 9: "
        "Raf, Delsenora; 11: Troll 1, Troll 2, Troll 3; 13: Rupert."
    )
    assert ruled.acting_now() == ORCS
    assert RULESET.action_modifier(ruled, ruled.combatant(ORCS[0])) == 2
    assert adnd2e.tables().weapon_speeds["long sword"] == 2
    assert adnd2e.tables().weapon_speeds["bastard sword (two-handed)"] == 8


def test_a_number_written_as_text_is_refused_naming_file_and_key(config_dir: Path) -> None:
    path = write_house_rules(config_dir, '[weapon_speeds]\n"long sword" = "5"\n')
    with pytest.raises(RuleError) as caught:
        adnd2e.tables()
    message = str(caught.value)
    assert str(path) in message
    assert '$.weapon_speeds["long sword"]' in message
    assert "Expected `int`, got `str`" in message
    # Play refuses too, rather than reading the speed as 0.
    with pytest.raises(RuleError, match="Expected `int`"):
        play_group_initiative()


def test_a_file_that_is_not_toml_is_refused_naming_it(config_dir: Path) -> None:
    path = write_house_rules(config_dir, '[weapon_speeds\n"long sword" = 5\n')
    with pytest.raises(RuleError) as caught:
        adnd2e.tables()
    assert str(path) in str(caught.value)
    assert "not valid TOML" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[weapon_speed]\n"long sword" = 4\n', "unknown field `weapon_speed`"),  # a misspelt table is not ignored
        ('[weapon_speeds]\n"long sword" = -1\n', 'Expected `int` >= 0 - at `$.weapon_speeds["long sword"]`'),
        (
            "[initiative.magic_items]\nwand = 2.5\n",
            'Expected `int`, got `float` - at `$.initiative.magic_items["wand"]`',
        ),
        ("[thac0.rates]\nwarrior = [1, 0]\n", 'Expected `int` >= 1 - at `$.thac0.rates["warrior"][1]`'),
    ],
)
def test_other_wrong_values_are_refused(config_dir: Path, text: str, expected: str) -> None:
    path = write_house_rules(config_dir, text)
    with pytest.raises(RuleError) as caught:
        adnd2e.tables()
    assert str(path) in str(caught.value)
    assert expected in str(caught.value)


def test_a_new_weapon_can_be_added(config_dir: Path) -> None:
    write_house_rules(config_dir, '[weapon_speeds]\n"dwarven axe" = 6\n')
    speeds = adnd2e.tables().weapon_speeds
    assert speeds["dwarven axe"] == 6
    assert speeds["long sword"] == 5 and len(speeds) == 39  # the 38 packaged weapons are all still there
