"""The stat-block paste reads what a sheet holds for the whole fight: a 5e block's saving throws, damage types,
Legendary Resistance, legendary actions, Evasion and special abilities (as 2014 and 2024 print them, in English,
Russian and Ukrainian); OSE's saving-throw line (Dolmenwood's letters too); an AD&D line's count, morale, XP,
movement, special attacks and defences and own saves; and the Hit Dice each one's hit points are rolled from."""

from __future__ import annotations

from tui_combat.engine import registry
from tui_combat.fight.library import read_bestiary
from tui_combat.fight.statblock_sheet import read_for
from tui_combat.fight.statblock_short import counted_name
from tui_combat.rulesets.ose.saves import read_save_line

# The SRD 5.1 block, as the 2014 Monster Manual prints it.
RED_2014 = """Adult Red Dragon
Huge dragon, chaotic evil
Armor Class 19 (natural armor)
Hit Points 256 (19d12 + 133)
Speed 40 ft., climb 40 ft., fly 80 ft.
STR DEX CON INT WIS CHA
27 (+8) 10 (+0) 25 (+7) 16 (+3) 13 (+1) 21 (+5)
Saving Throws Dex +6, Con +13, Wis +7, Cha +11
Skills Perception +13, Stealth +6
Damage Immunities fire
Senses blindsight 60 ft., darkvision 120 ft., passive Perception 23
Languages Common, Draconic
Challenge 17 (18,000 XP)
Legendary Resistance (3/Day). If the dragon fails a saving throw, it can choose to succeed instead.
Actions
Multiattack. The dragon can use its Frightful Presence. It then makes three attacks: one with its bite and two with its claws.
Bite. Melee Weapon Attack: +14 to hit, reach 10 ft., one target. Hit: 19 (2d10 + 8) piercing damage plus 7 (2d6) fire damage.
Claw. Melee Weapon Attack: +14 to hit, reach 5 ft., one target. Hit: 15 (2d6 + 8) slashing damage.
Tail. Melee Weapon Attack: +14 to hit, reach 15 ft., one target. Hit: 17 (2d8 + 8) bludgeoning damage.
Frightful Presence. Each creature of the dragon's choice that is within 120 feet of the dragon and aware of it must succeed on a DC 19 Wisdom saving throw or become frightened for 1 minute. A creature can repeat the saving throw at the end of each of its turns, ending the effect on itself on a success. If a creature's saving throw is successful or the effect ends for it, the creature is immune to the dragon's Frightful Presence for the next 24 hours.
Fire Breath (Recharge 5–6). The dragon exhales fire in a 60-foot cone. Each creature in that area must make a DC 21 Dexterity saving throw, taking 63 (18d6) fire damage on a failed save, or half as much damage on a successful one.
Legendary Actions
The dragon can take 3 legendary actions, choosing from the options below. Only one legendary action option can be used at a time and only at the end of another creature's turn. The dragon regains spent legendary actions at the start of its turn.
Detect. The dragon makes a Wisdom (Perception) check.
Tail Attack. The dragon makes a tail attack.
Wing Attack (Costs 2 Actions). The dragon beats its wings. Each creature within 10 feet of the dragon must succeed on a DC 22 Dexterity saving throw or take 15 (2d6 + 8) bludgeoning damage and be knocked prone. The dragon can then fly up to half its flying speed."""

