"""D&D 5th edition: four ways to order a fight, the per-turn budget, lair actions, conditions.

Options (``state.options``):

``initiative``
    ``standard`` — a Dexterity check (d20 + Dex modifier + the sheet's other initiative bonuses) once, at
    the start; one roll for a group of identical creatures; the order is kept for the whole fight and a
    newcomer rolls and is placed by his roll. ``static`` — 10 + the same modifier, +5 with advantage, −5
    with disadvantage; no roll. ``side`` — one d20 per side, no modifiers, ties rerolled until broken; a
    side's members act in the order the DM picks (a free slot). ``speed_factor`` — every round each
    creature declares its action, then rolls in secret d20 + Dex modifier + the modifiers of that action
    (data file, each at most once, only the highest spell level, a bonus action's too); the DM counts
    down from 30; ties go to the higher Dexterity, then to a roll-off.
``surprise``
    ``2024`` (the seed) — a surprised creature rolls initiative with disadvantage (static: −5); both d20s
    are in the log, the lower kept. ``2014`` — a surprised creature can neither move nor act on its first
    turn, and takes no reaction until that turn ends.
``side_surprise``
    ``plain`` (the default: the seed's side variant takes no modifiers, so a surprised side rolls its d20 as
    any other) or ``disadvantage`` (a side whose every creature is surprised rolls with disadvantage, 2024).
``lair``
    ``on`` — a lair action slot at initiative count 20, after every creature at 20 (it loses ties); it is
    placed again whenever the order is rebuilt, in every method.
``difficulty``
    ``2014`` (the default) — the fight's difficulty in the set-up: the monsters' XP (their sheets' ``xp``)
    multiplied for their number, one step up for a party of fewer than three and down for six or more, against
    the characters' easy / medium / hard / deadly thresholds by ``level`` (DMG 2014 tables, in the data file:
    the SRD 5.1 does not print them). ``2024`` — the XP added up against the party's low / moderate / high
    budget (SRD 5.2). Only active combatants count: a party side's with a level, the others' with XP.

Ruleset actions (``RulesetAction(name, args)``; a ``roll`` argument is a
:class:`~tui_combat.engine.dice.Roll` or its mapping ``{"expr", "total", "faces", "physical"}``):

``attack`` (``a``), ``attack_advantage`` (``A``), ``attack_disadvantage`` (``D``)
    ``combatant``, ``target``, ``weapon`` (the index of one of the sheet's ``attack_list``, "morningstar +4
    2d8+2, javelin +4 1d6+2", when it has one: its bonus and damage replace ``attack`` and ``damage``),
    ``uses`` (``action``, ``bonus``, ``reaction``, ``none``), ``edge`` (the DM's
    call: ``none``, ``advantage``, ``disadvantage``; the keys A and D start the form with it), ``close``
    (within 5 ft of the target; remembered per attacker and target), ``overrule`` (speed factor: take an
    action that was not declared, logged as ignoring the book), ``to_hit`` (1d20, d20adv or d20dis as the
    sources say: another is refused; typed as the kept die or as both faces), ``damage`` (the sheet's dice),
    ``critical`` (the damage dice again, used only on a critical hit). The sheet's attack bonus against the
    target's AC; a natural 20 hits and is a critical hit, a natural 1 misses; a hit on a paralyzed or
    unconscious target from within 5 ft is a critical hit. Advantage and disadvantage come from the data
    file's conditions (``attacking`` / ``attacked``; prone gives advantage within 5 ft, disadvantage beyond)
    and the DM's call; any number of each cancel to a plain roll. The form shows each target's real chance
    to hit before the roll, and its dice follow the target and the distance chosen. A critical hit's damage
    is asked with the dice doubled (2d8+3 for 1d8+3) and dealt as critical.
``death_save`` (``v``)
    ``combatant``, ``roll`` (1d20): a character of the party at 0 hit points, at the start of his turn.
``use`` (``s``)
    ``combatant``, ``what`` (``action``, ``bonus``, ``reaction``, ``dash``, ``counter:<name>``),
    ``amount`` (of a counter), ``note``.
``move`` (``m``)
    ``combatant``, ``feet``: on his own turn, at most the movement left.
``condition`` (``c``), ``end_condition`` (``C``)
    ``combatant``, ``condition`` (a name from the data file), ``ends`` (``removed``, ``end`` / ``start``
    of ``anchor``'s next turn, ``rounds``: until ``anchor``'s turn starts ``rounds`` rounds later);
    ``end_condition`` takes the condition's id. An unconscious creature falls prone as well (the book's
    "Unconscious"), at 0 hit points or by the condition; waking does not end prone: standing up is the DM's.
``counter`` (``g``)
    ``combatant``, ``name``, ``total``, ``refresh`` (``turn``: at the start of his turn, like legendary
    actions; ``fight``: once, like spell slots). Counters may also be written on the sheet
    (``counters = "legendary actions 3/turn, 1st-level slots 4"``).
``tie`` (``f``)
    ``place1`` … : the entries of the first undecided tie in the order chosen (the last is implied).
``legendary`` (``l``)
    ``combatant``, ``note`` (what it does), ``cost`` (1 unless the action costs more): one of the sheet's
    ``legendary`` actions a round, offered while another creature acts (the log reminds the DM as each other
    creature's turn ends), never in its own turn nor while incapacitated; they come back when its turn starts.
``recharge`` (``k``)
    ``combatant``, ``roll0``, ``roll1`` … (1d6 each): at the start of its turn, one die for each of its spent
    abilities (the sheet's ``abilities`` with "recharge 5-6"); on the range it is ready again.
``temp_hp`` (``p``)
    ``combatant``, ``amount``: temporary hit points; they do not add up (the higher pool stays), 0 takes them away.
``use`` (``s``) also spends an ability that only recharges ("Teleport: recharge 4-6"): ``what`` = ``ability:<name>``.

Saving throws, areas and damage types (:mod:`.saving`, :mod:`.legendary`, the engine's ``SavingThrow`` and
``AreaEffect``): the sheet's ``saves`` ("Str +8, Dex +6", proficiency included; one not written is +0, Dexterity's
the score's modifier) against a DC; paralyzed, petrified, stunned and unconscious fail Strength and Dexterity
saves, restrained has disadvantage on Dexterity saves, dodging advantage, exhaustion 3+ disadvantage on all;
cover +2 / +5 to Dexterity; no automatic success on a 20; ``evasion``; ``legendary_resistance`` a day turns a
failed save into a success on the DM's word. Damage of a type: immunity, then resistance (halved, rounded down,
once however many), then vulnerability (doubled); then temporary hit points, lost first. Concentration: damage
owes a Constitution save (DC 10 or half the damage taken, one per source: ``saves_due``); a failure, falling or
an incapacitating condition ends it and the conditions and effects held by it. The sheet's ``abilities``
("Fire Breath: 17d6 fire, Dex 21 half, recharge 5-6, cone 60 ft") are offered to the area form
(``special_abilities``), start the fight ready and are spent when used.

Budget lines: Action, Attacks (when the Attack action gives more than one), Bonus action, Reaction,
Movement (ft), then each counter. All are refreshed at the start of the creature's own turn (per-fight
counters never are); they live in the fight state, so a reaction spent on another creature's turn stays
spent until the owner's next turn.

Hit points at 0 (SRD 5.1, :mod:`.health`): hit points never go below 0. A monster at 0 is dead (healing
is refused; the DM may put it back with the status key). A character of the party falls unconscious: a
death saving throw is asked at the start of each of his turns (10 or more a success, a natural 1 two
failures, a natural 20 wakes him with 1 hit point); damage at 0 is a failure, a critical hit two; damage
of his maximum hit points or more at 0, or left over after dropping him to 0, kills outright; three
successes make him stable, three failures kill him; healing wakes him and clears the saves. The card shows
the saves as ●●○ / ✕○○, and the players' screen "dying", "stable" or "dead", never a monster's numbers.

What the players read of the log (:mod:`tui_combat.engine.audience`): every line names creatures, groups and
sides by reference, so one hidden from them, or a side of hidden ones only, is in no line of theirs (an
initiative roll or a tie reroll, a surprise, a death saving throw, an attack, a condition lasting until his
turn: they read "Ada is frightened."); a tie is theirs only while they see two of the tied. The keys the DM
presses (" (key v)", " (key f)") are left out of their lines. The AC, the attack bonus, a concentration DC and a
speed factor are behind the screen: unless the DM shows them everything of the rolls they read "Ada hits Orc: a
critical hit.", "Orc is concentrating: a Constitution saving throw, or the spell ends.", "Ada declares a spell
of level 1."; what a monster declared (in secret) stays the DM's when it ignores the book.

Readings settled here (the seed leaves them open):

* Ties of the standard and static methods: the tied creatures share a free slot labelled "…, tie" and
  the log says once who decides (the players between player characters, otherwise the DM); the *tie*
  action records the order in the fight state, and it holds whenever the order is rebuilt (a newcomer, a
  round's start). A newcomer who ties makes it a new tie, offered with the old order first.
* A group of identical creatures rolls (and, with the speed factor, declares) once and acts in one free
  slot; a group only part of which is surprised rolls in two parts.
* Side initiative: the seed's "no modifiers" covers surprise too, so a surprised side rolls its d20 as any
  other; the 2024 disadvantage for a wholly surprised side is the option ``side_surprise``. A newcomer
  joins his side's slot; a new side rolls.
* Speed factor: on its turn a creature takes the action (and bonus action) it declared, or nothing: an
  attack when it declared a spell, Dash when it declared an attack, a bonus action it did not declare are
  refused with the reason; reactions are never declared. The form's "ignore the book" takes it anyway and
  the log says so (as acting out of turn does).
* A character lying at 0 hit points counts as unconscious: no actions, reactions or movement, and attacks
  on him have advantage (a hit from within 5 ft is a critical hit). "Within 5 ft" is asked in the attack form
  and remembered for the next attack by the same attacker on the same target (at first: within 5 ft). Frightened
  gives disadvantage whatever its source: the DM unticks it by ending the condition when the source is out of sight.
* Static initiative includes the sheet's other initiative bonuses (it is 10 + the initiative modifier).
* The speed-factor countdown labels a value above 30 as 30 (the DM's count starts there); a weapon not in
  the data file's table (a claw) gives no weapon modifier. Changing the method (``O``) takes effect when
  the next round starts: its order is rolled (or computed) then.
* Conditions: "until the end of X's next turn" ends when X's turn ends, counting only a turn that starts
  after the condition was given; "N rounds" ends when X's turn starts N rounds later. A duration whose
  creature leaves the fight, or whose count passes without his turn, ends at the start of the next round.
  Incapacitating conditions take away actions and reactions; grappled, restrained, paralysed, petrified,
  stunned and unconscious creatures have no movement. "Concentrating" and "dodging" are kept as conditions too
  (not the book's): damage to a concentrating creature owes the saving throw (DC 10 or half the damage); a
  dodging one has advantage on Dexterity saves and attacks against it disadvantage (the DM ends it at the start of
  its next turn with the duration).

The package: :mod:`.data` (the data file), :mod:`.sheet`, :mod:`.kinds` (saves and damage types),
:mod:`.abilities` (special abilities on the sheet), :mod:`.state` (what the round and the fight keep), :mod:`.base`
(options, steps, helpers), :mod:`.initiative` (the four methods, ties, newcomers, lair, declarations),
:mod:`.turns` (budgets, lost turns, conditions ending), :mod:`.health` (0 hit points, death saving throws),
:mod:`.edge` (advantage, automatic critical hits), :mod:`.actions` (the keys), :mod:`.saving` (saving throws,
damage types, temporary hit points, concentration), :mod:`.legendary` (legendary actions, recharge, their keys),
:mod:`.view` (details), :mod:`.difficulty` (the fight's difficulty in the set-up).
"""

