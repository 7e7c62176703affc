"""D&D 5e legendary creatures over two rounds, with the SRD 5.2 Adult Red Dragon: saving throws Str +8, Dex +6,
Con +7, Int +3, Wis +7, Cha +6; immune to fire; Legendary Resistance (3/Day); three legendary actions a round;
Fire Breath (Recharge 5–6): Dexterity save DC 21, each creature in a 60-foot cone, 59 (17d6) fire damage, half on
a success. The breath is one area with each target's save, it is spent and rolled for at the start of the
dragon's turn; Legendary Resistance turns failed saves into successes three times; legendary actions are taken
at the end of other creatures' turns, never its own, never while paralyzed, and come back when its turn
starts."""

from __future__ import annotations

import pytest

from tests.common import ids, typed
from tests.rulesets.dnd5e_fight import Member, act, budget, d20, fight, play, texts
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.audience import players_line
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import render
from tui_combat.engine.model import State
from tui_combat.fight.store import Store
from tui_combat.rulesets.dnd5e import RULESET

DRAGON: Member = (
    "Adult Red Dragon",
    256,
    {
        "dex": 10,
        "ac": 19,
        "attack": 14,
        "damage": "1d10+8",
        "attacks": 3,
        "size": "huge",
        "xp": 18000,
        "saves": "Str +8, Dex +6, Con +7, Int +3, Wis +7, Cha +6",
        "immune": "fire",
        "legendary_resistance": 3,
        "legendary": 3,
        "abilities": "Fire Breath: 17d6 fire, Dex 21 half, recharge 5-6, cone 60 ft",
    },
)  # SRD 5.2
PARTY: list[Member] = [
    ("Raf", 45, {"dex": 18, "saves": "Dex +7, Int +4", "evasion": True}),
    ("Ada", 80, {"dex": 12, "saves": "Str +7, Con +6"}),
    ("Bram", 40, {"dex": 14, "saves": "Int +7, Wis +4"}),
]


def dragon_fight() -> State:
    """Round 1: the dragon (20), Raf (15 + 4), Ada (10 + 1), Bram (5 + 2); the dragon's turn has started."""
    state = play(fight({"Party": PARTY, "Dragon": [DRAGON]}), a.StartFight())
    who = ids(state)
    return apply(
        state,
        a.RollInitiative(
            rolls={who["Adult Red Dragon"]: d20(20), who["Raf"]: d20(15), who["Ada"]: d20(10), who["Bram"]: d20(5)}
        ),
    )


def breath(state: State, faces: dict[str, int]) -> a.AreaEffect:
    named = ids(state)
    ability = next(ability for ability in RULESET.special_abilities(state, named["Adult Red Dragon"]))
    return a.AreaEffect(
        name=ability.name,
        source=named["Adult Red Dragon"],
        ability=ability.name,
        damage=typed(ability.damage, 59),
        kind=ability.kind,
        save=ability.save,
        dc=ability.dc,
        on_save=ability.on_save,
        targets=tuple(a.AreaTarget(combatant=named[name], roll=d20(face)) for name, face in faces.items()),
    )


def next_turn(state: State) -> State:
    return apply(state, a.NextStep())


def test_the_breath_is_one_key_away_with_the_books_figures() -> None:
    state = dragon_fight()
    (ability,) = RULESET.special_abilities(state, ids(state)["Adult Red Dragon"])
    assert (ability.name, ability.damage, ability.kind, ability.save, ability.dc, ability.on_save, ability.ready) == (
        "Fire Breath",
        "17d6",
        "fire",
        "dex",
        21,
        "half",
        True,
    )
    assert render(ability.note) == "recharge 5–6: ready, cone 60 ft"