# The SRD 5.2 block, as the 2024 Monster Manual prints it.
RED_2024 = """Adult Red Dragon
Huge Dragon (Chromatic), Chaotic Evil
AC 19 Initiative +12 (22)
HP 256 (19d12 + 133)
Speed 40 ft., Climb 40 ft., Fly 80 ft.
MOD SAVE MOD SAVE MOD SAVE
Str 27 +8 +8 Dex 10 +0 +6 Con 25 +7 +7
Int 16 +3 +3 Wis 13 +1 +7 Cha 23 +6 +6
Skills Perception +13, Stealth +6
Immunities Fire
Senses Blindsight 60 ft., Darkvision 120 ft.; Passive Perception 23
Languages Common, Draconic
CR 17 (XP 18,000, or 20,000 in lair; PB +6)
Traits
Legendary Resistance (3/Day, or 4/Day in Lair). If the dragon fails a saving throw, it can choose to succeed instead.
Actions
Multiattack. The dragon makes three Rend attacks. It can replace one attack with a use of Spellcasting to cast Scorching Ray.
Rend. Melee Attack Roll: +14, reach 10 ft. Hit: 13 (1d10 + 8) Slashing damage plus 5 (2d4) Fire damage.
Fire Breath (Recharge 5–6). Dexterity Saving Throw: DC 21, each creature in a 60-foot Cone. Failure: 59 (17d6) Fire damage. Success: Half damage.
Spellcasting. The dragon casts one of the following spells, requiring no Material components and using Charisma as the spellcasting ability (spell save DC 20, +12 to hit with spell attacks):
At Will: Command (level 2 version), Detect Magic, Scorching Ray (level 3 version)
1/Day Each: Fireball (level 6 version), Scrying
Legendary Actions
Legendary Action Uses: 3 (4 in Lair). Immediately after another creature's turn, the dragon can expend a use to take one of the following actions. The dragon regains all expended uses at the start of each of its turns.
Commanding Presence. The dragon uses Spellcasting to cast Command (level 2 version). The dragon can't take this action again until the start of its next turn.
Fiery Rays. The dragon uses Spellcasting to cast Scorching Ray (level 3 version). The dragon can't take this action again until the start of its next turn.
Pounce. The dragon moves up to half its Speed, and it makes one Rend attack."""

# The 2014 block as the Russian translation prints it.
RED_RU = """Взрослый красный дракон
Огромный дракон, хаотично-злой
Класс Доспеха 19 (природный доспех)
Хиты 256 (19к12 + 133)
Скорость 40 фт., лазая 40 фт., летая 80 фт.
СИЛ ЛОВ ТЕЛ ИНТ МДР ХАР
27 (+8) 10 (+0) 25 (+7) 16 (+3) 13 (+1) 21 (+5)
Спасброски Лов +6, Тел +13, Мдр +7, Хар +11
Навыки Восприятие +13, Скрытность +6
Иммунитет к урону огонь
Чувства слепое зрение 60 фт., тёмное зрение 120 фт., пассивное Восприятие 23
Языки Драконий, Общий
Опасность 17 (18 000 опыта)
Легендарное сопротивление (3/день). Если дракон проваливает спасбросок, он может вместо этого сделать так, чтобы спасбросок оказался успешным.
Действия
Мультиатака. Дракон может использовать Ужасающую внешность. Затем он совершает три атаки: одну укусом и две когтями.
Укус. Рукопашная атака оружием: +14 к попаданию, досягаемость 10 фт., одна цель. Попадание: 19 (2к10 + 8) колющего урона плюс 7 (2к6) урона огнём.
Коготь. Рукопашная атака оружием: +14 к попаданию, досягаемость 5 фт., одна цель. Попадание: 15 (2к6 + 8) рубящего урона.
Хвост. Рукопашная атака оружием: +14 к попаданию, досягаемость 15 фт., одна цель. Попадание: 17 (2к8 + 8) дробящего урона.
Ужасающая внешность. Все существа на выбор дракона, находящиеся в пределах 120 футов от него и осведомлённые о нём, должны преуспеть в спасброске Мудрости со Сл 19, иначе станут испуганными на 1 минуту. Существо может повторять этот спасбросок в конце каждого своего хода, оканчивая эффект на себе при успехе.
Огненное дыхание (Перезарядка 5–6). Дракон выдыхает огонь 60-футовым конусом. Все существа в этой области должны совершить спасбросок Ловкости со Сл 21, получая урон огнём 63 (18к6) при провале, или половину этого урона при успехе.
Легендарные действия
Дракон может совершить 3 легендарных действия, выбирая из представленных ниже вариантов. За один раз можно использовать только одно легендарное действие, и только в конце хода другого существа. Дракон восстанавливает использованные легендарные действия в начале своего хода.
Обнаружение. Дракон совершает проверку Мудрости (Восприятие).
Атака хвостом. Дракон совершает атаку хвостом.
Атака крыльями (стоит 2 действия). Дракон бьёт крыльями. Все существа в пределах 10 футов от дракона должны преуспеть в спасброске Ловкости со Сл 22, иначе получат дробящий урон 15 (2к6 + 8) и будут сбиты с ног. После этого дракон может пролететь до половины своей скорости полёта."""

