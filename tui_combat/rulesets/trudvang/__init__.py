"""Trudvang Chronicles: the initiative countdown and the combat-point budget.

A round: **choose actions** (each combatant declares what he will use: weapon, off-hand weapon, shield,
spell IM) → **initiative** (one open-ended 1d10 per combatant or NPC group, plus the IMs of that choice)
→ **countdown** (the GM calls 20, 15, 10, 9 … 1, "≤0"; everyone whose initiative has been reached acts,
higher initiative first) → **end of round** (combat points refresh when the next round starts).
A foe's figures stay behind the GM's screen: his attack and defence lines are roll lines (the players read
who hits whom and whether a parry, a dodge or a break-free works), and his IMs and initiative on a change of
action ("IM −4 → +0"), his armour's PV and BV, the Body Points he lost and his damage level's penalty are
shown to the players only when the GM shows them every roll ("Ulf loses Body Points, injured. Chain mail takes
part of the blow."); the party's own figures are the players'.

Ruleset actions (``RulesetAction(name, args)``; ``roll`` is a :class:`~tui_combat.engine.dice.Roll` or its
dict ``{"expr", "total", "faces", "physical"}``, as a form's ``roll`` field gives it; ``modifier`` is an
optional situational ± the GM adds):

``attack``
    ``combatant``, ``target``, ``cp``, ``weapon`` (a weapon on the sheet, ``"shield"`` or ``"unarmed"``;
    empty = the declared weapon), ``roll`` (1d20), ``hand`` (``"main"``/``"off"``; empty = off hand for the
    declared off-hand weapon and the shield), ``modifier``. Only on the attacker's own turn. SV = CP spent
    ± modifiers; 1 = critical hit, 20 = fumble, otherwise ≤ SV hits. Spends the CP (locked pools first,
    then general) and one weapon action of the weapon or shield; unarmed: one of the 4 unarmed attacks.
``parry``
    ``combatant``, ``cp``, ``weapon`` (weapon, ``"shield"`` or ``"unarmed"``), ``roll``, ``attack`` (the id
    logged with the attack; default: the last hit on him not yet defended), ``hand``, ``modifier``.
    Out of turn. One parry or dodge per attack, only against a hit, never against a ranged attack; a
    ranged weapon parries with general CP only.
``dodge``
    ``combatant``, ``cp``, ``roll``, ``attack``, ``modifier``. Like a parry but with general CP only, no
    weapon action, and it works against ranged attacks too.
``grapple``
    ``combatant``, ``target``, ``sv`` (or ``cp``, a multiple of 2), ``hand`` (``"both"``, ``"weapon"``,
    ``"shield"``), ``roll``, ``modifier``. 2 CP per SV, SV bought at most the Wrestling SV; + Strength;
    weapon hand −5, shield hand −10 (+1 per Ambidexter level). One per round; an unarmed attack.
``break_free``
    ``combatant``, ``sv`` (or ``cp``, a multiple of 3), ``roll``, ``modifier``. 3 CP per SV, no cap;
    + Strength + Agility. At his call, or as a reaction once his call has passed. One per round.
``glima``
    ``combatant``, ``target`` (whom he holds), ``sv``/``cp`` (2 per SV, capped by Wrestling), ``hand``,
    ``roll``, ``drop`` (``true``: he drops onto the opponent, 1d6 and the hold stays; else 1d4 and the
    opponent is released), ``modifier``. One per round; an unarmed attack.
``glima_defence``
    ``combatant``, ``sv``/``cp`` (3 per SV, capped by Wrestling), ``roll``, ``attack``, ``modifier``;
    + the better of Strength and Agility. Stops the throw only. One per round.
``hold``
    ``combatant``. Only at his own call, before acting: he leaves the order and may act later.
``act_held``
    ``combatant`` and/or ``combatants`` (a list, or names/ids separated by commas), ``together`` (more
    held combatants acting at the same moment, comma-separated), ``tiebreak`` (id or name → 1d10, or the
    text "Fridgar 7, Ulf 3"; needed only between held combatants of equal Combat SV), ``after``
    (``true``: after the current slot instead of before it). Highest Combat SV first. Every action of
    that turn gets −5.
``skip``
    ``combatant``. Gives up his turn (before or at his call, not after acting): out of the order, parries
    still allowed, +5 on his initiative roll next round (kept in the fight state).
``change_action``
    ``combatant``, ``declaration`` (as ``Declare``: ``weapon``, ``offhand``, ``shield``, ``spell_im``,
    ``other_im``), or those keys flat beside ``combatant``. Before the countdown it is a declaration
    (after a roll it also re-sorts the order); during it, only before his call: the new IMs apply to
    the same roll and the order is rebuilt.
``release``
    ``combatant``: the GM frees a grappled combatant.

The catalogue (``actions``; keys checked against the app's own when the ruleset is loaded): change
action ``c``, skip ``k``, attack ``a``, parry ``p``, dodge ``o``, grapple ``g``, break free ``f``, Glima
``w``, Glima defence ``v``, hold ``l``, act held ``j``, release ``z``. Before the countdown only change
of action and skip apply (``action_available``); during it every action does, and refuses with its
reason when it does not fit the combatant. ``action_fields`` gives each action's form; its ``roll``
field is the d20 (rolled by the app, or typed from real dice).

Budget lines (``budget``): one per CP pool — "CP" (general), "CP any weapon", "CP <weapon>",
"CP <group>", "CP ranged", "CP unarmed", "CP brawling", "CP wrestling" — then "<weapon> actions" for each
weapon and the shield, then "Unarmed attacks".

What the state holds (typed Structs, :mod:`.state`): ``State.round_state`` is a :class:`RoundInfo` —
the declarations, the budgets touched this round (cid → CP pools, weapon actions, unarmed attacks as
``left``/``total`` meters), the turns (held / skipped / acted and the once-a-round counters), the IMs
on each initiative roll (the rolls themselves, faces included, are the engine's
``State.initiative.rolls``), every attack of the round (whether it was defended, with what, and whether
its damage has been dealt) and the damage levels' initiative penalties; ``State.fight_state`` is a
:class:`Carry` — the bonus for a skipped turn, who holds whom in a grapple, and the Breach Value of each
worn armour, shield or weapon. Every log entry is data (a message id
with its parameters) with facts for what a reader needs without parsing text: ``cp``, ``sv``,
``sv_bought``, ``needed`` (the d20 must show at most this), ``roll``, ``result`` (critical, success,
failure, fumble), ``hit`` / ``saved`` / ``free``, ``attack`` (the attack's id), ``bonus``;
a damage: ``body_damage``, ``absorbed``, ``item_damage``, ``level`` (−1 unhurt, 0 lightly damaged … 4 dying).

The package: :mod:`.data` (the data file and house rules), :mod:`.sheet` (a combatant's sheet),
:mod:`.budget` (CP pools and spending), :mod:`.state` (what the round and fight keep), :mod:`.base`
(declarations, IMs, the round's shape, shared checks), :mod:`.countdown` (initiative and the order),
:mod:`.turns` (hold, skip, change of action), :mod:`.actions` (the attack and defence pipelines, the
catalogue), :mod:`.health` (damage through armour and parries, wear, Body Points and damage levels),
:mod:`.view` (budget lines, details, forms).

Readings chosen where the rules leave room:

* The seed's text wins over the digest: Fridgar starts with Combat SV 6 and reaches 9 later; the
  numbers checked here are the later ones (9 → 14 / 10 / 9, then unarmed 12).
* Success is a roll ≤ SV, as the seed's text says ("ниже или равно"); its result table prints "<ЗН".
* The Glima defence adds the better of the Strength and Agility modifiers (the seed: "Strength or
  Agility"); the digest mentions neither.
* Wrestling gives 2 CP per level (locked to wrestling) and a Wrestling SV of its own that caps the SV
  bought; the seed names both but gives no CP figure. Weapon groups, hands and "light" are defaults.
* The countdown calls are 20 (20 and up), 15 (15–19), 10 (10–14), then 9 … 1, then "≤0". Each distinct
  initiative value is its own slot (equal values act together); two slots at one call show the
  initiative beside it when it is not the call itself ("15 (17)", "15 (16)"; "≤0", "≤0 (-2)").
* An undeclared combatant uses his first weapon (or unarmed) and his shield if he has one.
* An NPC group rolls once and uses the initiative modifier of its first active member; changing the
  action of one member changes it for the whole group (they act together). A member who skipped his
  turn keeps his +5: he gets the group's roll plus his bonus and so acts apart, earlier, in his own
  slot (the group's roll carries no one member's bonus).
* Surprise: a surprised combatant still acts in round 1, with −5 on every combat action (attack, parry,
  dodge, grapple, break free, Glima, Glima defence) but not on his initiative roll. The seed has no
  surprise roll: ``surprise_dice`` is empty and the GM marks who is surprised (whole sides or single
  combatants). Encounter distance: one situation, "as the GM describes".
* Skipping may be chosen before the countdown too (the skipper needs no initiative roll).
* Holding: −5 on every action of the held turn (not on parries or dodges made while waiting). A held
  combatant acts in a slot inserted before the current one (``after`` puts it after). Skipping is
  allowed to a held combatant who has not acted yet.
* Changing the action to one that would have come up already: he acts right after the current slot
  (or in it, when his new value equals the current one).
* A parry with a weapon or shield whose IM was not counted: before his call the item is added to his
  declaration and the order rebuilt; after his call it is refused (he could not save CP for it).
* Attacking with a weapon or shield that was not declared is refused: change the action first.
* Locks: ``general``, ``any_weapon`` (weapons and shields), ``weapon:<name>``, ``group:<group>``
  (shields are the group ``shield``), ``ranged``, ``unarmed`` (every unarmed action), plus two the seed
  calls for: ``brawl`` (unarmed strikes and parries — Brawler, because the seed names Combat SV, Unarmed
  combat and Wrestling as the only sources of grapple CP) and ``wrestling`` (grapple, break free, Glima).
* Spending draws the most specific pool first: weapon, group, ranged, any weapon, general; unarmed:
  brawl, unarmed, general; wrestling: wrestling, unarmed, general. A dodge uses general CP only; a
  ranged weapon parries with general CP only (the seed: "only general CP").
* Grapple, break free, Glima and Glima defence are bought by SV (``sv``), or by ``cp`` that must be a
  whole multiple of the rate. The Wrestling cap is on the SV bought, before modifiers. A Wrestling SV
  of 0 means he cannot grapple, throw or defend a throw. One grapple and one break-free attempt per
  round each (the seed's sentence can be read either way). Break free needs no weapon action.
* Grapple and Glima take effect at once and are undone by a successful parry/dodge (grapple) or Glima
  defence. Hands in use are not tracked: the GM picks the hand.
* Off hand: −15, each Body control level +3 and each Ambidexter level +3 (defaults, the seed gives no
  figure), never above 0; Shield bearer 1 removes it for the shield. The shield always counts as the
  off hand; so does the declared off-hand weapon unless ``hand`` says otherwise.
* An unarmed parry is not a weapon action and has no limit but CP; unarmed attacks (strikes, grapples,
  Glima) are at most 4 a round.
* Experienced gives general CP; Body control, Ambidexter, Shield bearer, Experienced and Combat reaction
  written in the discipline/specialty lists go to their own sheet fields. A discipline written among the
  specialties (or the other way round) is accepted where it belongs.
* Attack ids, shown to the GM ("#1"), count from 1 in each round.
* The attack, parry and dodge forms offer the CP of his last action of that kind in the fight (at most
  what is left), or else an even share of the CP left for the item over its weapon actions left (all of
  it for a dodge or an unarmed parry): the chance shows as the form opens.

Damage, armour and Body Points (not in the seed: the GMG's figures as gaps.md gives them, in the data file
with their source; the seed wins where it speaks):

* A hit asks for its damage at once, filled in: the weapon's 1d10 open-ended from its OR (one-handed light
  10, one-handed heavy 9, two-handed 8: ``1d10!9``) + the Strength modifier in melee, never for bows and
  crossbows; a fist 1d6 + Strength; a Glima 1d4 / 1d6 (the seed's figures, not the GMG's 1d3 / 1d5); a
  shield's blow asks the GM. A weapon's ``damage`` in the data or on the sheet replaces the open d10 (+
  Strength still added in melee). Typed, the dice may be given one by one ("8 5"); a total an open die
  cannot give (exactly 10 on ``1d10!``) is refused. A hunting bow (``half_at_long_range`` in the data) shot
  at long range (the attack form's box, offered for a ranged weapon) deals half of it, rounded down, before the
  armour's PV.
* Which hit a Damage belongs to: the last hit on that combatant this round not yet dealt, not dodged and
  not stopped; none: it is plain damage, through the armour all the same (the PV is absorbed "from every
  hit"). Once a hit's damage is dealt it can no longer be parried or dodged.
* Armour absorbs its PV; what gets through wears its BV, by the option ``wear``: "excess" (the revised GMG,
  the default: BV loses what got through) or "one" (BV loses 1 a hit that gets through); PV = ⌈BV / 10⌉
  once worn. Wear lasts the whole fight (``Carry.wear``); no hit locations, one armour per combatant.
* A successful parry with a weapon or a shield asks for the damage again and puts it on that item: its
  BV is worn by what is above its PV, by the same option (the seed's "quality −1" when the damage exceeds
  its durability is the "one" reading); the bearer's body takes nothing. A weapon's PV/BV never protect
  its wielder's body.
* An unarmed parry of an armed attack halves the damage (rounded down; the seed: after every bonus
  added to the damage), then the armour absorbs its PV. An unarmed parry of an unarmed attack stops it.
* Body Points are the combatant's HP. A sheet with a race gives them as the race's base + Constitution +
  Strength (``starting_hp``: human 32, elf 30, dwarf 29, ogro 38), whatever HP was typed; no race: the HP
  typed. Changing the race later does not change the BP.
* Damage levels by the BP lost: up to ¼ of the maximum lightly damaged (0), up to ½ injured (−1), up to ¾
  seriously injured (−3), more critically injured (−7), BP ≤ 0 dying (−7); the word is the card's "Damage
  level" and the players' screen's word. The penalty applies at once to every combat action (attack,
  parry, dodge, grapple, break free, Glima and its defence) and to the initiative of the rounds that
  follow, by the level the combatant had as the round began (a change of action in the round keeps it).
* Dying (BP ≤ 0) puts him out of the fight (status "down"); BP go on below 0; healing above 0 brings him
  back.
"""

from __future__ import annotations

from tui_combat.rulesets.trudvang.budget import Budget, Meter, cp_available, cp_pools, fresh_budget, usable_pools
from tui_combat.rulesets.trudvang.data import TrudvangData, default_data, load_data
from tui_combat.rulesets.trudvang.sheet import TrudvangSheet, sheet_from_fields
from tui_combat.rulesets.trudvang.state import AttackRecord, Bonus, Carry, Declaration, RoundInfo, Turn
from tui_combat.rulesets.trudvang.view import TrudvangView

__all__ = [
    "RULESET",
    "AttackRecord",
    "Bonus",
    "Budget",
    "Carry",
    "Declaration",
    "Meter",
    "RoundInfo",
    "Trudvang",
    "TrudvangData",
    "TrudvangSheet",
    "Turn",
    "cp_available",
    "cp_pools",
    "default_data",
    "fresh_budget",
    "load_data",
    "sheet_from_fields",
    "usable_pools",
]


class Trudvang(TrudvangView):
    """Trudvang Chronicles as a :class:`~tui_combat.engine.contract.Ruleset` ``[RoundInfo, Carry]``:
    built up module by module (base → countdown → turns → actions → health → view)."""


RULESET = Trudvang()
