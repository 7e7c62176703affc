"""The set-up saved as an encounter file: started again (``tui-combat new FILE``), it gives the same set-up —
the same sides, combatants, groups, sheets and options; what the format cannot say is named."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.encounter import ENCOUNTER_DIR, built, load_encounter
from tui_combat.engine.model import State
from tui_combat.fight import session
from tui_combat.fight.encounter_file import (
    EncounterFileError,
    default_path,
    encounter_of,
    encounter_text,
    save_encounter,
)


def setup_of(state: State) -> dict[str, Any]:
    """What a set-up is, without ids: the fight's name, ruleset and options, and each side with its combatants
    (name, HP, sheet, notes, and which of them share a group)."""
    groups: dict[str, int] = {}
    sides = []
    for side in state.sides:
        combatants = []
        for c in state.combatants:
            if c.side == side.id:
                group = groups.setdefault(c.group, len(groups)) if c.group else None
                combatants.append((c.name, c.hp, c.max_hp, c.sheet, c.notes, group))
        sides.append((side.name, side.is_party, combatants))
    return {"name": state.name, "ruleset": state.ruleset, "options": state.options, "sides": sides}


@pytest.mark.parametrize("demo", sorted(path.name for path in ENCOUNTER_DIR.glob("*.toml")))
def test_a_demo_saved_and_started_again_is_the_same_set_up(tmp_path: Path, demo: str) -> None:
    state = built(load_encounter(ENCOUNTER_DIR / demo), ENCOUNTER_DIR / demo)
    saved = save_encounter(state, tmp_path / "again.toml")
    assert saved.warnings == []
    assert setup_of(session.check_encounter(saved.path)) == setup_of(state)


def hand_made() -> State:
    state = State(seed=3)
    for action in (
        a.SetName(name='Wolves at "the Ford"'),
        a.SetRuleset(ruleset="players_option"),
        a.SetOption(key="tie_reroll", value="party"),
        a.SetOption(key="weapon_vs_armour", value="on"),
        a.AddSide(name="Heroes", is_party=True),
        a.AddSide(name="Pack"),
        a.AddSide(name="Empty side"),
        a.AddCombatants(
            side="s1",
            name="Gerda",
            hp=40,
            notes="Line one.\nLine two.",
            sheet={"cls": "warrior", "level": 5, "weapon": "long sword", "magic": 2},
        ),
        a.AddCombatants(
            side="s2",
            name="Wolf",
            hp=11,
            count=3,
            sheet={"cls": "monster", "level": "2+2", "forms": "bite", "natural": True, "size": "small", "movement": 18},
        ),
        a.AddCombatants(side="s1", name="Tam", hp=18, sheet={"cls": "rogue", "level": 4, "weapon": "short sword"}),
        a.AddCombatants(
            side="s2", name="Wolf", hp=20, sheet={"cls": "monster", "level": 3, "forms": "bite", "natural": True}
        ),
    ):
        state = apply(state, action)
    return state


def test_a_hand_made_set_up_comes_back_with_its_groups_options_and_sides(tmp_path: Path) -> None:
    state = hand_made()
    assert [c.name for c in state.combatants] == ["Gerda", "Wolf 1", "Wolf 2", "Wolf 3", "Tam", "Wolf 4"]
    saved = save_encounter(state, tmp_path / "ford.toml")
    assert saved.warnings == []
    data = tomllib.loads(saved.path.read_text(encoding="utf-8"))
    assert data["name"] == 'Wolves at "the Ford"' and data["ruleset"] == "players_option"
    assert data["options"] == {
        "tie_reroll": "party",
        "three_halves": "even",
        "weapon_vs_armour": "on",
        "spotted": "nobody",
        "spell_phase": "casting_time",
        "death": "dead",
    }
    assert [
        (
            side["name"],
            side.get("party", False),
            [(c["name"], c["hp"], c.get("count", 1)) for c in side.get("combatants", [])],
        )
        for side in data["sides"]
    ] == [
        ("Heroes", True, [("Gerda", 40, 1), ("Tam", 18, 1)]),
        ("Pack", False, [("Wolf", 11, 3), ("Wolf 4", 20, 1)]),  # the one after the group kept his number
        ("Empty side", False, []),
    ]
    assert setup_of(session.check_encounter(saved.path)) == setup_of(state)
    # And tui-combat new on it: a session in the same set-up.
    store = session.new_from_file(tmp_path / "data", saved.path, seed=5)
    try:
        assert setup_of(store.state) == setup_of(state)
    finally:
        store.close()


def test_a_fight_already_under_way_is_saved_as_it_was_set_up(tmp_path: Path) -> None:
    state = apply(hand_made(), a.Damage(combatant=hand_made().combatants[0].id, amount=15))
    assert state.combatants[0].hp == 25
    again = session.check_encounter(save_encounter(state, tmp_path / "f.toml").path)
    assert again.combatants[0].hp == 40 and again.combatants[0].max_hp == 40


def test_what_the_format_cannot_say_is_named(tmp_path: Path) -> None:
    state = hand_made()
    second_wolf = state.combatants[2]
    state = apply(state, a.EditCombatant(combatant=second_wolf.id, hp=15, max_hp=15))
    state = apply(state, a.EditCombatant(combatant=state.combatants[5].id, name="Greymane"))
    saved = save_encounter(state, tmp_path / "f.toml")
    assert saved.warnings == ["Wolf 2"]  # a group is written with its first member's HP
    again = session.check_encounter(saved.path)
    pack = next(side.id for side in again.sides if side.name == "Pack")
    assert [(c.name, c.max_hp) for c in again.combatants if c.side == pack] == [
        ("Wolf 1", 11),
        ("Wolf 2", 11),
        ("Wolf 3", 11),
        ("Greymane", 20),
    ]


def test_a_file_is_replaced_only_when_asked(tmp_path: Path) -> None:
    target = tmp_path / "ford.toml"
    target.write_text("# the GM's own\n", encoding="utf-8")
    with pytest.raises(EncounterFileError, match="exists already"):
        save_encounter(hand_made(), target)
    assert target.read_text(encoding="utf-8") == "# the GM's own\n"
    save_encounter(hand_made(), target, replace=True)
    assert load_encounter(target).name == 'Wolves at "the Ford"'
    assert [path.name for path in tmp_path.iterdir()] == ["ford.toml"]  # no temporary file left behind
    with pytest.raises(EncounterFileError, match="is a folder"):
        save_encounter(hand_made(), tmp_path)


def test_the_default_file_is_in_the_data_folder_and_free(tmp_path: Path) -> None:
    first = default_path(tmp_path, "Trolls in the tunnel")
    assert first == tmp_path / "encounters" / "trolls-in-the-tunnel.toml"
    save_encounter(hand_made(), first)
    assert default_path(tmp_path, "Trolls in the tunnel") == tmp_path / "encounters" / "trolls-in-the-tunnel-2.toml"


def test_awkward_text_is_written_so_that_it_reads_back() -> None:
    state = hand_made()
    state = apply(
        state, a.EditCombatant(combatant=state.combatants[0].id, notes='Tabs\tquotes " backslash \\ DEL \x7f é')
    )
    text = encounter_text(encounter_of(state))
    assert tomllib.loads(text)["sides"][0]["combatants"][0]["notes"] == 'Tabs\tquotes " backslash \\ DEL \x7f é'


def test_a_combatant_hidden_from_the_players_comes_back_hidden(tmp_path: Path) -> None:
    state = hand_made()
    wolf = next(c.id for c in state.combatants if c.name == "Wolf 4")
    state = apply(state, a.SetHidden(combatant=wolf, hidden=True))
    saved = save_encounter(state, tmp_path / "ambush.toml")
    pack = tomllib.loads(saved.path.read_text(encoding="utf-8"))["sides"][1]["combatants"]
    assert [c.get("hidden", False) for c in pack] == [False, True]
    again = session.check_encounter(saved.path)
    assert [c.name for c in again.combatants if c.hidden] == ["Wolf 4"]
    assert not any(entry.secret for entry in again.log_entries())