# The 2014 block as a Ukrainian translation prints it.
RED_UK = """Дорослий червоний дракон
Величезний дракон, хаотично-злий
Клас броні 19 (природна броня)
Хіти 256 (19к12 + 133)
Швидкість 40 фт., лазіння 40 фт., політ 80 фт.
СИЛ СПР СТА ІНТ МДР ХАР
27 (+8) 10 (+0) 25 (+7) 16 (+3) 13 (+1) 21 (+5)
Рятівні кидки Спр +6, Ста +13, Мдр +7, Хар +11
Навички Сприйняття +13, Непомітність +6
Імунітет до шкоди вогонь
Чуття сліпозір 60 фт., темнозір 120 фт., пасивне Сприйняття 23
Мови драконяча, загальна
Небезпека 17 (18 000 ДО)
Легендарний опір (3/день). Якщо дракон провалює рятівний кидок, він може натомість досягти успіху.
Дії
Мультиатака. Дракон може використати Жахливу присутність. Потім він здійснює три атаки: одну укусом і дві кігтями.
Укус. Атака ближнім боєм зброєю: +14 до влучання, досяжність 10 фт., одна ціль. Влучання: 19 (2к10 + 8) колючої шкоди плюс 7 (2к6) шкоди вогнем.
Кіготь. Атака ближнім боєм зброєю: +14 до влучання, досяжність 5 фт., одна ціль. Влучання: 15 (2к6 + 8) рубляча шкода.
Жахлива присутність. Кожна істота на вибір дракона в межах 120 футів від нього, яка знає про нього, мусить досягти успіху в рятівному кидку Мудрості зі СК 19, інакше стане наляканою на 1 хвилину.
Вогняний подих (Перезаряджання 5–6). Дракон видихає вогонь 60-футовим конусом. Кожна істота в цій області мусить зробити рятівний кидок Спритності зі СК 21, отримуючи 63 (18к6) шкоди вогнем у разі провалу або половину цієї шкоди в разі успіху.
Легендарні дії
Дракон може виконати 3 легендарні дії, обираючи з наведених нижче варіантів. Дракон відновлює витрачені легендарні дії на початку свого ходу.
Виявлення. Дракон здійснює перевірку Мудрості (Сприйняття).
Атака хвостом. Дракон здійснює атаку хвостом.
Атака крилами (коштує 2 дії). Дракон б'є крилами. Кожна істота в межах 10 футів від дракона мусить досягти успіху в рятівному кидку Спритності зі СК 22, інакше отримає 15 (2к6 + 8) дробильної шкоди й буде збита з ніг."""

FIRE_BREATH_2014 = "Fire Breath: 18d6 fire, Dex 21 half, recharge 5-6, cone 60 ft"
FRIGHTFUL_PRESENCE = "Frightful Presence: Wis 19, emanation 120 ft"
WING_ATTACK = "Wing Attack (Costs 2 Actions): 2d6+8 bludgeoning, Dex 22 none, emanation 10 ft"


def test_the_adult_red_dragon_of_2014() -> None:
    reading = read_for(RED_2014, "dnd5e")
    sheet = reading.sheet
    assert sheet["saves"] == "Str +8, Dex +6, Con +13, Int +3, Wis +7, Cha +11"  # the listed four, Str Int from scores
    assert (sheet["immune"], sheet["legendary_resistance"], sheet["legendary"], sheet["attacks"]) == ("fire", 3, 3, 3)
    assert sheet["abilities"] == f"{FRIGHTFUL_PRESENCE}; {FIRE_BREATH_2014}; {WING_ATTACK}"
    assert "resist" not in sheet and "vulnerable" not in sheet and "evasion" not in sheet
    assert "Legendary Actions: Detect, Tail Attack, Wing Attack (Costs 2 Actions)." in reading.notes
    assert "Damage Immunities" not in reading.notes  # the sheet's now
    assert ("Special abilities", FIRE_BREATH_2014) in reading.read
    assert reading.unread == ()
    assert registry.get("dnd5e").check_sheet(dict(sheet))


