"""Secrets that reached the players' screen once, each played through the real engine: a spell declared in
secret and cast over rounds, an effect named after it put on a player, the monsters' morale, the dice and
numbers behind the GM's screen; and what the GM sets for the players to see of rolls."""

from __future__ import annotations

from typing import Any

import msgspec

from tests.engine.test_public import named, physical, state_of
from tests.rulesets import ose_fight, trudvang_fight
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.model import ROLLS_OPTION, State
from tui_combat.engine.public import public_entries, public_view
from tui_combat.engine.registry import get
from tui_combat.screens.player_view import view_text


def shown(state: State) -> str:
    """Every public surface of the engine at once: the view's text and data, the report's entries."""
    view = public_view(state)
    entries = public_entries(state)
    return "\n".join(
        (
            view_text(view),
            msgspec.json.encode(view).decode(),
            msgspec.json.encode(entries).decode(),
            *(entry.text for entry in entries),
        )
    )


def to_step(state: State, step_id: str, limit: int = 40) -> State:
    ruleset = get(state.ruleset)
    for _ in range(limit):
        if ruleset.steps(state)[state.step].id == step_id:
            return state
        if ruleset.steps(state)[state.step].kind == "initiative" and not state.initiative.settled:
            state = apply(
                state,
                a.RollInitiative(
                    rolls={r.key: physical(5 + i, "1d10") for i, r in enumerate(ruleset.initiative_requests(state))}
                ),
            )
            continue
        state = apply(state, a.NextStep())
    raise AssertionError(f"never reached {step_id}")


def troll_declares(spell: str, casting: str) -> State:
    """The AD&D 2e demo, round 1, the monsters' secret step: Troll 1 declares ``spell`` (``casting``)."""
    state = apply(state_of("demo_adnd2e.toml"), a.StartFight())
    troll = named(state, "Troll 1").id
    declaration: dict[str, Any] = {"action": "spell", "spell": spell, "casting": casting}
    return apply(state, a.Declare(combatant=troll, declaration=declaration))


def test_a_spell_declared_in_secret_is_not_named_while_it_is_cast_nor_when_it_goes_off() -> None:
    state = to_step(troll_declares("Cloudkill", "2 rounds"), "end")
    assert "Troll 1 goes on casting Cloudkill: 1 round to go." in [e.text for e in state.log_entries()]
    state = to_step(apply(state, a.NextStep()), "end")  # round 2: it takes effect
    assert "Troll 1's Cloudkill takes effect." in [e.text for e in state.log_entries()]
    text = shown(state)
    assert "Cloudkill" not in text and "casting" not in text, text


def test_an_unnamed_spell_declared_in_secret_is_not_told_either() -> None:
    state = to_step(troll_declares("", "2 rounds"), "end")
    assert any("goes on casting" in e.text for e in state.log_entries())
    assert "casting" not in shown(state)


def test_an_effect_named_after_a_secret_spell_stays_secret_on_a_player() -> None:
    state = to_step(troll_declares("Hold Person", "3"), "resolve")
    raf = named(state, "Raf").id
    state = apply(state, a.AddEffect(combatant=raf, name="Hold Person", rounds=3))
    state = apply(state, a.RulesetAction(name="effect", args={"combatant": raf, "name": "Hold Person", "amount": 3}))
    assert sum("Hold Person" in e.text for e in state.log_entries()) == 2
    assert "Hold Person" not in shown(state)
    state = apply(state, a.AddEffect(combatant=raf, name="Bless", rounds=2))  # a word never said in secret shows
    assert "Bless: 2 rounds" in view_text(public_view(state))


def test_the_monsters_morale_score_and_its_trigger_stay_behind_the_screen() -> None:
    state = ose_fight.started(ose_fight.demo())
    state = apply(state, a.SetStatus(combatant=ose_fight.GOBLINS[0], status="down"))  # the first death: a check is due
    state = ose_fight.act(
        state,
        "morale",
        combatant=ose_fight.GOBLINS[1],
        modifier="0",
        whole_side=True,
        roll=msgspec.to_builtins(physical(11, "2d6")),
    )
    texts = [e.text for e in state.log_entries()]
    assert any(t.startswith("Morale check due for Goblins") for t in texts)
    assert "Morale — Goblins: 2d6 (typed): 11 against 7: the nerve breaks: flight or surrender next round." in texts
    text = shown(state)
    assert "Morale check" not in text and "Morale —" not in text and "against 7" not in text, text


