"""AD&D 2nd edition: the combat round of the Player's Handbook.

Round: the DM decides monsters' actions in secret → players declare → initiative → resolve in
initiative order → end of round. Initiative methods (option ``initiative``):

* ``standard`` — one 1d10 per side; Table 55 applies to those it concerns, as the text after the table
  says: a situation ticked for the whole side (``m``) to everyone of it, one ticked in a declaration to
  him alone (the archer on the hill); lowest first; equal results act simultaneously (one slot).
* ``group`` — one 1d10 per side; each combatant adds his own Table 55 situations and the Table 56
  modifier of his declared action (weapon speed, casting time, natural weapons by size, magic items).
* ``individual`` — every combatant rolls, every monster too, and adds the same modifiers as ``group``.
* ``individual_groups`` — the same, but a group of like monsters ("5 orc") shares one roll.

Readings settled here (the book leaves them to the DM):

* Attack forms strike together in the combatant's slot (claw/claw/bite; both weapons of a two-weapon
  fighter); the same weapon used again (3/2 in even rounds by default, 2/1, a specialist's extra half
  attack, haste) comes after every first attack, in the same order, as its own slots labelled "2nd",
  "3rd" …; a repeated attack is refused until the order reaches its slot. Haste repeats everything he
  strikes with; class and level repeat the main weapon. A two-weapon fighter's speed is his slower weapon's.
* Attacks per round come from class and level (the data file's table) unless the sheet gives a rate.
* Hit Dice with pluses: +3 or more hit points count as one more die (6+6 → 7); a minus is less than a
  full die (1-1 → the "up to 1-1" row).
* The weapon's magical bonus lowers its speed and adds to the attack roll; an unknown weapon without a
  speed of its own is refused with the nearest names.
* Weapon type vs armour type (option ``weapon_vs_armour``): the armour's modifier for the weapon's type
  is added to the number needed; a weapon of several types uses the one best for the attacker.
* A declaration is what it says: a spell only when casting, a magic item only when using one; Table 55
  situations are ticked, not typed.
* A spell with a casting time of one round or more needs no initiative: its caster gets a slot "end of
  round" after every other action, and the spell takes effect at the end step. One of several rounds
  (or turns, 10 rounds each) carries on from round to round, counting down, and is lost to any hit
  before its last round is over; a new declaration by the caster abandons it. A monster's or NPC's such
  spell was declared in secret: the lines of its casting and of its taking effect are the DM's (he tells
  the players what they see of it).
* A caster hit before his slot comes up loses the spell; a hit in the *same* slot is simultaneous and
  does not disrupt it (the seed's round 3: the troll at 7 disrupts Delsenora at 10).
* Hasted casters get no haste modifier in the round they cast (seed, round 3).
* Surprise is rolled per side; the surprised side's combatants are left out of the order of round 1
  (the free round) and are no longer surprised from round 2 on. The encounter distance follows the
  result: both sides surprised, one side, or (nobody) the terrain.
* One main action a round: his attacks (however many forms or repeated attacks) are one, a spell, an
  item or anything else (``c``) another; a second is refused with the reason. Ticking "ignore the book"
  in the form allows it, and the log says so (as it says an action out of turn).
* Surprise, whole (DM's Guide): in the free round the surprising side may fight, shoot and use magic
  items, but not cast (a spell declared is refused); attacks on the surprised get +1, and their AC loses
  the Dex bonus the sheet's ``dex_ac`` says is in it (a penalty stays; an AC the GM types is taken as it
  is). Both sides surprised: none of it.
* Death (option ``death``): at 0 hit points dead, and hit points stop at 0; or the DM's Guide's optional
  rule for the party's characters (monsters still die at 0): unconscious at 0 to −9, losing 1 HP at
  every end of round until his wounds are bound (``w``, offered in his footer while he is dying, in place
  of his attack and main action) or he is healed, dead at −10. The card and the players' screen say
  "dying", "unconscious" (bound) or "dead"; the log says "X is dead." as the blow falls, "X is bleeding"
  as a character falls under the option, and "X is dead at −10." as the loss or a blow takes him there.
* Damage against a large, huge or gargantuan target: the weapon's large column of PHB Table 44 (data
  file, ``weapon_damage``); a constant the sheet adds to the table's small/medium dice is kept, a sheet
  with other dice is the GM's own figure for every size; natural attack forms have one figure.
* Effects with a duration (``f``) count down at every end of round, in rounds or turns; every tenth
  round the log says a turn has passed.
* Saving throws (PHB Table 60, :mod:`.saves`): by class group and level, a multi-class character the best
  of each column, a monster as a warrior of a level equal to its Hit Dice, each four points of pluses (or
  fraction) one level more as the DM's Guide counts them for saves (not the THAC0 table's +3), less than one
  full die at warrior 0; a monster's own numbers replace the table; the GM's bonus is added to the d20.
* A monster added from an entry without hit points has them rolled from its Hit Dice, d8 each with the
  pluses (``hit_point_dice``).

What the ruleset tracks during a round lives in :class:`AdndRound` (``State.round_state``); what carries
from round to round (spells being cast, effects) in :class:`AdndFight` (``State.fight_state``). The
tables come from ``data/adnd2e.toml`` with the GM's house rules laid over them (:func:`tables`).

The package: :mod:`.data` (the data file), :mod:`.sheet` (a combatant's sheet, THAC0, attacks),
:mod:`.state` (what the round and fight keep), :mod:`.family` (what AD&D 2e and Player's Option share),
:mod:`.ruleset` (AD&D 2e's own round).
"""

from __future__ import annotations

from tui_combat.rulesets.adnd2e.data import Tables, tables
from tui_combat.rulesets.adnd2e.family import AdndFamily
from tui_combat.rulesets.adnd2e.ruleset import ACTIONS, ITEMS, ADnD2e, check_situations, situation_ids
from tui_combat.rulesets.adnd2e.sheet import (
    CLASSES,
    SIZES,
    Sheet,
    attack_plan,
    attack_rate,
    attacks_this_round,
    hit_dice,
    sheet_of,
    thac0,
    weapon_speed,
)
from tui_combat.rulesets.adnd2e.state import (
    AdndFight,
    AdndRound,
    Casting,
    Declaration,
    Effect,
    Spent,
    casting_modifier,
    casting_rounds,
    parse_spells,
)

__all__ = [
    "ACTIONS",
    "CLASSES",
    "ITEMS",
    "RULESET",
    "SIZES",
    "ADnD2e",
    "AdndFamily",
    "AdndFight",
    "AdndRound",
    "Casting",
    "Declaration",
    "Effect",
    "Sheet",
    "Spent",
    "Tables",
    "attack_plan",
    "attack_rate",
    "attacks_this_round",
    "casting_modifier",
    "casting_rounds",
    "check_situations",
    "hit_dice",
    "parse_spells",
    "sheet_of",
    "situation_ids",
    "tables",
    "thac0",
    "weapon_speed",
]

RULESET = ADnD2e()