def test_the_adult_red_dragon_of_2024_reads_as_the_srd_bestiary_has_it() -> None:
    reading = read_for(RED_2024, "dnd5e")
    srd = next(entry for entry in read_bestiary("dnd5e").entries if entry.name == "Adult Red Dragon")
    keys = (
        "ac",
        "dex",
        "speed",
        "size",
        "attack",
        "damage",
        "attacks",
        "xp",
        "saves",
        "immune",
        "legendary",
        "legendary_resistance",
        "abilities",
    )
    assert {key: reading.sheet.get(key) for key in keys} == {key: srd.sheet.get(key) for key in keys}
    assert reading.sheet["abilities"] == "Fire Breath: 17d6 fire, Dex 21 half, recharge 5-6, cone 60 ft"
    assert ("Challenge", "17 (18000 XP)") in reading.read  # "(XP 18,000, or 20,000 in lair; PB +6)"
    assert "Legendary Actions: Commanding Presence, Fiery Rays, Pounce." in reading.notes
    assert reading.unread == ()


def test_the_dragon_in_russian_and_ukrainian() -> None:
    english = read_for(RED_2014, "dnd5e").sheet
    for text, names in (
        (RED_RU, ("Ужасающая внешность", "Огненное дыхание", "Атака крыльями (стоит 2 действия)")),
        (RED_UK, ("Жахлива присутність", "Вогняний подих", "Атака крилами (коштує 2 дії)")),
    ):
        reading = read_for(text, "dnd5e")
        for key in ("saves", "immune", "legendary", "legendary_resistance", "attacks", "xp", "ac", "dex"):
            assert reading.sheet[key] == english[key], (key, text[:30])
        translated = english["abilities"]
        for own, printed in zip(("Frightful Presence", "Fire Breath", "Wing Attack (Costs 2 Actions)"), names):
            translated = translated.replace(own, printed)
        # (the wing attack's "up to half its flying speed" is no half damage: none on a success)
        assert reading.sheet["abilities"] == translated
        assert reading.unread == ()
        assert registry.get("dnd5e").check_sheet(dict(reading.sheet))


WIGHT_2014 = """Wight
Medium undead, neutral evil
Armor Class 14 (studded leather)
Hit Points 45 (6d8 + 18)
Speed 30 ft.
STR DEX CON INT WIS CHA
15 (+2) 14 (+2) 16 (+3) 10 (+0) 13 (+1) 15 (+2)
Skills Perception +3, Stealth +4
Damage Resistances necrotic; bludgeoning, piercing, and slashing from nonmagical attacks that aren't silvered
Damage Immunities poison
Condition Immunities exhaustion, poisoned
Senses darkvision 60 ft., passive Perception 13
Languages the languages it knew in life
Challenge 3 (700 XP)
Sunlight Sensitivity. While in sunlight, the wight has disadvantage on attack rolls, as well as on Wisdom (Perception) checks that rely on sight.
Actions
Multiattack. The wight makes two longsword attacks or two longbow attacks. It can use its Life Drain in place of one longsword attack.
Life Drain. Melee Weapon Attack: +4 to hit, reach 5 ft., one creature. Hit: 5 (1d6 + 2) necrotic damage. The target must succeed on a DC 13 Constitution saving throw or its hit point maximum is reduced by an amount equal to the damage taken.
Longsword. Melee Weapon Attack: +4 to hit, reach 5 ft., one target. Hit: 6 (1d8 + 2) slashing damage, or 7 (1d10 + 2) slashing damage if used with two hands."""


def test_damage_types_go_to_the_sheet_and_what_qualifies_them_to_the_notes() -> None:
    reading = read_for(WIGHT_2014, "dnd5e")
    assert reading.sheet["resist"] == "necrotic, bludgeoning, piercing, slashing"
    assert reading.sheet["immune"] == "poison"
    assert (
        "Damage Resistances bludgeoning, piercing, and slashing from nonmagical attacks that aren't silvered"
        in reading.notes
    )
    assert "Condition Immunities exhaustion, poisoned" in reading.notes
    assert "Damage Immunities" not in reading.notes
    assert "abilities" not in reading.sheet  # Life Drain is an attack: its save rider stays with it
    assert reading.sheet["saves"] == "Str +2, Dex +2, Con +3, Int +0, Wis +1, Cha +2"
    assert reading.unread == ()
    conditions = read_for(RED_2024.replace("Immunities Fire", "Immunities Fire, Poison; Charmed, Frightened"), "dnd5e")
    assert conditions.sheet["immune"] == "fire, poison" and "Immunities Charmed, Frightened" in conditions.notes
    russian = read_for(
        RED_RU.replace("Иммунитет к урону огонь", "Уязвимость к урону холод\nСопротивление урону кислота, звук"),
        "dnd5e",
    )
    assert (russian.sheet["vulnerable"], russian.sheet["resist"]) == ("cold", "acid, thunder")