def adnd_troll_attacks(rolls_shown: str = "") -> State:
    state = state_of("demo_adnd2e.toml")
    if rolls_shown:
        state = apply(state, a.SetOption(key=ROLLS_OPTION, value=rolls_shown))
    state = to_step(apply(state, a.StartFight()), "resolve")
    troll, raf = named(state, "Troll 1").id, named(state, "Raf").id
    return apply(
        state,
        a.RulesetAction(
            name="attack",
            args={"combatant": troll, "out_of_turn": True, "target": raf, "roll": msgspec.to_builtins(physical(17))},
        ),
    )


def test_an_attack_shows_who_hits_whom_not_the_roll_nor_the_number_needed() -> None:
    state = adnd_troll_attacks()
    line = state.log_entries()[-1]
    assert "d20 17" in line.text and " vs " in line.text
    text = shown(state)
    assert "Troll 1 hits Raf." in text
    assert "d20" not in text and " vs " not in text and '"needed"' not in text, text


def test_trudvang_lines_do_not_show_the_monsters_skill_value() -> None:
    state = trudvang_fight.two()
    fridgar, ulf = trudvang_fight.cid(state, "Fridgar"), trudvang_fight.cid(state, "Ulf")
    state = apply(state, a.NextStep())  # Fridgar's turn is over: Ulf's
    state = trudvang_fight.act(
        state,
        "attack",
        combatant=ulf,
        target=fridgar,
        cp=4,
        weapon="broadsword",
        roll=msgspec.to_builtins(trudvang_fight.d20(2)),
    )
    assert "SV" in trudvang_fight.last_log(state)
    text = shown(state)
    assert "SV" not in text and "Ulf hits Fridgar." in text, text


def test_the_gm_chooses_everything_or_nothing_of_the_rolls() -> None:
    everything = adnd_troll_attacks("everything")
    assert "d20 17" in shown(everything)
    nothing = adnd_troll_attacks("nothing")
    assert "d20" not in shown(nothing) and "hits" not in shown(nothing)
    assert "What the players see of rolls: everything: every roll and number." in shown(everything)


def test_changing_what_the_players_see_of_rolls_applies_from_then_on() -> None:
    """A GM who opens up the rolls in round 5 does not show the dice of rounds 1–4; closing them keeps what the
    players read already."""
    opened = apply(adnd_troll_attacks(), a.SetOption(key=ROLLS_OPTION, value="everything"))
    assert "Troll 1 hits Raf." in shown(opened) and "d20 17" not in shown(opened)
    closed = apply(adnd_troll_attacks("everything"), a.SetOption(key=ROLLS_OPTION, value="nothing"))
    assert "d20 17" in shown(closed)


# -- hidden combatants -------------------------------------------------------------------------------------
def with_hidden_ogre() -> State:
    """The AD&D 2e demo in the turns of round 1, an ogre added hidden behind the door, who hits Raf."""
    state = to_step(apply(state_of("demo_adnd2e.toml"), a.StartFight()), "resolve")
    monsters = next(side.id for side in state.sides if not side.is_party)
    state = apply(state, a.AddCombatants(side=monsters, name="Ogre", hp=30, hidden=True))
    ogre, raf = named(state, "Ogre").id, named(state, "Raf").id
    state = apply(state, a.Note(text="Ogre waits behind the door"))
    state = apply(
        state,
        a.RulesetAction(
            name="attack",
            args={"combatant": ogre, "out_of_turn": True, "target": raf, "roll": msgspec.to_builtins(physical(18))},
        ),
    )
    return apply(state, a.Damage(combatant=ogre, amount=3))


def test_a_hidden_combatant_is_nowhere_on_the_players_screen_until_revealed() -> None:
    state = with_hidden_ogre()
    assert "Ogre joins the fight." in [e.text for e in state.log_entries()]
    assert "Ogre" not in shown(state)
    revealed = apply(state, a.SetHidden(combatant=named(state, "Ogre").id, hidden=False))
    text = shown(revealed)
    assert "Ogre appears." in text and "Ogre  wounded" in view_text(public_view(revealed))
    assert "waits behind the door" not in text and "Ogre hits" not in text  # what he did hidden stays the GM's
    hidden_again = apply(revealed, a.SetHidden(combatant=named(state, "Ogre").id, hidden=True))
    assert "Ogre  wounded" not in view_text(public_view(hidden_again))
    assert hidden_again.log_entries()[-1].secret