def test_the_dragons_breath_each_save_and_its_recharge() -> None:
    state = dragon_fight()
    dragon = ids(state)["Adult Red Dragon"]
    state = apply(state, breath(state, {"Raf": 15, "Ada": 8, "Bram": 19}))
    assert texts(state)[-5:] == [
        "Adult Red Dragon's Fire Breath: 59 damage (fire) (17d6 "
        "(typed): 59); Dexterity save against DC 21, half damage "
        "on a success.",
        "Raf: Dexterity save: 1d20 (typed): 15, +7 → 22 against DC 21: saved; 0 damage (fire): 45/45 HP.",  # Evasion
        "Ada: Dexterity save: 1d20 (typed): 8, +1 → 9 against DC 21: failed; 59 damage (fire): 21/80 HP.",
        "Bram: Dexterity save: 1d20 (typed): 19, +2 → 21 against DC 21: saved; 29 damage (fire): 11/40 HP.",
        "Adult Red Dragon's Fire Breath is spent: it recharges on 5–6 at the start of its turn.",
    ]
    read = [players_line(entry) for entry in state.log_entries()[-5:]]
    assert [render(line) for line in read if line is not None] == [
        "Adult Red Dragon's Fire Breath: 59 damage (fire); Dexterity save, half damage on a success.",
        "Raf saves: no damage.",
        "Ada fails the save: 59 damage: 21/80 HP.",
        "Bram saves: 29 damage: 11/40 HP.",
    ]
    (ability,) = RULESET.special_abilities(state, dragon)
    assert not ability.ready and render(ability.note) == "recharge 5–6: not ready, cone 60 ft"
    with pytest.raises(
        RuleError, match="Fire Breath is not ready: it recharges on 5–6 at the start of Adult Red Dragon's turn."
    ):
        apply(state, breath(state, {"Raf": 15}))
    # Round 2: the dragon's turn starts with the d6 for the breath.
    for _turn in range(4):
        state = next_turn(state)
    state = next_turn(state)
    assert state.round == 2 and state.acting_now() == (dragon,)
    assert "Adult Red Dragon: a d6 for each ability to recharge (Fire Breath) (key k)." in texts(state)
    assert RULESET.action_available(state, "recharge", dragon)
    assert [field.label for field in RULESET.action_fields(state, "recharge", dragon)] == [
        "Fire Breath: recharges on 5–6"
    ]
    state = act(state, "recharge", "Adult Red Dragon", roll0=typed("1d6", 4))
    assert texts(state)[-1] == "Adult Red Dragon: Fire Breath recharge 1d6 (typed): 4: not ready."
    assert not RULESET.action_available(state, "recharge", dragon)
    with pytest.raises(RuleError, match="Fire Breath is not ready"):
        apply(state, breath(state, {"Raf": 15}))
    for _turn in range(5):  # round 3
        state = next_turn(state)
    state = act(state, "recharge", "Adult Red Dragon", roll0=typed("1d6", 5))
    assert texts(state)[-1] == "Adult Red Dragon: Fire Breath recharge 1d6 (typed): 5: ready."
    assert RULESET.special_abilities(state, dragon)[0].ready
    state = apply(state, breath(state, {"Raf": 15}))  # ready again: breathed
    assert not RULESET.special_abilities(state, dragon)[0].ready


def test_the_breath_is_undone_with_its_recharge_in_one_step() -> None:
    store = Store(dragon_fight())
    before = store.state
    store.dispatch(breath(store.state, {"Raf": 15, "Ada": 8, "Bram": 19}))
    store.undo()
    assert store.state == before and RULESET.special_abilities(store.state, ids(before)["Adult Red Dragon"])[0].ready


def test_legendary_resistance_three_times_a_day() -> None:
    state = next_turn(dragon_fight())  # Raf's turn
    dragon = ids(state)["Adult Red Dragon"]
    assert budget(state, "Adult Red Dragon")["Legendary Resistance"] == (3, 3)
    state = apply(
        state, a.SavingThrow(combatant=dragon, kind="wis", roll=d20(3), dc=15, legendary=True)
    )  # Hold Monster
    assert texts(state)[-1] == (
        "Adult Red Dragon: Wisdom save: 1d20 (typed): 3, +7 → 10 against DC 15: failed, but succeeds "
        "with Legendary Resistance (2 left)."
    )
    assert render(players_line(state.log_entries()[-1]) or "") == "Adult Red Dragon saves with Legendary Resistance."
    state = apply(state, a.SavingThrow(combatant=dragon, kind="cha", roll=d20(4), dc=15, legendary=True))
    state = apply(state, a.SavingThrow(combatant=dragon, kind="wis", roll=d20(2), dc=15))  # the DM lets it fail
    assert texts(state)[-1] == "Adult Red Dragon: Wisdom save: 1d20 (typed): 2, +7 → 9 against DC 15: failed."
    state = act(state, "condition", "Adult Red Dragon", condition="paralyzed")
    # Paralyzed, it fails a Dexterity save on its own; the last Legendary Resistance saves it all the same.
    state = apply(state, a.SavingThrow(combatant=dragon, kind="dex", roll=d20(20), dc=15, legendary=True))
    assert texts(state)[-1] == (
        "Adult Red Dragon: Dexterity save: failed automatically (paralyzed), but succeeds with "
        "Legendary Resistance (0 left)."
    )
    assert budget(state, "Adult Red Dragon")["Legendary Resistance"] == (0, 3)
    with pytest.raises(RuleError, match="Adult Red Dragon has no Legendary Resistance left."):
        apply(state, a.SavingThrow(combatant=dragon, kind="wis", roll=d20(2), dc=15, legendary=True))
    for _turn in range(4):  # round 2: a day's uses do not come back
        state = next_turn(state)
    assert state.round == 2 and budget(state, "Adult Red Dragon")["Legendary Resistance"] == (0, 3)


