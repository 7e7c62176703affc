"""Who may read what, decided when a line is written (:mod:`tui_combat.engine.audience`): secret words inside
longer texts, in any case, plural or counted; names with commas; sides and slots of those hidden alone; what the
GM shows after all; the setting for rolls of each line; a session saved before keeps what it showed."""

from __future__ import annotations

import msgspec
import pytest
from msgspec.structs import replace

from tests.engine.test_public import named, physical, state_of
from tests.engine.test_public_leaks import shown, to_step, troll_declares
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.audience import (
    BEHIND,
    anything_held,
    behind,
    held_items,
    players_line,
    reading,
    secret_word,
    who,
)
from tui_combat.engine.log import LogEntry, Msg
from tui_combat.engine.model import ROLLS_OPTION, SCHEMA_VERSION, State
from tui_combat.engine.public import public_entries, public_view
from tui_combat.fight.report import fight_report, markdown
from tui_combat.saves.codec import restored
from tui_combat.screens.player_view import view_text


def in_resolve(spell: str = "Cloudkill") -> State:
    """The AD&D 2e demo: Troll 1 declared ``spell`` in the monsters' secret step; now the turns of round 1."""
    return to_step(troll_declares(spell, "1"), "resolve")


def note(state: State, text: str) -> State:
    return apply(state, a.Note(text=text))


# -- secret words inside longer texts ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text", ["Cloudkill fog", "Beware Cloudkill!", "Cloudkill (poison)", "the CLOUDKILL spreads", "two cloudkills"]
)
def test_a_text_naming_a_secret_word_anywhere_is_held(text: str) -> None:
    state = note(in_resolve(), text)
    line = state.log_entries()[-1]
    assert line.secret and line.held and players_line(line) is None
    assert text not in shown(state) and "loudkill" not in shown(state).casefold().replace("cloudkill", "loudkill", 0)


def test_an_effect_named_after_a_secret_is_held_on_a_player_and_marked_for_the_gm() -> None:
    state = in_resolve()
    raf = named(state, "Raf").id
    state = apply(state, a.AddEffect(combatant=raf, name="Cloudkill fog", rounds=2))
    effect = state.effects[-1]
    assert effect.secret and effect.held
    assert "Cloudkill" not in shown(state)
    assert anything_held(state) and len(held_items(state)) == 1  # the effect and its line, one thing to show


def test_a_secret_typed_with_a_count_is_matched_in_the_singular_and_the_plural() -> None:
    assert secret_word("3 Fireballs") == secret_word("fireball") == ("fireball",)
    state = in_resolve("3 Fireballs")
    for text in ("3 Fireballs on Raf", "A fireball hits the wall", "fireballs everywhere"):
        assert state.secret_words and note(state, text).log_entries()[-1].held, text


@pytest.mark.parametrize("typed", ["2 rounds", "1 round", "3", "1 turn", "2 раунда", "ab"])
def test_a_time_or_a_number_typed_in_secret_is_no_secret_word(typed: str) -> None:
    assert secret_word(typed) == ()


def test_a_word_that_only_begins_like_a_secret_is_not_held() -> None:
    state = in_resolve("Fire")
    assert not note(state, "Firestorm is not the secret").log_entries()[-1].held
    assert note(state, "the fire spreads").log_entries()[-1].held


def test_a_russian_secret_is_matched_in_another_case() -> None:
    state = in_resolve("Огненный шар")
    assert note(state, "Огненные шары падают").log_entries()[-1].held
    assert not note(state, "Шарик").log_entries()[-1].held


# -- what the GM shows after all ----------------------------------------------------------------------------------
def test_the_gm_shows_a_held_line_and_effect_and_undo_takes_it_back() -> None:
    state = in_resolve()
    raf = named(state, "Raf").id
    state = apply(state, a.AddEffect(combatant=raf, name="Cloudkill fog", rounds=2))
    item = held_items(state)[0]
    shown_now = apply(state, a.ShowToPlayers(entries=item.entries, effects=item.effects))
    assert "Raf: Cloudkill fog for 2 rounds." in shown(shown_now)
    assert "Cloudkill fog: 2 rounds" in view_text(public_view(shown_now))
    assert not anything_held(shown_now)
    ended = apply(shown_now, a.EndEffect(effect=item.effects[0]))
    assert "Cloudkill fog on Raf ends." in shown(ended)  # shown once: the effect's lines are the players' since


def test_only_what_is_held_can_be_shown() -> None:
    from tui_combat.engine.errors import RuleError

    state = to_step(apply(state_of("demo_adnd2e.toml"), a.StartFight()), "resolve")
    state = apply(state, a.Note(text="a secret note", secret=True))
    with pytest.raises(RuleError):
        apply(state, a.ShowToPlayers(entries=(state.log_count - 1,)))
    with pytest.raises(RuleError):
        apply(state, a.ShowToPlayers())


# -- names with any character -----------------------------------------------------------------------------------
def ambush(name: str) -> State:
    """The AD&D 2e demo in the turns of round 1, with ``name`` added hidden to the monsters' side."""
    state = to_step(apply(state_of("demo_adnd2e.toml"), a.StartFight()), "resolve")
    monsters = next(side.id for side in state.sides if not side.is_party)
    return apply(state, a.AddCombatants(side=monsters, name=name, hp=20, hidden=True))


@pytest.mark.parametrize("name", ["Grak, the Chief", 'Grak; the "Chief"', "Raf's shadow", "Troll, Orc and Ogre"])
def test_a_hidden_combatant_with_any_name_is_not_named_for_the_players(name: str) -> None:
    state = ambush(name)
    grak = named(state, name).id
    state = apply(state, a.Damage(combatant=grak, amount=5))
    state = apply(state, a.SetStatus(combatant=grak, status="down"))
    assert f"{name} takes 5 damage: 15/20 HP." in [e.text for e in state.log_entries()]
    assert name not in shown(state)
    report = fight_report(state, (), final=state, public=True)
    assert name not in markdown(report) and all(tally.name != name for tally in report.damage)


