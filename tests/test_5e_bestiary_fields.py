"""The 5e bestiaries (the SRD 5.2 file and the starter one) carry saving throws, damage types, legendary
actions and resistance and the monsters' own abilities, in the formats the sheet, the paste and the rules share.
The files are read as TOML here, so that what they hold is checked whatever the ruleset's sheet accepts."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any, NamedTuple

import pytest

from tui_combat.engine.dice import parse
from tui_combat.fight.library import bestiary_path, srd_path

ABILITIES = ("Str", "Dex", "Con", "Int", "Wis", "Cha")
DAMAGE_TYPES = (
    "acid",
    "bludgeoning",
    "cold",
    "fire",
    "force",
    "lightning",
    "necrotic",
    "piercing",
    "poison",
    "psychic",
    "radiant",
    "slashing",
    "thunder",
)
SHEET_KEYS = ("saves", "resist", "immune", "vulnerable", "legendary", "legendary_resistance", "abilities")


class Part(NamedTuple):
    dice: str
    kind: str


class Ability(NamedTuple):
    """One ability of the mini-language: "Fire Breath: 17d6 fire, Dex 21 half, recharge 5-6, cone 60 ft"."""

    name: str
    damage: tuple[Part, ...] = ()
    save: str = ""
    dc: int = 0
    on_save: str = ""
    recharge: str = ""
    area: str = ""


_TYPE = "|".join(DAMAGE_TYPES)
_PART = re.compile(rf"(\d+d\d+(?:[+-]\d+)?)(?: ({_TYPE}))?")
_SAVE = re.compile(rf"({'|'.join(ABILITIES)}) (\d+)(?: (half|none))?")
_RECHARGE = re.compile(r"recharge ([1-5]-6|6)")
_AREA = re.compile(r"(?:cone|sphere|emanation|cylinder|cube) \d+ ft|line \d+x\d+ ft")


def parse_abilities(text: str) -> tuple[Ability, ...]:
    """The guide's grammar, strictly: ``ability ("; " ability)*``, ``name ": " clause (", " clause)*``, the
    clauses damage, save, recharge, area each at most once and in that order; ValueError otherwise."""
    found: list[Ability] = []
    for item in text.split("; "):
        name, colon, rest = item.partition(": ")
        if not colon or not name or name != name.strip() or re.search(r"[:;,]", name):
            raise ValueError(f"a name and a colon: {item!r}")
        fields: dict[str, Any] = {"name": name}
        order = 0
        for clause in rest.split(", "):
            parts = [_PART.fullmatch(piece) for piece in clause.split(" plus ")]
            if order < 1 and all(parts):
                fields["damage"] = tuple(Part(p.group(1), p.group(2) or "") for p in parts if p)
                order = 1
            elif order < 2 and (save := _SAVE.fullmatch(clause)):
                fields.update(save=save.group(1), dc=int(save.group(2)), on_save=save.group(3) or "")
                order = 2
            elif order < 3 and (recharge := _RECHARGE.fullmatch(clause)):
                fields["recharge"] = recharge.group(1)
                order = 3
            elif order < 4 and _AREA.fullmatch(clause):
                fields["area"] = clause
                order = 4
            else:
                raise ValueError(f"{clause!r} in {item!r}")
        made = Ability(**fields)
        if bool(made.on_save) != bool(made.damage and made.save):
            raise ValueError(f"half/none goes with a save for damage, and only there: {item!r}")
        for part in made.damage:
            parse(part.dice)  # the app's own dice
        found.append(made)
    return tuple(found)


def parse_saves(text: str) -> dict[str, int]:
    pairs = [item.split(" ") for item in text.split(", ")]
    if [pair[0] for pair in pairs] != list(ABILITIES) or not all(re.fullmatch(r"[+-]\d+", p[1]) for p in pairs):
        raise ValueError(f"six saves, Str to Cha, each signed: {text!r}")
    return {name: int(bonus) for name, bonus in pairs}


def entries(path: Path) -> list[dict[str, Any]]:
    entries_: list[dict[str, Any]] = tomllib.loads(path.read_text(encoding="utf-8"))["combatants"]
    return entries_


def srd_entry(name: str) -> dict[str, Any]:
    found = next((entry for entry in entries(srd_path("dnd5e")) if entry["name"] == name), None)
    assert found is not None, name
    return found


def english_notes(entry: dict[str, Any]) -> str:
    """The notes the card and the library make from an entry's sheet (the tests run in English)."""
    from tui_combat.rulesets.dnd5e.stat_words import sheet_notes

    return sheet_notes(entry["sheet"], entry["hp"])