ASSASSIN_2014 = """Assassin
Medium humanoid (any race), any non-good alignment
Armor Class 15 (studded leather)
Hit Points 78 (12d8 + 24)
Speed 30 ft.
STR DEX CON INT WIS CHA
11 (+0) 16 (+3) 14 (+2) 13 (+1) 11 (+0) 10 (+0)
Saving Throws Dex +6, Int +4
Skills Acrobatics +6, Deception +3, Perception +3, Stealth +9
Damage Resistances poison
Senses passive Perception 13
Languages Thieves' cant plus any two languages
Challenge 8 (3,900 XP)
Assassinate. During its first turn, the assassin has advantage on attack rolls against any creature that hasn't taken a turn.
Evasion. If the assassin is subjected to an effect that allows it to make a Dexterity saving throw to take only half damage, the assassin instead takes no damage if it succeeds on the saving throw, and only half damage if it fails.
Actions
Multiattack. The assassin makes two shortsword attacks.
Shortsword. Melee Weapon Attack: +6 to hit, reach 5 ft., one target. Hit: 6 (1d6 + 3) piercing damage, and the target must make a DC 15 Constitution saving throw, taking 24 (7d6) poison damage on a failed save, or half as much damage on a successful one."""

BALOR_2024 = """Balor
Huge Fiend (Demon), Chaotic Evil
AC 19 Initiative +14 (24)
HP 287 (23d12 + 138)
Speed 40 ft., Fly 80 ft.
MOD SAVE MOD SAVE MOD SAVE
Str 26 +8 +8 Dex 15 +2 +2 Con 22 +6 +12
Int 20 +5 +5 Wis 16 +3 +9 Cha 22 +6 +6
Skills Perception +9
Resistances Cold, Lightning
Immunities Fire, Poison; Charmed, Frightened, Poisoned
Senses Truesight 120 ft.; Passive Perception 19
Languages Abyssal; telepathy 120 ft.
CR 19 (XP 22,000; PB +6)
Traits
Death Throes. The balor explodes when it dies. Dexterity Saving Throw: DC 20, each creature in a 30-foot Emanation originating from the balor. Failure: 31 (9d6) Fire damage plus 31 (9d6) Force damage. Success: Half damage.
Fire Aura. At the end of each of the balor's turns, each creature in a 10-foot Emanation originating from the balor takes 13 (3d8) Fire damage.
Actions
Multiattack. The balor makes one Flame Whip attack and one Lightning Blade attack.
Flame Whip. Melee Attack Roll: +14, reach 30 ft. Hit: 18 (3d6 + 8) Force damage plus 17 (5d6) Fire damage.
Lightning Blade. Melee Attack Roll: +14, reach 10 ft. Hit: 21 (3d8 + 8) Force damage plus 22 (4d10) Lightning damage.
Bonus Actions
Teleport (Recharge 4–6). The balor teleports itself or a willing demon within 10 feet of itself up to 60 feet to an unoccupied space the balor can see."""