def test_legendary_actions_at_the_end_of_other_creatures_turns_over_two_rounds() -> None:
    state = dragon_fight()
    dragon = ids(state)["Adult Red Dragon"]
    assert budget(state, "Adult Red Dragon")["Legendary actions"] == (3, 3)
    assert not RULESET.action_available(state, "legendary", dragon)  # its own turn
    with pytest.raises(
        RuleError, match="takes legendary actions at the end of another creature's turn, not in its own"
    ):
        RULESET.apply_action(state, "legendary", {"combatant": dragon})
    state = next_turn(state)  # the dragon's turn ends: nothing to offer yet (its own)
    assert "Legendary actions may be taken now" not in " ".join(texts(state))
    state = next_turn(state)  # Raf's turn ends
    assert texts(state)[-1] == "Legendary actions may be taken now: Adult Red Dragon (key l)."
    assert state.log_entries()[-1].secret  # the DM's reminder
    assert RULESET.action_available(state, "legendary", dragon)
    state = act(state, "legendary", "Adult Red Dragon", note="Pounce")
    assert texts(state)[-1] == "Adult Red Dragon takes a legendary action: Pounce: 2 of 3 left."
    assert render(players_line(state.log_entries()[-1]) or "") == "Adult Red Dragon takes a legendary action: Pounce."
    state = next_turn(state)  # Ada's turn ends
    state = act(state, "legendary", "Adult Red Dragon", note="Commanding Presence", cost=2)
    assert budget(state, "Adult Red Dragon")["Legendary actions"] == (0, 3)
    assert not RULESET.action_available(state, "legendary", dragon)
    with pytest.raises(RuleError, match="Legendary action cannot be done now."):  # the key is not offered
        act(state, "legendary", "Adult Red Dragon")
    with pytest.raises(RuleError, match="Adult Red Dragon has 0 legendary actions left."):  # and the rules say why
        RULESET.apply_action(state, "legendary", {"combatant": dragon})
    state = next_turn(state)  # Bram's turn ends: none left, nothing offered
    assert "Legendary actions may be taken now" not in texts(state)[-3:]
    state = next_turn(state)  # round 2: the dragon's turn starts, its legendary actions come back
    assert state.round == 2 and state.acting_now() == (dragon,)
    assert budget(state, "Adult Red Dragon")["Legendary actions"] == (3, 3)
    state = act(next_turn(state), "condition", "Adult Red Dragon", condition="paralyzed")
    assert not RULESET.action_available(state, "legendary", dragon)
    with pytest.raises(RuleError, match="Adult Red Dragon is paralyzed: no legendary actions."):
        RULESET.apply_action(state, "legendary", {"combatant": dragon})
    state = next_turn(state)  # Raf's turn ends: a paralyzed dragon is offered nothing
    assert "Legendary actions may be taken now" not in texts(state)[-3:]


def test_fire_does_nothing_to_a_red_dragon() -> None:
    state = dragon_fight()
    state = apply(
        state, a.Damage(combatant=ids(state)["Adult Red Dragon"], amount=28, kind="fire", roll=typed("8d6", 28))
    )
    assert texts(state)[-1] == "Adult Red Dragon takes 0 damage (fire: immune) (8d6 (typed): 28): 256/256 HP."
    assert render(players_line(state.log_entries()[-1]) or "") == "Adult Red Dragon takes 0 damage (fire)."
    details = dict(RULESET.details(state, ids(state)["Adult Red Dragon"]))
    assert details["Saving throws"] == "Str +8, Dex +6, Con +7, Int +3, Wis +7, Cha +6"
    assert details["Damage immunities"] == "fire"
    assert details["Fire Breath"] == "recharge 5–6: ready, cone 60 ft"


def test_an_ability_that_only_recharges_is_spent_with_the_use_key() -> None:
    state = play(
        fight({"Party": PARTY, "Dogs": [("Blink Dog", 22, {"dex": 17, "abilities": "Teleport: recharge 4-6"})]}),
        a.StartFight(),
    )
    who = ids(state)
    state = apply(
        state,
        a.RollInitiative(
            rolls={who["Blink Dog"]: d20(20), who["Raf"]: d20(15), who["Ada"]: d20(10), who["Bram"]: d20(5)}
        ),
    )
    dog = who["Blink Dog"]
    assert RULESET.special_abilities(state, dog) == ()  # no area to offer
    assert ("ability:Teleport", "Teleport") in RULESET.action_fields(state, "use", dog)[0].choices
    state = act(state, "use", "Blink Dog", what="ability:Teleport")
    assert texts(state)[-2:] == [
        "Blink Dog uses Teleport.",
        "Blink Dog's Teleport is spent: it recharges on 4–6 at the start of its turn.",
    ]
    assert ("ability:Teleport", "Teleport") not in RULESET.action_fields(state, "use", dog)[0].choices
    assert dict(RULESET.details(state, dog))["Teleport"] == "recharge 4–6: not ready"