def test_the_mini_language_reads_what_the_guide_writes_and_refuses_the_rest() -> None:
    assert parse_abilities("Fire Breath: 17d6 fire, Dex 21 half, recharge 5-6, cone 60 ft") == (
        Ability("Fire Breath", (Part("17d6", "fire"),), "Dex", 21, "half", "5-6", "cone 60 ft"),
    )
    assert parse_abilities(
        "Death Throes: 9d6 fire plus 9d6 force, Dex 20 none, emanation 30 ft; "
        "Teleport: recharge 4-6; Fire Aura: 3d8 fire, emanation 10 ft; "
        "Dragon's Breath: 8d6, Dex 14 half, recharge 5-6, cone 30 ft; Web: Dex 13, recharge 5-6; "
        "Acid Spray: 4d6 acid, Dex 12 half, recharge 6, line 30x5 ft"
    ) == (
        Ability("Death Throes", (Part("9d6", "fire"), Part("9d6", "force")), "Dex", 20, "none", "", "emanation 30 ft"),
        Ability("Teleport", recharge="4-6"),
        Ability("Fire Aura", (Part("3d8", "fire"),), area="emanation 10 ft"),
        Ability("Dragon's Breath", (Part("8d6", ""),), "Dex", 14, "half", "5-6", "cone 30 ft"),
        Ability("Web", save="Dex", dc=13, recharge="5-6"),
        Ability("Acid Spray", (Part("4d6", "acid"),), "Dex", 12, "half", "6", "line 30x5 ft"),
    )
    for wrong in (
        "Fire Breath 17d6 fire",
        "Fire Breath: ",
        "Fire Breath: 17d6 flame",
        "Fire Breath: Dexterity 21",
        "Fire Breath: cone 60 ft, 17d6 fire",
        "Fire Breath: 17d6 fire, Dex 21",
        "Web: Dex 13 half",
        "Fire Breath: 17d6 fire, Dex 21 half, recharge 5",
        "Fire Breath: cone 60",
        "Breath: line 60 ft",
        "Fire Breath: 17d6 fire,Dex 21 half",
        "A, B: Dex 12",
        "Fire Breath: 17d6 fire;Web: Dex 13",
    ):
        with pytest.raises(ValueError):
            parse_abilities(wrong)


def test_the_adult_red_dragon_breathes_fire_resists_thrice_and_acts_thrice_a_round() -> None:
    """SRD 5.2, Adult Red Dragon: Str 27 (+8), Dex 10 (save +6), Con 25 (+7), Int 16 (+3), Wis 13 (save +7),
    Cha 23 (+6); Immunities Fire; Legendary Resistance (3/Day, or 4/Day in Lair); Fire Breath (Recharge 5–6):
    Dexterity Saving Throw: DC 21, each creature in a 60-foot Cone. Failure: 59 (17d6) Fire damage. Success:
    Half damage. Legendary Action Uses: 3."""
    sheet = srd_entry("Adult Red Dragon")["sheet"]
    assert parse_saves(sheet["saves"]) == {"Str": 8, "Dex": 6, "Con": 7, "Int": 3, "Wis": 7, "Cha": 6}
    assert sheet["immune"] == "fire" and "resist" not in sheet and "vulnerable" not in sheet
    assert (sheet["legendary"], sheet["legendary_resistance"]) == (3, 3)
    (breath,) = parse_abilities(sheet["abilities"])
    assert breath == Ability("Fire Breath", (Part("17d6", "fire"),), "Dex", 21, "half", "5-6", "cone 60 ft")


def test_a_monster_with_resistances_and_a_vulnerability() -> None:
    """SRD 5.2, Treant: Vulnerabilities Fire; Resistances Bludgeoning, Piercing."""
    treant = srd_entry("Treant")
    assert (treant["sheet"]["resist"], treant["sheet"]["vulnerable"]) == ("bludgeoning, piercing", "fire")
    assert "immune" not in treant["sheet"] and "notes" not in treant
    assert "Resistances" not in english_notes(treant) and "Vulnerabilities" not in english_notes(treant)
    balor = srd_entry("Balor")["sheet"]  # Resistances Cold, Lightning; Immunities Fire, Poison
    assert (balor["resist"], balor["immune"]) == ("cold, lightning", "fire, poison")


def test_the_figures_the_dataset_gets_wrong_are_the_printed_blocks() -> None:
    gold = srd_entry("Ancient Gold Dragon")
    assert gold["sheet"]["legendary_resistance"] == 4 and gold["sheet"]["attacks"] == 3
    assert parse_saves(gold["sheet"]["saves"])["Wis"] == 10
    assert "makes three Rend attacks" in gold["sheet"]["multiattack"]
    assert parse_abilities(srd_entry("Wight")["sheet"]["abilities"]) == (
        Ability("Life Drain", (Part("1d8+2", "necrotic"),), "Con", 13, "none"),
    )
    assert "Weakening Breath: Str 21, cone 60 ft" in srd_entry("Adult Gold Dragon")["sheet"]["abilities"]