def test_a_visible_combatant_whose_name_is_part_of_a_hidden_ones_is_seen() -> None:
    state = ambush("Raf, the Chief")
    raf = named(state, "Raf").id
    state = apply(state, a.Damage(combatant=raf, amount=2))
    assert "Raf takes 2 damage: " in shown(state)


def test_a_list_of_names_leaves_out_those_hidden() -> None:
    state = ambush("Grak, the Chief")
    state = apply(state, a.StartFight()) if state.phase == "setup" else state
    line = Msg(
        id="{names}", params={"names": [who(state, named(state, "Raf")), who(state, named(state, "Grak, the Chief"))]}
    )
    read = reading(line, "outcomes")
    assert isinstance(read, Msg) and read.params["names"] == [who(state, named(state, "Raf"))]


# -- sides and slots of those hidden alone ------------------------------------------------------------------------
def test_a_side_of_hidden_ones_only_has_no_header_for_the_players() -> None:
    state = state_of("demo_adnd2e.toml")
    state = apply(state, a.AddSide(name="Reinforcements"))
    side = state.sides[-1].id
    state = apply(state, a.AddCombatants(side=side, name="Ogre", hp=30, hidden=True))
    view = public_view(state)
    assert "Reinforcements" not in view_text(view) and all(group.label != "Reinforcements" for group in view.groups)


def test_while_only_hidden_ones_act_the_players_marker_stays_where_it_was() -> None:
    state = ambush("Ogre")
    ogre = named(state, "Ogre").id
    # The ogre gets a slot of his own after the first, by the order's own means: put it there by hand.
    from tui_combat.engine.model import Slot

    state = replace(
        state,
        order=(
            *state.order[:1],
            Slot(label=Msg(id="{value}", params={"value": 4}), combatants=(ogre,)),
            *state.order[1:],
        ),
        cursor=0,
    )
    first = public_view(state)
    assert first.now
    acting_before = [c.name for c in first.now]
    hidden_turn = public_view(replace(state, cursor=1))
    assert [c.name for c in hidden_turn.now] == acting_before  # as if the GM were taking his time
    assert "Nobody acts just now." not in view_text(hidden_turn, large=True)


# -- the setting for rolls, line by line -------------------------------------------------------------------------
def test_a_stat_is_read_by_the_players_only_when_they_see_everything() -> None:
    line = Msg(id="{name} absorbs {amount}.", params={"name": "Chain mail", "amount": behind(5)})
    assert reading(line, "everything") is line
    assert not isinstance(reading(line, "outcomes"), Msg) and not isinstance(reading(line, "nothing"), Msg)
    assert line.params["amount"].gm == BEHIND  # type: ignore[union-attr]


def test_the_setting_for_rolls_is_kept_by_each_line() -> None:
    state = to_step(apply(state_of("demo_adnd2e.toml"), a.StartFight()), "resolve")
    troll = named(state, "Troll 1").id
    damage = a.Damage(combatant=troll, amount=3, roll=physical(3, "1d4"))
    state = apply(state, damage)
    state = apply(apply(state, a.SetOption(key=ROLLS_OPTION, value="everything")), damage)
    texts = [line.text for line in public_view(state).log]
    assert texts[-3:] == [
        "Troll 1 takes 3 damage.",
        "What the players see of rolls: everything: every roll and number.",
        "Troll 1 takes 3 damage (1d4 (typed): 3).",
    ]


# -- a session saved before -----------------------------------------------------------------------------------------
def test_a_state_of_schema_2_keeps_what_it_showed() -> None:
    """Lines of the old form (plain names, nothing decided) are decided once, by the rules they were shown by."""
    state = to_step(apply(state_of("demo_adnd2e.toml"), a.StartFight()), "resolve")
    raf, orc = named(state, "Raf"), named(state, "Orc 1")
    old = [
        LogEntry(round=1, msg=Msg(id="{text}", params={"text": "Smash the dwarf"}), secret=True),
        LogEntry(round=1, msg=Msg(id="{text}", params={"text": "smash the dwarf"})),  # named the secret: hidden
        LogEntry(
            round=1,
            msg=Msg(
                id="{name} takes {amount} damage{rolled}: {hp}/{max} HP.",
                params={"name": orc.name, "amount": 3, "rolled": "", "hp": 2, "max": 5},
            ),
            facts={"damage": 3},
        ),
        LogEntry(
            round=1,
            msg=Msg(
                id="{name} takes {amount} damage{rolled}: {hp}/{max} HP.",
                params={"name": raf.name, "amount": 1, "rolled": "", "hp": 9, "max": 10},
            ),
            facts={"damage": 1},
        ),
        LogEntry(
            round=1,
            msg=Msg(id="{name} hits {target}.", params={"name": orc.name, "target": raf.name}),
            rolls=(physical(17),),
            facts={"hit": True},
        ),
    ]
    legacy = replace(state, schema=2, log=(tuple(old),), log_start=0)
    encoded = msgspec.json.encode(legacy)
    read = restored(msgspec.json.decode(encoded, type=State), __import__("pathlib").Path("snapshot.json"))
    assert read.schema == SCHEMA_VERSION
    lines = [line.text for line in public_view(read).log]
    assert lines == ["Orc 1 takes 3 damage.", "Raf takes 1 damage: 9/10 HP.", "Orc 1 hits Raf."]
    assert [e.held for e in read.log_entries()][:2] == [False, True]
    assert [e.text for e in public_entries(read)] == lines
