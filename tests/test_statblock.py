"""Pasted stat blocks read into a ruleset's entry: the 5e block, the OSE one-line block and the AD&D 2e stat
line, in English, Russian and Ukrainian, clean and as PDFs copy them; what cannot be read is listed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tui_combat.engine import registry
from tui_combat.fight.statblock import average_hp, clean, range_dice, read_block
from tui_combat.fight.statblock_sheet import read_for

GOBLIN_5E = """Goblin
Small humanoid (goblinoid), neutral evil
Armor Class 15 (leather armor, shield)
Hit Points 7 (2d6)
Speed 30 ft.
STR DEX CON INT WIS CHA
8 (−1) 14 (+2) 10 (+0) 10 (+0) 8 (−1) 8 (−1)
Skills Stealth +6
Senses darkvision 60 ft., passive Perception 9
Languages Common, Goblin
Challenge 1/4 (50 XP)
Nimble Escape. The goblin can take the Disengage or Hide action as a bonus action on each of its turns.
Actions
Scimitar. Melee Weapon Attack: +4 to hit, reach 5 ft., one target. Hit: 5 (1d6 + 2) slashing damage.
Shortbow. Ranged Weapon Attack: +4 to hit, range 80/320 ft., one target. Hit: 5 (1d6 + 2) piercing damage."""

# As a PDF copies it: lines broken mid-field, a hyphenated word, a non-breaking space, "−" and "–" minus signs,
# a ligature in "ﬁve".
BUGBEAR_PDF = (
    "Bugbear\nMedium humanoid (goblinoid), chaotic evil\nArmor Class 16 (hide armor,\nshield)\n"
    "Hit Points 27 (5d8 +\n5)\nSpeed 30\u00a0ft.\nSTR DEX CON INT WIS CHA\n"
    "15 (+2) 14 (+2) 13 (+1) 8 (\u22121) 11 (+0) 9 (\u20131)\nChallenge 1 (200 XP)\n"
    "Brute. A melee weapon deals one extra die of its damage when the bugbear hits with it.\n"
    "Surprise Attack. If the bugbear surprises a creature and hits it with an attack during the ﬁrst "
    "round of combat, the target takes an extra 7 (2d6) damage from the attack.\nActions\n"
    "Morningstar. Melee Weapon Attack: +4 to hit, reach 5 ft., one target. Hit: 11 (2d8 + 2) pierc-\n"
    "ing damage.\nJavelin. Melee or Ranged Weapon Attack: +4 to hit, reach 5 ft. or range 30/120 ft., "
    "one target. Hit: 9 (2d6 + 2) piercing damage in melee or 5 (1d6 + 2) piercing damage at range."
)

TROLL_5E = """Troll
Large giant, chaotic evil
Armor Class 15 (natural armor)
Hit Points 84 (8d10 + 40)
Speed 30 ft.
STR DEX CON INT WIS CHA
18 (+4) 13 (+1) 20 (+5) 7 (−2) 9 (−1) 7 (−2)
Skills Perception +2
Senses darkvision 60 ft., passive Perception 12
Languages Giant
Challenge 5 (1,800 XP)
Regeneration. The troll regains 10 hit points at the start of its turn.
Actions
Multiattack. The troll makes three attacks: one with its bite and two with its claws.
Bite. Melee Weapon Attack: +7 to hit, reach 5 ft., one target. Hit: 7 (1d6 + 4) piercing damage.
Claw. Melee Weapon Attack: +7 to hit, reach 5 ft., one target. Hit: 11 (2d6 + 4) slashing damage."""

GOBLIN_RU = """Гоблин
Маленький гуманоид (гоблиноид), нейтрально-злой
Класс Доспеха 15 (кожаный доспех, щит)
Хиты 7 (2к6)
Скорость 30 фт.
СИЛ ЛОВ ТЕЛ ИНТ МДР ХАР
8 (–1) 14 (+2) 10 (+0) 10 (+0) 8 (–1) 8 (–1)
Чувства тёмное зрение 60 фт., пассивное Восприятие 9
Опасность 1/4 (50 опыта)
Ловкий побег. Гоблин может в каждом своём ходу совершать бонусным действием Засаду или Отход.
Действия
Скимитар. Рукопашная атака оружием: +4 к попаданию, досягаемость 5 фт., одна цель. Попадание: 5 (1к6 + 2) рубящего урона."""

ZOMBIE_UK = """Зомбі
Середня нежить, нейтрально-злий
Клас броні 8
Хіти 22 (3к8 + 9)
Швидкість 20 фт.
СИЛ СПР СТА ІНТ МДР ХАР
13 (+1) 6 (–2) 16 (+3) 3 (–4) 6 (–2) 5 (–3)
Імунітет до шкоди отрута
Небезпека 1/4 (50 ДО)
Дії
Удар. Атака ближнім боєм зброєю: +3 до влучання, досяжність 5 фт., одна ціль. Влучання: 4 (1к6 + 1) дробильної шкоди."""

GOBLIN_OSE = (
    "Goblin\nAC 6 [13], HD 1-1 (3hp), Att 1 × weapon (1d6), THAC0 19 [0], MV 60' (20'), "
    "SV D14 W15 P16 B17 S18 (NH), ML 7, AL Chaotic, XP 5, NA 2d4 (6d10), TT R (C)"
)
BUGBEAR_OSE = (
    "Bugbear\nAC 5 [14], HD 3+1 (14hp), Att 1 × weapon (2d4 or by weapon +1), THAC0 16 [+3], "
    "MV 90' (30'), SV D12 W13 P14 B15 S16 (3), ML 9, AL Chaotic, XP 50, NA 2d4 (5d4), TT B"
)
OWLBEAR_OSE = "Owl Bear AC 5 [14], HD 5 (22hp), Att 2 × claw (1d8), 1 × bite (1d8), THAC0 15 [+4], MV 120' (40'), ML 9"
ORC_OSE_RU = "Орк\nКД 6 [13]; ХД 1 (4 хп); Атаки 1 × оружие (1к6); ТАК0 19 [0]; ДВ 120' (40'); Мораль 6"
GOBLIN_OSE_UK = "Гоблін\nКБ 6 [13], КЗ 1-1 (3 оз), Атаки 1 × зброя (1к6), ТАК0 19 [0], Рух 60' (20'), Мораль 7"

ORC_ADND = "Orc: AC 6; MV 9; HD 1; THAC0 19; #AT 1; Dmg 1d8; SZ M; ML 8"
TROLL_ADND = (
    "Troll: AC 4; MV 12; HD 6+6; THAC0 13; #AT 3; Dmg 1-4+4/1-4+4/2-12; SA nil; SD regeneration; "
    "SZ L (9' tall); ML Elite (14); XP 1,400"
)
GNOLL_ADND_RU = "Гнолл: КД 5; ДВ 9; ХД 2; ТАК0 19; Атак 1; Урон 2-8; Размер Б; Мораль 11"
OGRE_ADND_UK = "Огр: КБ 5; Рух 9; КЗ 4+1; ТАК0 17; Атак 1; Шкода 1-10; Розмір В; Мораль 11"


def test_the_5e_goblin_of_the_srd() -> None:
    reading = read_for(GOBLIN_5E, "dnd5e")
    assert reading.layout == "5e"
    assert (reading.name, reading.hp) == ("Goblin", 7)
    assert reading.sheet == {
        "ac": 15,
        "dex": 14,
        "speed": 30,
        "size": "small",
        "attack": 4,
        "damage": "1d6+2",
        "attack_list": "Scimitar +4 1d6+2, Shortbow +4 1d6+2",
        "xp": 50,
        "saves": "Str -1, Dex +2, Con +0, Int +0, Wis -1, Cha -1",
    }  # no save listed: the scores'
    assert "Nimble Escape" in reading.notes and "leather armor, shield" in reading.notes
    assert ("Challenge", "1/4 (50 XP)") in reading.read
    assert reading.unread == ()
    assert registry.get("dnd5e").check_sheet(reading.sheet)


def test_a_pdf_copy_reads_as_the_clean_block() -> None:
    reading = read_for(BUGBEAR_PDF, "dnd5e")
    assert (reading.name, reading.hp) == ("Bugbear", 27)
    assert ("HP", "27 (5d8+5)") in reading.read
    assert reading.sheet["ac"] == 16 and reading.sheet["dex"] == 14 and reading.sheet["speed"] == 30
    assert reading.sheet["attack_list"] == "Morningstar +4 2d8+2, Javelin +4 2d6+2"
    assert "first round" in reading.notes  # the ligature read as two letters
    assert reading.unread == ()


def test_cleaning_joins_broken_words_and_reads_dashes_as_minus() -> None:
    assert clean("pierc-\ning  damage\u00a0–1 ﬂy") == "piercing damage -1 fly"
    assert clean("Хиты 7 (2к6 + 1)") == "Хиты 7 (2d6 + 1)"
    assert clean("кобольд к8") == "кобольд d8"  # a die after a space, never inside a word
    assert clean("Скорость") == "Скорость"


def test_multiattack_gives_the_number_of_attacks() -> None:
    reading = read_for(TROLL_5E, "dnd5e")
    assert reading.hp == 84
    assert reading.sheet["attacks"] == 3
    assert reading.sheet["attack"] == 7 and reading.sheet["damage"] == "1d6+4"
    assert reading.sheet["size"] == "large" and reading.sheet["xp"] == 1800
    assert "Multiattack: The troll makes three attacks" in reading.notes
    assert "Regeneration" in reading.notes


def test_the_russian_and_ukrainian_5e_blocks() -> None:
    ru = read_for(GOBLIN_RU, "dnd5e")
    assert (ru.name, ru.hp) == ("Гоблин", 7)
    assert ru.sheet == {
        "ac": 15,
        "dex": 14,
        "speed": 30,
        "size": "small",
        "attack": 4,
        "damage": "1d6+2",
        "xp": 50,
        "saves": "Str -1, Dex +2, Con +0, Int +0, Wis -1, Cha -1",
    }
    assert ("Attacks", "Скимитар +4 1d6+2") in ru.read
    uk = read_for(ZOMBIE_UK, "dnd5e")
    assert (uk.name, uk.hp) == ("Зомбі", 22)
    assert uk.sheet == {
        "ac": 8,
        "dex": 6,
        "speed": 20,
        "size": "medium",
        "attack": 3,
        "damage": "1d6+1",
        "xp": 50,
        "saves": "Str +1, Dex -2, Con +3, Int -4, Wis -2, Cha -3",
        "immune": "poison",
    }
    assert "отрута" not in uk.notes  # a damage type is the sheet's, no longer a note


def test_the_ose_one_line_block() -> None:
    reading = read_for(GOBLIN_OSE, "ose")
    assert reading.layout == "ose"
    assert (reading.name, reading.hp) == ("Goblin", 3)
    assert reading.sheet == {
        "ac": 13,
        "attack": 0,
        "damage": "1d6",
        "morale": 7,
        "hd": "1-1",
        "saves": "D14 W15 P16 B17 S18",
        "save_as": "NH",
    }
    assert reading.hp_dice == "1d8-1"  # the 3 beside the Hit Dice is their average: each one's are rolled
    assert "MV 60' (20')" in reading.notes and "SV" not in reading.notes
    assert reading.unread == ()
    assert registry.get("ose").check_sheet(reading.sheet)


def test_ose_attack_forms_and_a_weapon_alternative() -> None:
    owlbear = read_for(OWLBEAR_OSE, "ose")
    assert owlbear.name == "Owl Bear" and owlbear.hp == 22
    assert owlbear.sheet == {"ac": 14, "attack": 4, "damage": "1d8", "weapon": "claw", "morale": 9, "hd": "5"}
    assert ("Attacks", "2 × claw (1d8), 1 × bite (1d8)") in owlbear.read
    bugbear = read_for(BUGBEAR_OSE, "ose")
    assert bugbear.sheet["damage"] == "2d4" and bugbear.sheet["attack"] == 3 and bugbear.hp == 14


def test_the_russian_and_ukrainian_ose_blocks() -> None:
    ru = read_for(ORC_OSE_RU, "ose")
    assert (ru.name, ru.hp, ru.sheet) == ("Орк", 4, {"ac": 13, "attack": 0, "damage": "1d6", "morale": 6, "hd": "1"})
    uk = read_for(GOBLIN_OSE_UK, "ose")
    assert (uk.name, uk.hp, uk.sheet) == (
        "Гоблін",
        3,
        {"ac": 13, "attack": 0, "damage": "1d6", "morale": 7, "hd": "1-1"},
    )
    assert ru.unread == () and uk.unread == ()


def test_the_adnd_stat_line() -> None:
    reading = read_for(ORC_ADND, "adnd2e")
    assert reading.layout == "adnd"
    assert (reading.name, reading.hp) == ("Orc", 4)
    assert ("HP", "4 ← HD 1") in reading.read  # worked out, and said so
    assert reading.sheet == {
        "cls": "monster",
        "level": "1",
        "ac": 6,
        "thac0": 19,
        "damage": "1d8",
        "attacks": "1",
        "size": "medium",
    }
    assert "MV 9" in reading.notes and "ML 8" in reading.notes
    assert registry.get("adnd2e").check_sheet(reading.sheet)


def test_adnd_damage_ranges_and_attack_forms() -> None:
    reading = read_for(TROLL_ADND, "adnd2e")
    assert reading.hp == 33
    assert reading.sheet["damage"] == "1d4+4, 1d4+4, 2d6"
    assert ("Damage", "2-12 → 2d6") in reading.read
    assert reading.sheet["size"] == "large" and reading.sheet["level"] == "6+6"
    assert "ML Elite (14)" in reading.notes and "SD regeneration" in reading.notes
    assert reading.unread == ()


def test_the_russian_and_ukrainian_adnd_lines() -> None:
    gnoll = read_for(GNOLL_ADND_RU, "adnd2e")
    assert (gnoll.name, gnoll.hp, gnoll.sheet["ac"], gnoll.sheet["thac0"], gnoll.sheet["damage"]) == (
        "Гнолл",
        9,
        5,
        19,
        "2d4",
    )
    ogre = read_for(OGRE_ADND_UK, "adnd2e")
    assert (ogre.name, ogre.hp, ogre.sheet["level"], ogre.sheet["damage"]) == ("Огр", 19, "4+1", "1d10")
    assert ogre.sheet["size"] == "large"


def test_what_cannot_be_read_is_listed_not_guessed() -> None:
    reading = read_for("Ogre AC 5 [14], HD 4+1 (19hp), Att 1 × club (1d10), THAC0 15 [+4], ML ten", "ose")
    assert "morale" not in reading.sheet
    assert "ML ten" in reading.unread
    trailing = read_for("Ogre AC 5 [14], HD 4+1 (19hp), ML 10, regenerates", "ose")
    assert trailing.sheet["morale"] == 10 and "regenerates" in trailing.unread
    nothing = read_for("a fearsome beast of the marshes", "dnd5e")
    assert nothing.hp is None and nothing.sheet == {} and nothing.unread == ("no stat block layout recognised",)
    no_hp = read_for("Shade\nArmor Class 12\nSpeed 40 ft.\nChallenge 1 (200 XP)", "dnd5e")
    assert no_hp.hp is None and "no hit points" in no_hp.unread


def test_one_block_for_another_ruleset() -> None:
    as_adnd = read_for(GOBLIN_OSE, "adnd2e")
    assert as_adnd.sheet["ac"] == 6 and as_adnd.sheet["level"] == "1-1" and as_adnd.sheet["thac0"] == 19
    as_ose = read_for(ORC_ADND, "ose")
    assert as_ose.sheet["ac"] == 13 and ("Armour class", "13 ← 19 − 6") in as_ose.read
    assert as_ose.sheet["attack"] == 0  # 19 − THAC0 19
    as_trudvang = read_for(GOBLIN_5E, "trudvang")
    assert (as_trudvang.hp, as_trudvang.sheet) == (7, {})


def test_hit_dice_and_ranges() -> None:
    assert [average_hp(hd) for hd in ("1", "1-1", "4+1", "6+6", "1/2", "3*", "x")] == [4, 3, 19, 33, 2, 13, None]
    assert [range_dice(r) for r in ("1-8", "2-8", "2-7", "3-18", "1-4+4", "5-3", "1d8")] == [
        "1d8",
        "2d4",
        "1d6+1",
        "3d6",
        "1d4+4",
        None,
        None,
    ]


def test_every_block_here_gives_a_sheet_its_ruleset_accepts() -> None:
    for text, ruleset in (
        (GOBLIN_5E, "dnd5e"),
        (BUGBEAR_PDF, "dnd5e"),
        (TROLL_5E, "dnd5e"),
        (GOBLIN_RU, "dnd5e"),
        (ZOMBIE_UK, "dnd5e"),
        (GOBLIN_OSE, "ose"),
        (OWLBEAR_OSE, "ose"),
        (ORC_OSE_RU, "ose"),
        (ORC_ADND, "adnd2e"),
        (TROLL_ADND, "adnd2e"),
        (GNOLL_ADND_RU, "adnd2e"),
        (OGRE_ADND_UK, "players_option"),
        (GOBLIN_OSE, "players_option"),
    ):
        reading = read_for(text, ruleset)
        registry.get(ruleset).check_sheet(dict(reading.sheet))
        assert reading.hp and reading.hp > 0, text


def test_reading_an_empty_paste() -> None:
    block = read_block("   \n ")
    assert block.layout == "" and block.name == ""


ORC_MONSTROUS_MANUAL = """Orc
CLIMATE/TERRAIN: Any land
FREQUENCY: Common
ORGANIZATION: Tribe
ACTIVITY CYCLE: Night
ARMOR CLASS: 6 (10)
MOVEMENT: 9 (12)
HIT DICE: 1
THAC0: 19
NO. OF ATTACKS: 1
DAMAGE/ATTACK: By weapon
SPECIAL ATTACKS: Nil
SIZE: M (6' tall)
MORALE: Steady (11-12)
XP VALUE: 15"""

GOBLIN_2024 = """Goblin Warrior
Small Fey (Goblinoid), Chaotic Neutral
AC 15 Initiative +2 (12)
HP 10 (3d6)
Speed 30 ft.
MOD SAVE MOD SAVE MOD SAVE
Str 8 −1 −1 Dex 15 +2 +2 Con 10 +0 +0
Int 10 +0 +0 Wis 8 −1 −1 Cha 8 −1 −1
Senses Darkvision 60 ft.; Passive Perception 9
CR 1/4 (XP 50; PB +2)
Traits
Nimble Escape. The goblin takes the Disengage or Hide action.
Actions
Scimitar. Melee Attack Roll: +4, reach 5 ft. Hit: 5 (1d6 + 2) Slashing damage, plus 2 (1d4) Slashing damage if the attack roll had Advantage.
Shortbow. Ranged Attack Roll: +4, range 80/320 ft. Hit: 5 (1d6 + 2) Piercing damage."""


def test_the_monstrous_manual_block() -> None:
    reading = read_for(ORC_MONSTROUS_MANUAL, "adnd2e")
    assert reading.layout == "adnd" and (reading.name, reading.hp) == ("Orc", 4)
    assert reading.sheet == {"cls": "monster", "level": "1", "ac": 6, "thac0": 19, "attacks": "1", "size": "medium"}
    assert "DAMAGE/ATTACK By weapon" in reading.notes and "CLIMATE/TERRAIN Any land" in reading.notes
    assert "MORALE Steady (11-12)" in reading.notes and "ML 12" not in reading.notes  # once, as the book words it
    assert reading.unread == ()


def test_the_2024_block() -> None:
    reading = read_for(GOBLIN_2024, "dnd5e")
    assert (reading.name, reading.hp) == ("Goblin Warrior", 10)
    assert reading.sheet == {
        "ac": 15,
        "dex": 15,
        "speed": 30,
        "size": "small",
        "attack": 4,
        "damage": "1d6+2",
        "attack_list": "Scimitar +4 1d6+2, Shortbow +4 1d6+2",
        "xp": 50,
        "saves": "Str -1, Dex +2, Con +0, Int +0, Wis -1, Cha -1",
    }  # the table's SAVE column
    assert reading.notes == "Nimble Escape. The goblin takes the Disengage or Hide action."


# (no deadline: the first reading of a ruleset's sheet loads its tables and the catalogs, on a busy machine slowly)
@settings(deadline=None)
@given(st.data())
def test_lines_broken_anywhere_read_the_same(data: st.DataObject) -> None:
    """A PDF breaks lines wherever its column ends: any space after the name may become a line break."""
    for text, ruleset in ((GOBLIN_5E, "dnd5e"), (BUGBEAR_OSE, "ose"), (TROLL_ADND, "adnd2e")):
        name, rest = text.split("\n", 1) if "\n" in text else text.split(": ", 1)
        spaces = [i for i, char in enumerate(rest) if char == " "]
        broken = set(data.draw(st.lists(st.sampled_from(spaces), max_size=12)))
        messy = "".join("\n" if i in broken else char for i, char in enumerate(rest))
        joined = ("\n" if "\n" in text else ": ").join([name, messy])
        assert read_for(joined, ruleset) == read_for(text, ruleset), joined


@settings(deadline=None)
@given(st.text(max_size=300))
def test_any_text_is_read_without_an_error(text: str) -> None:
    reading = read_for(text, "dnd5e")
    assert all(isinstance(item, str) for item in reading.unread)
    if reading.hp is not None:
        assert reading.hp >= 0


GOBLIN_OSE_UK_ONE_LINE = (
    "Гоблін: КБ 6 [13], КЗ 1 (4 HP), Атаки 1 × зброя (1к6), ТАК0 19 [0], Рух 60' (20'), "
    "РК С14 Ч15 П16 Д17 З18 (1), Мораль 7, Світогляд Хаотичний, Досвід 10"
)


def test_the_ukrainian_ose_one_liner_reads_the_hit_points_in_brackets_and_the_xp() -> None:
    reading = read_for(GOBLIN_OSE_UK_ONE_LINE, "ose")
    assert (reading.name, reading.hp) == ("Гоблін", 4)
    assert ("HP", "4") in reading.read  # as the block gives them, not worked out from the Hit Dice
    assert ("XP", "10") in reading.read and "XP 10" in reading.notes
    assert reading.unread == ()
    ogre = read_for("Огр: КБ 5 [14], КЗ 4+1 (19 HP), Атаки 1 × дубина (1к10), Досвід 125", "ose")
    assert ogre.hp == 19 and ("XP", "125") in ogre.read and ogre.unread == ()


def test_xp_is_read_from_the_short_blocks() -> None:
    assert read_block(BUGBEAR_OSE).xp == 50
    assert read_block(TROLL_ADND).xp == 1400


def _reading_time(text: str, limit: int | None, times_read: int) -> float:
    """The shortest of ``times_read`` readings of ``text`` (the machine's other work only ever adds to one)."""
    import time

    times = []
    for _attempt in range(times_read):
        start = time.perf_counter()
        read_block(text, limit=limit)
        times.append(time.perf_counter() - start)
    return min(times)


def test_the_reader_is_linear_in_runs_of_digits() -> None:
    """10 KB and 1 MB of digits, in the places a quadratic reading hid (a bare run, a field's number, the hit
    points' dice, an attack's damage), read without the length cap: 100 times the text takes about 100 times as
    long (70 to 240 times on an idle machine, the short text fitting the caches better), where a backtracking
    regex took 10,000 times (4,000 digits took 3 s). Measured as a ratio in one run; the bound, ten times under
    quadratic, leaves room for a busy machine."""
    shapes = (
        "{0}",
        "AC {0}",
        "Goblin\nArmor Class 12\nHit Points 7 ({0}",
        "Orc\nAC 6 [13], HD 1 (4hp), Att 1 × claw ({0}",
        "Bear\nArmor Class 11\nMelee Weapon Attack: +{0} to hit",
        # a special ability's area; the hit points an AD&D line lists
        "Dragon\nArmor Class 19\nHit Points 7\nBreath. DC 15 Dexterity saving throw, a {0}-foot cone, taking 7 (2d6)",
        "Ogre (1): AC 5; HD 4; hp 2, {0}; SV 12 13 14 15 16",
    )
    for shape in shapes:
        small, large = shape.format("1" * 10_000), shape.format("1" * 1_000_000)
        ratio = _reading_time(large, None, 2) / max(_reading_time(small, None, 5), 1e-6)
        assert ratio < 1000, f"{shape!r}: 100× the digits took {ratio:.0f}× as long"


def test_a_long_paste_is_read_up_to_the_cap_and_says_so() -> None:
    from tui_combat.fight.statblock import MAX_CHARS

    reading = read_for(GOBLIN_OSE + ", " + "1" * 1_000_000, "ose")
    assert reading.hp == 3 and reading.sheet["ac"] == 13
    assert any(str(MAX_CHARS) in item for item in reading.unread), reading.unread


def test_a_paste_with_a_control_character_is_refused_with_its_place() -> None:
    reading = read_for("Goblin\nAC 6 [13], HD 1-1\x1b]0;owned\x07 (3hp)", "ose")
    assert reading.refused.startswith("Line 2, character 18:") and "U+001B" in reading.refused
    assert reading.layout == "" and reading.sheet == {} and reading.hp is None
    assert read_for(GOBLIN_OSE.replace("\n", "\r\n\t"), "ose").refused == ""  # a page's line ends and tabs are text