@pytest.mark.parametrize("path", [srd_path("dnd5e"), bestiary_path("dnd5e")], ids=["srd", "starter"])
def test_every_entry_has_its_six_saves_and_the_new_fields_read(path: Path) -> None:
    for entry in entries(path):
        sheet = entry["sheet"]
        saves = parse_saves(sheet["saves"])
        assert saves["Dex"] >= (sheet["dex"] - 10) // 2, entry["name"]  # the modifier, or more if proficient
        for key in ("resist", "immune", "vulnerable"):
            if key in sheet:
                types = sheet[key].split(", ")
                assert types and set(types) <= set(DAMAGE_TYPES) and len(types) == len(set(types)), entry["name"]
        for key in ("legendary", "legendary_resistance"):
            assert isinstance(sheet.get(key, 1), int) and sheet.get(key, 1) > 0, entry["name"]
        if "abilities" in sheet:
            parse_abilities(sheet["abilities"])


def test_the_srd_file_holds_the_abilities_of_the_book() -> None:
    shipped = entries(srd_path("dnd5e"))
    with_key = {key: sum(key in entry["sheet"] for entry in shipped) for key in SHEET_KEYS}
    assert with_key["saves"] == len(shipped) == 341
    assert with_key["resist"] > 50 and with_key["immune"] > 90 and with_key["vulnerable"] >= 10
    assert with_key["legendary"] == 30 and with_key["legendary_resistance"] == 32
    abilities = [
        ability
        for entry in shipped
        if "abilities" in entry["sheet"]
        for ability in parse_abilities(entry["sheet"]["abilities"])
    ]
    breaths = [ability for ability in abilities if ability.name.endswith("Breath") and ability.damage]
    assert len(breaths) > 40 and all(b.save and b.dc and b.recharge and b.area for b in breaths)
    assert len(abilities) > 180


@pytest.mark.parametrize("path", [srd_path("dnd5e"), bestiary_path("dnd5e")], ids=["srd", "starter"])
def test_no_note_has_lost_words_or_a_reference_left_unrendered(path: Path) -> None:
    """The dataset's inline references ([[/item Spellcasting]]) are the printed block's words: "a use of (A)
    Sleep Breath or (B) Spellcasting to cast Scorching Ray", never "a use of (A) or (B) to cast"."""
    lost = re.compile(
        r"\(A\) or \(B\)|use of to|cast \.|uses \.|makes \{|\[\[|\]\]|[{}@]|&Reference|\.mm|"
        r"Activity|Number of attacks|\w\.\w|\s[.,]|\s{2}"
    )
    for entry in entries(path):
        for text in (
            entry.get("notes", ""),
            entry["sheet"].get("multiattack", ""),
            entry["sheet"].get("legendary_actions", ""),
        ):
            assert not lost.search(text), (entry["name"], text)
    if path == srd_path("dnd5e"):
        bronze = srd_entry("Adult Bronze Dragon")["sheet"]["multiattack"]
        assert (
            "It can replace one attack with a use of (A) Repulsion Breath or (B) Spellcasting to cast Guiding "
            "Bolt (level 2 version)."
        ) in bronze
        assert "a use of Spellcasting to cast Scorching Ray." in srd_entry("Adult Red Dragon")["sheet"]["multiattack"]
        assert "to cast Ice Knife (level 2 version)" in srd_entry("Ancient Silver Dragon")["sheet"]["multiattack"]


def test_the_notes_keep_what_has_no_field_and_leave_out_what_has_one() -> None:
    """The notes the card and the library make from the fields say the challenge rating, the Hit Dice, the other
    speeds, the condition immunities, Multiattack's words and the legendary actions' names; what the sheet shows
    as its own fields (immunities, the legendary actions' number) they leave out."""
    red = english_notes(srd_entry("Adult Red Dragon"))
    assert red.startswith("CR 17. HP 256 (19d12 + 133). Speed climb 40 ft., fly 80 ft. Multiattack: ")
    assert red.endswith("Legendary actions: Commanding Presence, Fiery Rays, Pounce.")
    assert "Immunities" not in red and "Legendary actions 3" not in red
    assert "Condition immunities: poisoned" in english_notes(srd_entry("Ancient Green Dragon"))


def test_the_starter_bestiary_gives_each_figure_its_source() -> None:
    """Each saves line of the hand-written file follows the comment that gives the SRD 5.1 scores it comes
    from, and those scores' modifiers are the saves (none of these creatures is proficient in one)."""
    lines = bestiary_path("dnd5e").read_text(encoding="utf-8").splitlines()
    saves_lines = [index for index, line in enumerate(lines) if line.startswith("saves = ")]
    assert len(saves_lines) == len(entries(bestiary_path("dnd5e")))
    for index in saves_lines:
        source = re.fullmatch(
            r"# SRD 5\.1: Str (\d+), Dex (\d+), Con (\d+), Int (\d+), Wis (\d+), Cha (\d+); "
            r"no saving throw proficiency",
            lines[index - 1],
        )
        assert source is not None, lines[index - 1]
        saves = parse_saves(tomllib.loads(lines[index])["saves"])
        assert list(saves.values()) == [(int(score) - 10) // 2 for score in source.groups()]