def test_hiding_in_set_up_writes_nothing_and_survives_a_save() -> None:
    state = state_of("demo_adnd2e.toml")
    troll = named(state, "Troll 1").id
    state = apply(state, a.SetHidden(combatant=troll, hidden=True))
    assert named(state, "Troll 1").hidden and not any(e.secret for e in state.log_entries())
    assert msgspec.json.decode(msgspec.json.encode(state), type=State) == state
    state = to_step(apply(state, a.StartFight()), "resolve")
    assert "Troll 1" not in shown(state)
    old = msgspec.json.decode(
        b'{"id": "c1", "name": "Raf", "side": "s1", "hp": 5, "max_hp": 5}', type=type(state.combatants[0])
    )
    assert old.hidden is False


def test_the_programs_own_words_declared_in_secret_do_not_hide_what_follows() -> None:
    state = apply(state_of("demo_adnd2e.toml"), a.StartFight())
    troll, raf = named(state, "Troll 1").id, named(state, "Raf").id
    state = apply(state, a.Declare(combatant=troll, declaration={"action": "weapon", "text": "Smash the dwarf"}))
    assert state.secret_words == ("Smash the dwarf",)  # the plan typed, not the kind of action
    state = to_step(state, "resolve")
    state = apply(
        state,
        a.RulesetAction(
            name="attack",
            args={"combatant": troll, "out_of_turn": True, "target": raf, "roll": msgspec.to_builtins(physical(17))},
        ),
    )
    assert "Troll 1 hits Raf." in shown(state)


def test_a_foes_initiative_modifiers_stay_behind_the_screen_unless_the_gm_shows_everything() -> None:
    state = trudvang_fight.three()
    ulf = trudvang_fight.cid(state, "Ulf")
    state = trudvang_fight.act(state, "change_action", combatant=ulf, declaration={"weapon": "unarmed"})
    assert "IM -4 → +0" in trudvang_fight.last_log(state)
    assert "IM -4" not in shown(state)
    opened = apply(trudvang_fight.three(), a.SetOption(key=ROLLS_OPTION, value="everything"))
    opened = trudvang_fight.act(opened, "change_action", combatant=ulf, declaration={"weapon": "unarmed"})
    assert "IM -4 → +0" in shown(opened)


def test_surprise_and_distance_dice_stay_the_gms_and_the_distance_shows() -> None:
    state = apply(state_of("demo_adnd2e.toml"), a.BeginSurprise())
    ruleset = get(state.ruleset)
    state = apply(state, a.RollSurprise(rolls={r.key: physical(2, r.dice) for r in ruleset.surprise_requests(state)}))
    situation = next(s for s in ruleset.encounter_distances(state) if s.dice)
    state = apply(state, a.RollDistance(situation=situation.id, roll=physical(4, situation.dice)))
    texts = [e.text for e in state.log_entries()]
    assert any(t.startswith("Surprise — ") for t in texts) and any(t.startswith("Distance (") for t in texts)
    view = public_view(state)
    assert view.distance and "(typed)" not in shown(state) and "Surprise — " not in shown(state)


def test_the_hidden_names_follow_every_change_of_a_combatant() -> None:
    from msgspec.structs import replace as changed

    from tui_combat.engine.model import Combatant, State

    state = State(
        combatants=(
            Combatant(id="c1", name="Ogre", side="s1", hp=5, max_hp=5),
            Combatant(id="c2", name="Orc", side="s1", hp=5, max_hp=5),
        )
    )
    assert state.hidden_names() == frozenset()
    hidden = state.with_combatant(changed(state.combatant("c1"), hidden=True))
    assert hidden.hidden_names() == {"ogre"}
    renamed = hidden.with_combatant(changed(hidden.combatant("c1"), name="Troll"))
    assert renamed.hidden_names() == {"troll"}
    wounded = renamed.with_combatant(changed(renamed.combatant("c2"), hp=1))
    assert wounded.hidden_names() == {"troll"}
    assert wounded.with_combatant(changed(wounded.combatant("c1"), hidden=False)).hidden_names() == frozenset()