def test_evasion_an_aura_two_damage_types_and_a_recharge_alone() -> None:
    assassin = read_for(ASSASSIN_2014, "dnd5e")
    assert assassin.sheet["evasion"] is True and ("Evasion", "✓") in assassin.read
    assert assassin.sheet["saves"] == "Str +0, Dex +6, Con +2, Int +4, Wis +0, Cha +0"
    assert "abilities" not in assassin.sheet  # the shortsword's poison is the attack's
    balor = read_for(BALOR_2024, "dnd5e")
    assert balor.sheet["abilities"] == (
        "Death Throes: 9d6 fire plus 9d6 force, Dex 20 half, emanation 30 ft; "
        "Fire Aura: 3d8 fire, emanation 10 ft; Teleport: recharge 4-6"
    )
    assert balor.sheet["saves"] == "Str +8, Dex +2, Con +12, Int +5, Wis +9, Cha +6"
    assert (balor.sheet["resist"], balor.sheet["immune"]) == ("cold, lightning", "fire, poison")
    assert "Immunities Charmed, Frightened, Poisoned" in balor.notes
    assert balor.unread == ()
    for reading in (assassin, balor):
        assert registry.get("dnd5e").check_sheet(dict(reading.sheet))


GOBLIN_OSE_UK = (
    "Гоблін: КБ 6 [13], КЗ 1-1 (3 хп), Атаки 1 × зброя (1к6), ТАК0 19 [0], Рух 60' (20'), "
    "РК С14 Ч15 П16 Д17 З18 (NH), Мораль 7, Світогляд Хаотичний, Досвід 5"
)
GOBLIN_DOLMENWOOD = (
    "Goblin: Level 1 AC 12 HP 1d8 (4) Saves D12 R13 H14 B15 S16 Att Weapon (+0, 1d6) Speed 30 Morale 7 XP 10"
)


def test_the_ose_saving_throw_line_as_the_starter_bestiary_holds_it() -> None:
    reading = read_for(GOBLIN_OSE_UK, "ose")
    bestiary = next(entry for entry in read_bestiary("ose").entries if entry.name == "Goblin")
    for key in ("saves", "save_as", "hd", "ac", "attack", "damage", "morale"):
        assert reading.sheet[key] == bestiary.sheet[key], key
    assert ("Saving throws", "D14 W15 P16 B17 S18") in reading.read and ("Saves as", "NH") in reading.read
    assert "РК" not in reading.notes and "SV" not in reading.notes
    assert (reading.hp, reading.hp_dice) == (3, "1d8-1")  # the block's average shown; each one's rolled
    assert reading.unread == ()
    assert registry.get("ose").check_sheet(dict(reading.sheet))


def test_ose_save_lines_dolmenwood_and_what_is_no_save_line() -> None:
    bugbear = read_for(
        "Bugbear\nAC 5 [14], HD 3+1 (14hp), Att 1 × weapon (2d4), THAC0 16 [+3], MV 90' (30'), "
        "SV D12 W13 P14 B15 S16 (3), ML 9",
        "ose",
    )
    assert (bugbear.sheet["saves"], bugbear.sheet["save_as"], bugbear.hp_dice) == ("D12 W13 P14 B15 S16", "3", "3d8+1")
    dolmenwood = read_for(GOBLIN_DOLMENWOOD, "ose")
    assert dolmenwood.sheet == {
        "ac": 12,
        "attack": 0,
        "damage": "1d6",
        "morale": 7,
        "hd": "1",
        "saves": "D12 R13 H14 B15 S16",
    }  # its armour class ascends: no bracket
    line = read_save_line(dolmenwood.sheet["saves"])
    assert line is not None and line.numbers == (12, 13, 14, 15, 16)
    assert (dolmenwood.hp, dolmenwood.hp_dice, dolmenwood.unread) == (4, "1d8", ())
    short = read_for("Goblin\nAC 6 [13], HD 1-1 (3hp), SV D14 W15 P16, ML 7", "ose")
    assert "saves" not in short.sheet and "SV D14 W15 P16" in short.unread
    unknown = read_for("Goblin\nAC 6 [13], HD 1-1 (3hp), SV D14 W15 P16 B17 S18 (XY9), ML 7", "ose")
    assert unknown.sheet["saves"] == "D14 W15 P16 B17 S18" and "save_as" not in unknown.sheet
    assert "SV (XY9)" in unknown.unread


