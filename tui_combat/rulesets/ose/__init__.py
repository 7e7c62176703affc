"""Old-School Essentials / Dolmenwood: side initiative walked phase by phase, disruption, morale.

A round (the Dolmenwood combat chapter): **declarations** (a spell, a fairy rune, fleeing from melee —
before initiative, by everyone) → **initiative** (1d6 per side, highest first) → **the sides act** in
initiative order, each through its phases: movement (not those casting), missiles, magic, melee →
**morale** (the referee checks it for monsters and NPCs where a trigger called for it). The monsters'
morale is the referee's: the trigger's line ("Morale check due …"), the reminder of a check still due and
the end of their checks are his alone; the roll against the score is a roll line whose score stays behind the
screen (the players read "Goblins: the nerve holds.", and the roll only when the GM shows them every roll).

Options (``State.options``):

* ``rules`` — ``dolmenwood`` (the seed: fairy runes can be declared; morale is the round's last step)
  or ``ose`` (Old-School Essentials: spells only; a morale phase opens each side's turn).
* ``ties`` — ``reroll`` (tied sides roll again, until one wins) or ``simultaneous`` (tied sides act
  together, phase by phase).
* ``initiative`` — ``side`` or ``individual`` (1d6 + the Dexterity modifier per combatant or group).
* ``slow_weapons`` — ``on``: whoever attacks with a slow weapon does so in a last slot of the round.
* ``tied_disruption`` — with simultaneous ties, what a hit in the tied sides' shared turn does to a declared
  spell or rune: ``simultaneous`` (the seed: a spell fails when its caster *loses* initiative and is hurt;
  a tie loses it for nobody, so nothing in the shared turn disrupts) or ``phases`` (the phases keep their
  order inside the shared turn: a missile hit before the magic phase disrupts).

The order is one **free slot per phase of each turn** ("Party · movement", "Party · missiles" …):
the cursor walks the winner's phases, then the next side's. Who is in a phase follows the
declarations: casters are not in the movement phase (they cannot move the round they cast) and do
not attack; those fleeing melee only move.

Ruleset actions (``RulesetAction(name, args)``; ``combatant`` is the selected combatant):

``move`` (``g``)
    In his movement phase. Fleeing: the log says his opponents get +2 and ignore his shield.
``attack`` (``a``)
    In his missile or melee phase (or the slow-weapons slot): ``target``, ``to_hit`` (1d20 roll),
    ``damage`` (roll of the sheet's damage), ``modifier``; missile: ``range`` (short +1, medium 0,
    long −1); melee: ``behind`` (the shield does not count). A melee attack on someone fleeing melee
    gets +2 and ignores his shield. Hits when d20 + bonuses ≥ AC (ascending), then the engine's
    ``Damage`` is applied.
``cast`` (``c``)
    In his magic phase, the declared spell or rune; refused once disrupted.
``failed_save`` (``s``)
    He failed a saving throw: like a hit, it disrupts a declared spell or rune.
``wait`` (``w``)
    ``turn``: a side (a turn) not yet started gives up its place and acts after the others.
``morale`` (``m``)
    ``modifier`` (−2 … +2, each choice showing the chance of breaking), ``whole_side`` (one check for
    every member who checks; else the selected one only), ``roll`` (2d6). Breaks when the roll is
    higher than the selected combatant's morale score plus the modifier.

Rules applied as the GM records what happens:

* **Disruption**: a declared caster who takes damage (``on_damage``) or fails a save before his side's
  magic phase loses the spell (a rune is used up); a hit in the magic phase itself is simultaneous.
* **Morale triggers** (kept in the fight state, each once per fight, logged and shown in the details):
  a side's first death and half the side out (``on_status``); a lone creature's first damage and its
  HP at a quarter or less (``on_damage``). No prompt when nobody on the side would check: morale 12
  never checks, two passed checks end the checks, player characters (morale 0) decide for themselves.
  A broken side is reminded at the next round's start to flee or surrender.
* **Surprise**: 1d6 per side, surprised on 1–2; the surprised lose round 1. **Distance**: dungeon
  2d6 × 10 ft, wilderness 4d6 × 10 yards, 1d4 × 10 yards when a side is surprised (only that wilderness
  row is offered then, only the 4d6 one otherwise).
* **Death**: a creature at 0 hit points is dead; hit points never go below 0, and healing does not bring
  the dead back (the card and the players' screen say "dead").
* **Saving throws** (:mod:`.saves`): D W P B S (Dolmenwood's Doom, Ray, Hold, Blast, Spell), from the sheet's
  own SV line, its "save as" (F1, NH), its class and level, or a monster's Hit Dice (as a fighter); a failed
  save disrupts a declared spell or rune as a hit does. A monster added from an entry without hit points has
  them rolled from its Hit Dice.

Readings chosen where the rules leave room:

* "Before his side's initiative" (the seed) is read as before his side's magic phase; a hit during
  the declarations or initiative counts as before.
* A disrupted caster has still used his round: he neither moves nor acts.
* Fleeing melee: the fleer turns to run when he declares it (the seed: "opponents who won initiative may
  attack the fleer with a bonus"). Melee attacks on him before he has moved (his opponents won
  initiative), or in a turn tied sides share with him, get +2 and ignore his shield; once he has run in a
  turn of his side that came before his opponents', he is gone: a melee attack on him is refused. Missiles
  are never affected.
* A side's morale check uses the selected combatant's score (the leader's) for everyone on the side
  who checks; the check answers every open trigger of that side.
* A lone creature is a side of one; the first-death and half-the-side triggers are for larger sides.
* "Half the side out" counts the down, fled and surrendered against every member the side ever had.
* A newcomer during a round joins his side's turn; with individual initiative, or when his side has
  no turn this round, he acts from the next round.

The package: :mod:`.data` (the data file), :mod:`.state` (what the round and fight keep), :mod:`.base`
(options, steps, sheets, declarations, surprise), :mod:`.order` (initiative and the phase slots),
:mod:`.morale`, :mod:`.saves` (the saving throws), :mod:`.actions` (the catalogue and the hooks), :mod:`.view`
(budget and details).
"""

from __future__ import annotations

from tui_combat.rulesets.ose.data import OseData, dex_modifier, tables
from tui_combat.rulesets.ose.morale import breaking_chance, chance_text
from tui_combat.rulesets.ose.state import Declaration, MoralePrompt, OseFight, OseRound, Sheet, Spent, Turn
from tui_combat.rulesets.ose.view import OseView

__all__ = [
    "RULESET",
    "Declaration",
    "MoralePrompt",
    "Ose",
    "OseData",
    "OseFight",
    "OseRound",
    "Sheet",
    "Spent",
    "Turn",
    "breaking_chance",
    "chance_text",
    "dex_modifier",
    "tables",
]


class Ose(OseView):
    """Old-School Essentials / Dolmenwood as a :class:`~tui_combat.engine.contract.Ruleset`
    ``[OseRound, OseFight]``, built up module by module (base → order → morale → actions → view)."""


RULESET = Ose()