from __future__ import annotations

from tui_combat.engine.model import State
from tui_combat.rulesets.dnd5e.attack_dice import critical_dice, critical_roll, hit_chance
from tui_combat.rulesets.dnd5e.data import Dnd5eData, data
from tui_combat.rulesets.dnd5e.difficulty import difficulty_line
from tui_combat.rulesets.dnd5e.initiative import speed_parts
from tui_combat.rulesets.dnd5e.sheet import Counter, Sheet, parse_counters
from tui_combat.rulesets.dnd5e.state import ActiveCondition, Declaration, DndFight, DndRound, Entry, Spent
from tui_combat.rulesets.dnd5e.view import Dnd5eView

__all__ = [
    "RULESET",
    "ActiveCondition",
    "Counter",
    "Declaration",
    "Dnd5e",
    "Dnd5eData",
    "DndFight",
    "DndRound",
    "Entry",
    "Sheet",
    "Spent",
    "critical_dice",
    "critical_roll",
    "data",
    "hit_chance",
    "parse_counters",
    "speed_parts",
]


class Dnd5e(Dnd5eView):
    """D&D 5e as a :class:`~tui_combat.engine.contract.Ruleset` ``[DndRound, DndFight]``, built up module by
    module (base → initiative → turns → actions → view)."""

    def difficulty(self, state: State) -> str | None:
        return difficulty_line(state)


RULESET = Dnd5e()