OGRE_ADND = (
    "Ogre (1): AC 5; MV 9; HD 4+1; hp 27; THAC0 17; #AT 1; Dmg 1d10 (club); SA nil; SD nil; "
    "SZ L (9' tall); ML steady (12); Int low (5); AL CE; XP 175"
)
OGRES_ADND = "2 ogres: AC 5; MV 9; HD 4+1; THAC0 17; #AT 1; Dmg 1-10; SZ L; ML 13; XP 270"
OGRES_LISTED = "Ogres (3): AC 5; MV 9; HD 4+1; hp 30, 25, 21; THAC0 17; #AT 1; Dmg 1d10; SZ L; ML 13; XP 270"
ZOMBIE_ADND = (
    "Zombie: AC 8; MV 6; HD 2; THAC0 19; #AT 1; Dmg 1-8; SD immune to sleep, charm, hold; SZ M; "
    "Int non- (0); ML special (20); XP 65; SV 14 16 15 17 17"
)
OGRES_ADND_RU = "2 огра: КД 5; ДВ 9; ХД 4+1; ТАК0 17; Атак 1; Урон 1-10; Размер Б; Мораль 13; Опыт 270"


def test_an_adnd_ogre_line_its_count_morale_xp_and_movement() -> None:
    one = read_for(OGRE_ADND, "adnd2e")
    assert (one.name, one.count, one.hp, one.hp_dice) == ("Ogre", 1, 27, "")  # "hp 27": his own
    assert one.sheet == {
        "cls": "monster",
        "level": "4+1",
        "ac": 5,
        "thac0": 17,
        "damage": "1d10",
        "attacks": "1",
        "size": "large",
    }
    for note in ("MV 9", "ML steady (12)", "XP 175", "Dmg 1d10 (club)", "Int low (5)", "AL CE"):
        assert note in one.notes, note
    assert "SA" not in one.notes and "SD" not in one.notes  # "nil" says nothing
    assert ("Morale", "12") in one.read and ("XP", "175") in one.read and ("How many", "1") in one.read
    assert one.unread == ()
    two = read_for(OGRES_ADND, "adnd2e")
    assert (two.name, two.count, two.hp, two.hp_dice) == ("Ogre", 2, 19, "4d8+1")  # each one's rolled
    listed = read_for(OGRES_LISTED, "adnd2e")
    assert (listed.name, listed.count, listed.hp, listed.hps, listed.hp_dice) == ("Ogre", 3, 30, (30, 25, 21), "")
    as_po = read_for(OGRES_ADND, "players_option")
    assert as_po.sheet["movement"] == 9 and ("Movement rate", "9") in as_po.read
    russian = read_for(OGRES_ADND_RU, "adnd2e")
    assert (russian.count, russian.hp_dice, russian.sheet["level"]) == (2, "4d8+1", "4+1")
    for reading, ruleset in ((one, "adnd2e"), (two, "adnd2e"), (listed, "adnd2e"), (as_po, "players_option")):
        registry.get(ruleset).check_sheet(dict(reading.sheet))


def test_an_adnd_monster_of_no_intelligence_and_its_own_saves() -> None:
    zombie = read_for(ZOMBIE_ADND, "adnd2e")
    assert zombie.sheet["mindless"] is True and zombie.sheet["saves"] == "14 16 15 17 17"
    assert "SD immune to sleep, charm, hold" in zombie.notes and "SV" not in zombie.notes
    assert (zombie.hp_dice, zombie.unread) == ("2d8", ())
    registry.get("adnd2e").check_sheet(dict(zombie.sheet))
    as_ose = read_for(ZOMBIE_ADND, "ose")  # five numbers in order: OSE reads them as D W P B S
    assert as_ose.sheet["saves"] == "D14 W16 P15 B17 S17"


def test_a_count_before_or_after_the_name() -> None:
    assert counted_name("2 ogres") == ("Ogre", 2)
    assert counted_name("Ogre (1)") == ("Ogre", 1)
    assert counted_name("Ogres (3)") == ("Ogre", 3)
    assert counted_name("Orc ×4") == ("Orc", 4)
    assert counted_name("4 dire wolves") == ("Dire wolf", 4)
    assert counted_name("3 harpies") == ("Harpy", 3)
    assert counted_name("5 zombies") == ("Zombie", 5)
    assert counted_name("2 lizard men") == ("Lizard man", 2)
    assert counted_name("Troll") == ("Troll", None)
    assert counted_name("Giant, hill") == ("Giant, hill", None)
    assert counted_name("2 огра") == ("Огра", 2)  # a translation's name is kept as printed
