"""A 5e sheet's stat-block fields (challenge rating, Hit Dice, other speeds, condition immunities, Multiattack,
legendary actions): checked as the other fields are, and made into the notes the card and the library show —
in English the very words the SRD bestiary printed in its notes before they were fields."""

from __future__ import annotations

from typing import Any

import pytest

from tui_combat.engine import registry
from tui_combat.engine.mistakes import Mistakes
from tui_combat.fight.library import read_library, srd_path
from tui_combat.rulesets.dnd5e.stat_words import abilities_text, ability_name, area_text, sheet_notes

PRINTED = {
    # The notes of the SRD 5.2 bestiary as tools/build_srd_bestiary.py wrote them, word for word, before the
    # figures became fields: a dragon (Hit Dice, two other speeds, Multiattack with a spell, legendary actions),
    # a hovering flyer with condition immunities, a lich (no other speed), a burrower, a bat (Hit Dice minus), a
    # creature with no Multiattack.
    "Adult Red Dragon": "CR 17. HP 256 (19d12 + 133). Speed climb 40 ft., fly 80 ft. Multiattack: The adult red dragon "
    "makes three Rend attacks. It can replace one attack with a use of Spellcasting to cast Scorching "
    "Ray. Legendary actions: Commanding Presence, Fiery Rays, Pounce.",
    "Air Elemental": "CR 5. HP 90 (12d10 + 24). Speed fly 90 ft. (hover). Condition immunities: exhaustion, grappled, "
    "paralyzed, petrified, poisoned, prone, restrained, unconscious. Multiattack: The air elemental makes "
    "two Thunderous Slam attacks.",
    "Lich": "CR 21. HP 315 (42d8 + 126). Condition immunities: charmed, exhaustion, frightened, paralyzed, poisoned. "
    "Multiattack: The lich makes three attacks, using Eldritch Burst or Paralyzing Touch in any combination. "
    "Legendary actions: Deathly Teleport, Disrupt Life, Frightening Gaze.",
    "Purple Worm": "CR 15. HP 247 (15d20 + 90). Speed burrow 50 ft. Multiattack: The purple worm makes one Bite attack "
    "and one Tail Stinger attack.",
    "Bat": "CR 0. HP 1 (1d4 - 1). Speed fly 30 ft.",
    "Goblin Minion": "CR 1/8. HP 7 (2d6).",
}


def srd_entries() -> dict[str, Any]:
    return {entry.name: entry for entry in read_library(srd_path("dnd5e"), "dnd5e", "bestiary").entries}


@pytest.mark.parametrize("name", sorted(PRINTED))
def test_the_notes_made_from_the_fields_are_the_printed_ones_in_english(name: str) -> None:
    entry = srd_entries()[name]
    assert entry.notes == ""
    assert sheet_notes(entry.sheet, entry.hp) == PRINTED[name]


def test_a_summoned_creatures_bare_figure_is_no_hit_dice() -> None:
    """The dataset's "50" (Draconic Spirit) and "0d10 + 5" (the steeds): hit points that grow with the spell,
    not dice; the notes no longer say "HP 50 (50)"."""
    entries = srd_entries()
    for name in ("Draconic Spirit", "Celestial Steed", "Tiny Animated Object"):
        assert "hit_dice" not in entries[name].sheet, name
        assert "HP" not in sheet_notes(entries[name].sheet, entries[name].hp), name


def test_a_sheet_without_the_fields_makes_no_notes() -> None:
    checked = registry.get("dnd5e").check_sheet({"ac": 15})
    assert sheet_notes(checked, 7) == ""
    assert registry.get("dnd5e").sheet_notes({"ac": 15}, 7) == ""


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("cr", "18/2", 'Challenge rating "18/2"'),
        ("cr", "31", 'Challenge rating "31"'),
        ("hit_dice", "lots", "Hit Dice: "),
        ("fly", -10, "Speeds are not negative"),
        ("condition_immune", "charmed, sleepy", '"sleepy" is not a condition'),
    ],
)
def test_a_wrong_stat_block_figure_is_refused_with_what_it_should_be(field: str, value: object, words: str) -> None:
    with pytest.raises(Mistakes) as refused:
        registry.get("dnd5e").check_sheet({field: value})
    assert words in str(refused.value)


def test_the_fields_take_the_gms_words_and_keep_old_sheets_valid() -> None:
    ruleset = registry.get("dnd5e")
    checked = ruleset.check_sheet(
        {
            "cr": "1/4",
            "hit_dice": "2d6",
            "swim": 30,
            "hover": True,
            "condition_immune": "Poisoned и charmed",
            "multiattack": "Two bites.",
            "legendary_actions": "Pounce, Tail Swipe",
        }
    )
    assert (checked["cr"], checked["swim"], checked["legendary_actions"]) == ("1/4", 30, "Pounce, Tail Swipe")
    assert sheet_notes(checked, 7) == (
        "CR 1/4. HP 7 (2d6). Speed swim 30 ft. Condition immunities: poisoned, charmed. "
        "Multiattack: Two bites. Legendary actions: Pounce, Tail Swipe."
    )
    old = ruleset.check_sheet({"ac": 13, "saves": "Dex +2"})  # a sheet written before the fields: their defaults
    assert (old["cr"], old["hit_dice"], old["fly"], old["hover"], old["multiattack"]) == ("", "", 0, False, "")


def test_an_ability_and_its_area_read_as_written_in_english() -> None:
    assert ability_name("Fire Breath") == "Fire Breath"
    assert ability_name("Dominate Mind (2/Day)") == "Dominate Mind (2/Day)"
    assert area_text("line 90x5 ft") == "line 90x5 ft"
    assert area_text("plus 9d6 force, emanation 30 ft") == "plus 9d6 force, emanation 30 ft"
    assert area_text("over the bridge") == "over the bridge"
    assert abilities_text("Fire Breath: 17d6 fire, Dex 21 half, recharge 5-6, cone 60 ft; Teleport: recharge 4-6") == (
        "Fire Breath: 17d6 fire, Dex 21 half damage, recharge 5–6, cone 60 ft; Teleport: recharge 4–6"
    )
    assert abilities_text("not: an ability") == "not: an ability"


def test_every_srd_sheet_makes_its_notes() -> None:
    for entry in srd_entries().values():
        made = sheet_notes(entry.sheet, entry.hp)
        assert made.startswith("CR "), entry.name
        assert ("Multiattack: " in made) == bool(entry.sheet.get("multiattack")), entry.name
