"""The Savage Worlds example plugin (``examples/savage_worlds``) through the engine, loaded by its entry point.

Every expectation is worked out by hand from the rules in the plugin's docstring: action cards highest first,
ties by suit ♠ > ♥ > ♦ > ♣, a Joker outside the order with +2, the deck shuffled after a Joker, Level Headed's
best of two, Quick's redraw of a Five or lower, Toughness against damage (a success Shakes, each raise of 4 is
a wound, Shaken again is a wound), three wounds for a Wild Card and one for an Extra.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply, initiative_asked
from tui_combat.engine.contract import AnyRuleset
from tui_combat.engine.dice import Roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import render
from tui_combat.engine.model import ROLLS_OPTION, ROLLS_SHOWN, State
from tui_combat.engine.public import public_entries, public_view
from tui_combat.testing import Faces, ids, order_names

WILD = {"wild_card": True, "skill": "1d8!", "damage": "1d8!+1d6!", "parry": 6, "toughness": 6}
EXTRA = {"skill": "1d6!", "damage": "1d6!+1d6!", "parry": 5, "toughness": 5}


def fight(
    *combatants: tuple[str, str, dict[str, Any]],
    count: dict[str, int] | None = None,
    rolls_shown: str = "",
    hidden: tuple[str, ...] = (),
) -> State:
    """A fight at its action-card step: the Posse (s1) and the Gang (s2); ``rolls_shown``: what the players see of
    rolls, set before the fight; ``hidden``: the names of those hidden from the players."""
    state = State(seed=1)
    for action in (
        a.SetRuleset(ruleset="savage_worlds"),
        a.AddSide(name="Posse", is_party=True),
        a.AddSide(name="Gang"),
    ):
        state = apply(state, action)
    if rolls_shown:
        state = apply(state, a.SetOption(key=ROLLS_OPTION, value=rolls_shown))
    for side, name, sheet in combatants:
        state = apply(
            state,
            a.AddCombatants(
                side=side, name=name, hp=0, count=(count or {}).get(name, 1), sheet=sheet, hidden=name in hidden
            ),
        )
    return apply(state, a.StartFight())


def players(state: State) -> list[str]:
    """What the players read of the log, on their screen and in the public report (the same lines)."""
    on_screen = [line.text for line in public_view(state, log_lines=1000).log]
    reported = [entry.text for entry in public_entries(state)]
    assert on_screen == reported
    return reported


def deal(ruleset: AnyRuleset, state: State, **typed: str) -> State:
    """The cards typed for each request, by the first word of its label ("Bandit" for "Bandit (group)")."""
    requests, _fresh = initiative_asked(ruleset, state)
    by_label = {render(request.label).split(" ")[0]: request for request in requests}
    rolls = {
        by_label[label].key: ruleset.read_initiative(state, by_label[label], text) for label, text in typed.items()
    }
    return apply(state, a.RollInitiative(rolls=rolls))


def attack(state: State, attacker: str, target: str, trait: int, wild: int | None = None, **more: Any) -> State:
    named = ids(state)
    args: dict[str, Any] = {
        "combatant": named[attacker],
        "target": named[target],
        "range": "melee",
        "modifier": 0,
        "trait": Roll(expr="1d8!", total=trait, physical=True),
        **more,
    }
    if wild is not None:
        args["wild"] = Roll(expr="1d6!", total=wild, physical=True)
    return apply(state, a.RulesetAction(name="attack", args=args))


def test_the_highest_card_acts_first_and_ties_go_by_suit(savage_worlds: AnyRuleset) -> None:
    state = fight(
        ("s1", "Jessie", WILD), ("s1", "Doc", WILD), ("s2", "Bart", WILD), ("s2", "Bandit", EXTRA), count={"Bandit": 3}
    )
    requests, _fresh = initiative_asked(savage_worlds, state)
    assert [render(r.label) for r in requests] == ["Jessie", "Doc", "Bart", "Bandit (group)"]  # the Extras share one
    state = deal(savage_worlds, state, Jessie="Kh", Doc="K♠", Bart="2s", Bandit="A♣")
    assert order_names(state) == [["Bandit 1", "Bandit 2", "Bandit 3"], ["Doc"], ["Jessie"], ["Bart"]]
    assert [render(slot.label) for slot in state.order] == ["A♣", "K♠", "K♥", "2♠"]
    lines = [entry.text for entry in state.log_entries()]
    assert "Jessie is dealt K♥." in lines and "Bandit (group) is dealt A♣." in lines


def test_a_card_dealt_twice_or_out_of_the_deck_is_refused(savage_worlds: AnyRuleset) -> None:
    state = fight(("s1", "Jessie", WILD), ("s2", "Bart", WILD))
    with pytest.raises(RuleError, match="K♥ is dealt twice"):
        deal(savage_worlds, state, Jessie="Kh", Bart="K♥")
    with pytest.raises(RuleError, match="not “Zz”"):
        requests, _fresh = initiative_asked(savage_worlds, state)
        savage_worlds.read_initiative(state, requests[0], "Zz")
    state = deal(savage_worlds, state, Jessie="Kh", Bart="Qs")
    for _step in range(3):  # through both turns and the end of the round, into round 2
        state = apply(state, a.NextStep())
    assert state.round == 2
    with pytest.raises(RuleError, match="K♥ is out of the deck"):
        deal(savage_worlds, state, Jessie="Kh", Bart="2c")


def test_the_app_never_deals_a_card_out_of_the_deck(savage_worlds: AnyRuleset) -> None:
    state = fight(("s1", "Jessie", WILD), ("s2", "Bart", WILD))
    state = deal(savage_worlds, state, Jessie="2♣", Bart="3♣")  # cards 1 and 2 of a fresh deck
    for _step in range(3):
        state = apply(state, a.NextStep())
    requests, _fresh = initiative_asked(savage_worlds, state)
    drawn = savage_worlds.draw_initiative(state, requests, Faces(1, 1))  # the first card left, twice
    assert [render_card(savage_worlds, state, roll) for roll in drawn.values()] == ["4♣", "5♣"]


def render_card(ruleset: AnyRuleset, state: State, result: Roll) -> str:
    requests, _fresh = initiative_asked(ruleset, state)
    return render(ruleset.initiative_line(state, requests[0], result)).removeprefix("Jessie is dealt ").rstrip(".")


def test_level_headed_keeps_the_best_and_quick_draws_again(savage_worlds: AnyRuleset) -> None:
    state = fight(
        ("s1", "Jessie", {**WILD, "level_headed": "yes"}), ("s1", "Doc", {**WILD, "quick": True}), ("s2", "Bart", WILD)
    )
    requests, _fresh = initiative_asked(savage_worlds, state)
    # A fresh deck: 2♣ 3♣ 4♣ 5♣ 6♣ … Jessie draws the 1st and 5th left (2♣, 6♣), Doc the 1st (3♣, low), then
    # the 1st again (4♣, low), then the 3rd left (7♣): he acts on 7♣. Bart the 1st left (5♣).
    drawn = savage_worlds.draw_initiative(state, requests, Faces(1, 4, 1, 1, 3, 1))
    assert [list(roll.faces) for roll in drawn.values()] == [[1, 5], [2, 3, 7], [4]]
    state = apply(state, a.RollInitiative(rolls=drawn))
    assert order_names(state) == [["Doc"], ["Jessie"], ["Bart"]]
    assert "Jessie draws 2♣, 6♣ and acts on 6♣." in [entry.text for entry in state.log_entries()]
    typed = savage_worlds.read_initiative(state, requests[0], "3♣ 9h")
    assert (typed.total, typed.faces) == (34, (2, 34))  # 9♥ kept


def test_a_joker_acts_when_he_likes_with_two_more_and_the_deck_is_shuffled(savage_worlds: AnyRuleset) -> None:
    state = fight(("s1", "Jessie", WILD), ("s2", "Bart", WILD), ("s2", "Bandit", EXTRA))
    state = deal(savage_worlds, state, Jessie="Joker", Bart="Q♦", Bandit="5♥")
    assert order_names(state) == [["Bart"], ["Bandit"]]
    named = ids(state)
    assert [(w.combatant, render(w.label)) for w in savage_worlds.out_of_order(state)] == [
        (named["Jessie"], "Joker: acts at any time")
    ]
    assert savage_worlds.turn_marker(state, named["Jessie"], None) == "Joker: acts at any time"
    view = public_view(state)
    assert [(g.kind, g.label, [c.name for c in g.combatants]) for g in view.groups][-1] == (
        "waiting",
        "Joker: acts at any time",
        ["Jessie"],
    )

    # Bart acts; then Jessie comes in before the Bandit, and hits him with +2: 3 + 2 = 5 against Parry 5.
    state = apply(state, a.NextStep())
    assert order_names(state)[state.cursor] == ["Bandit"]
    state = apply(state, a.BringIn(combatant=named["Jessie"]))
    assert order_names(state) == [["Bart"], ["Jessie"], ["Bandit"]] and state.acting_now() == (named["Jessie"],)
    assert savage_worlds.out_of_order(state) == ()
    with pytest.raises(RuleError, match="not waiting"):
        apply(state, a.BringIn(combatant=named["Jessie"]))
    before = state
    state = attack(state, "Jessie", "Bandit", trait=3, wild=1)
    facts = state.log_entries()[-1].facts
    assert (facts["total"], facts["needed"], facts["hit"], facts["raise"]) == (5, 5, True, False)
    due = savage_worlds.damage_due(before, state, "attack", {"combatant": named["Jessie"]})
    assert due is not None and due.dice == "1d8!+1d6!+2"

    state = apply(state, a.NextStep())  # the Bandit's turn
    state = apply(state, a.NextStep())  # end of the round: a Joker was dealt, the deck is whole again
    assert "A Joker was dealt this round: the deck is shuffled." in [e.text for e in state.log_entries()]
    assert savage_worlds.fight_of(state).out == ()
    state = apply(state, a.NextStep())
    state = deal(savage_worlds, state, Jessie="Q♦", Bart="Joker", Bandit="5♥")  # the same cards again: allowed


def test_a_held_combatant_waits_into_the_next_round_and_comes_in(savage_worlds: AnyRuleset) -> None:
    state = fight(("s1", "Jessie", WILD), ("s2", "Bart", WILD))
    state = deal(savage_worlds, state, Jessie="A♠", Bart="2♦")
    named = ids(state)
    state = apply(state, a.RulesetAction(name="hold", args={"combatant": named["Jessie"]}))
    assert order_names(state) == [[], ["Bart"]]
    assert [render(w.label) for w in savage_worlds.out_of_order(state)] == ["on hold"]
    for _step in range(3):
        state = apply(state, a.NextStep())
    assert state.round == 2
    requests, _fresh = initiative_asked(savage_worlds, state)
    assert [render(r.label) for r in requests] == ["Bart"]  # a hold lasts: no card for Jessie
    state = deal(savage_worlds, state, Bart="7♣")
    state = apply(state, a.BringIn(combatant=named["Jessie"]))
    assert order_names(state) == [["Jessie"], ["Bart"]]
    assert "Jessie comes in (on hold) and acts now, before 7♣." in [e.text for e in state.log_entries()]


def test_toughness_shaken_and_wounds(savage_worlds: AnyRuleset) -> None:
    state = fight(("s1", "Jessie", WILD), ("s2", "Bart", WILD), ("s2", "Bandit", EXTRA))
    named = ids(state)
    jessie, bandit = named["Jessie"], named["Bandit"]
    assert (state.combatant(jessie).hp, state.combatant(bandit).hp) == (4, 1)

    def hit(state: State, who: str, amount: int) -> tuple[State, str]:
        state = apply(state, a.Damage(combatant=who, amount=amount))
        return state, next(e.text for e in reversed(state.log_entries()) if "Toughness" in e.text)

    state, said = hit(state, jessie, 5)
    assert (
        said == "Jessie takes 5 against Toughness 6: no effect."
        and savage_worlds.public_conditions(state, jessie) == ()
    )
    state, said = hit(state, jessie, 6)
    assert said == "Jessie takes 6 against Toughness 6: Shaken." and state.combatant(jessie).hp == 4
    assert savage_worlds.public_conditions(state, jessie) == ("Shaken",)
    assert "Shaken" in next(c for g in public_view(state).groups for c in g.combatants if c.name == "Jessie").conditions
    state, said = hit(state, jessie, 7)
    assert said == "Jessie takes 7 against Toughness 6: Shaken again: a wound." and state.combatant(jessie).hp == 3
    state, said = hit(state, jessie, 14)  # two raises
    assert said == "Jessie takes 14 against Toughness 6: 2 wounds and Shaken." and state.combatant(jessie).hp == 1
    assert savage_worlds.condition_word(state, jessie) == "3 wounds"
    assert (savage_worlds.health_label, savage_worlds.health_shown(state, jessie)) == ("Wounds", "3/3")
    assert (savage_worlds.health_shown(state, jessie, brief=True), savage_worlds.health_shown(state, bandit)) == (
        "3",
        "0/0",
    )
    state, said = hit(state, jessie, 10)  # the fourth wound
    assert said == "Jessie takes 10 against Toughness 6: 1 wound: incapacitated."
    assert state.combatant(jessie).status == "down" and savage_worlds.condition_word(state, jessie) == "incapacitated"

    state, said = hit(state, bandit, 9)  # an Extra is out at his first wound
    assert said == "Bandit takes 9 against Toughness 5: 1 wound: incapacitated."
    assert state.combatant(bandit).status == "down"


@pytest.mark.parametrize("rolls_shown", ROLLS_SHOWN)
@pytest.mark.parametrize("rolled", [False, True])
def test_a_foes_toughness_stays_behind_the_screen(savage_worlds: AnyRuleset, rolls_shown: str, rolled: bool) -> None:
    """The players read what the hit did, not the Toughness it was against, whatever they see of rolls: the damage
    is an outcome, its dice aside."""
    state = fight(("s1", "Jessie", WILD), ("s2", "Bandit", EXTRA), rolls_shown=rolls_shown)
    roll = Roll(expr="1d6!+1d6!", total=9, physical=True) if rolled else None
    state = apply(state, a.Damage(combatant=ids(state)["Bandit"], amount=9, roll=roll))
    said = "Bandit takes 9 against Toughness 5: 1 wound: incapacitated."
    assert said in [entry.text for entry in state.log_entries()]
    read = players(state)
    if rolls_shown == "everything":
        assert said in read
    else:
        assert not [line for line in read if "Toughness" in line], read
        assert "Bandit takes 9: 1 wound: incapacitated." in read
    assert "Bandit is down." in read


def test_a_posse_members_toughness_is_the_players(savage_worlds: AnyRuleset) -> None:
    state = fight(("s1", "Jessie", WILD), ("s2", "Bandit", EXTRA))
    state = apply(state, a.Damage(combatant=ids(state)["Jessie"], amount=7))
    assert "Jessie takes 7 against Toughness 6: Shaken." in players(state)


def test_someone_hidden_is_named_by_no_line_the_players_read(savage_worlds: AnyRuleset) -> None:
    state = fight(
        ("s1", "Jessie", WILD),
        ("s2", "Bart", WILD),
        ("s2", "Bandit", EXTRA),
        count={"Bandit": 2},
        rolls_shown="everything",
        hidden=("Bart", "Bandit"),
    )
    state = deal(savage_worlds, state, Jessie="2♠", Bart="Joker", Bandit="K♥")
    named = ids(state)
    state = apply(state, a.Damage(combatant=named["Bart"], amount=6))
    state = apply(state, a.RulesetAction(name="recover", args={"combatant": named["Bart"], "benny": True}))
    texts = [entry.text for entry in state.log_entries()]
    assert "Bandit (group) is dealt K♥." in texts and "Bart takes 6 against Toughness 6: Shaken." in texts
    read = players(state)
    assert not [line for line in read if "Bart" in line or "Bandit" in line], read
    assert "Jessie is dealt 2♠." in read
    assert not [entry.text for entry in state.log_entries() if entry.held]


def test_a_shaken_attacker_recovers_first(savage_worlds: AnyRuleset) -> None:
    state = fight(("s1", "Jessie", WILD), ("s2", "Bart", WILD))
    state = deal(savage_worlds, state, Jessie="A♠", Bart="2♦")
    named = ids(state)
    state = apply(state, a.Damage(combatant=named["Jessie"], amount=6))
    with pytest.raises(RuleError, match="Jessie is Shaken: recovery comes first."):
        attack(state, "Jessie", "Bart", trait=8, wild=2)
    spirit = {
        "combatant": named["Jessie"],
        "benny": False,
        "spirit": Roll(expr="1d6!", total=3, physical=True),
        "wild": Roll(expr="1d6!", total=2, physical=True),
    }
    state = apply(state, a.RulesetAction(name="recover", args=spirit))
    assert named["Jessie"] in savage_worlds.fight_of(state).shaken  # 3 against 4: still Shaken
    state = apply(state, a.RulesetAction(name="recover", args={**spirit, "benny": True}))
    assert named["Jessie"] not in savage_worlds.fight_of(state).shaken
    state = attack(state, "Jessie", "Bart", trait=2, wild=10)  # the Wild Die counts: 10 against Parry 6, a raise
    assert state.log_entries()[-1].facts["raise"] is True


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture], deadline=None)
@given(st.lists(st.integers(min_value=1, max_value=54), min_size=2, max_size=6, unique=True))
def test_any_deal_orders_by_rank_then_suit_with_jokers_outside(savage_worlds: AnyRuleset, dealt: list[int]) -> None:
    from savage_worlds import cards

    names = [f"Hero {n}" for n in range(len(dealt))]
    state = fight(*(("s1" if n % 2 == 0 else "s2", name, WILD) for n, name in enumerate(names)))
    requests, _fresh = initiative_asked(savage_worlds, state)
    shown = {
        request.key: cards.card_text(card) if not cards.is_joker(card) else "Joker"
        for request, card in zip(requests, dealt)
    }
    state = apply(
        state,
        a.RollInitiative(
            rolls={
                key: savage_worlds.read_initiative(state, next(r for r in requests if r.key == key), text)
                for key, text in shown.items()
            }
        ),
    )
    values = [slot.value for slot in state.order]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)  # never a tie
    jokers = {r.key for r, card in zip(requests, dealt) if cards.is_joker(card)}
    assert {w.combatant for w in savage_worlds.out_of_order(state)} == jokers
    assert {c for slot in state.order for c in slot.combatants} == {r.key for r in requests} - jokers


def test_an_ace_is_rolled_again_so_a_d6_reaches_8_five_times_in_36() -> None:
    from savage_worlds.odds import die_reaches, trait_reaches, wild_card_reaches

    assert die_reaches(6, 4) == 3 / 6
    assert die_reaches(6, 6) == 1 / 6  # a 6 is an ace: rolled again, 7 or more
    assert die_reaches(6, 7) == 1 / 6  # an ace and anything
    assert die_reaches(6, 8) == pytest.approx(5 / 36)  # an ace, then 2 or more
    assert trait_reaches("1d8!+1", 5) == 5 / 8
    assert trait_reaches("2d6", 5) is None
    assert wild_card_reaches("1d8!", "1d6!", 4) == pytest.approx(1 - (3 / 8) * (3 / 6))


def test_the_attack_form_says_the_chances_before_the_roll(savage_worlds: AnyRuleset) -> None:
    """Bart (Wild Card, d8 and the Wild Die) against Jessie's Parry 6: 6 or more on either die, 10 for a raise."""
    state = fight(("s1", "Jessie", WILD), ("s2", "Bart", WILD))
    named = ids(state)
    state = deal(savage_worlds, state, Jessie="2c", Bart="As")
    line = savage_worlds.form_preview(
        state, "attack", named["Bart"], {"target": named["Jessie"], "range": "melee", "modifier": "1"}
    )
    hit = 1 - (1 - 4 / 8) * (1 - 2 / 6)  # 5 or more: d8 4 faces of 8, d6 5 and 6 (the 6 aces)
    raised = 1 - (1 - 1 / 8) * (1 - 1 / 6 * 4 / 6)  # 9 or more: an ace and anything on the d8, an ace and 3+ on the d6
    assert line == f"Needs 6 (Parry), +1 on the roll: {round(hit * 100)}% to hit, {round(raised * 100)}% with a raise."
    assert line == "Needs 6 (Parry), +1 on the roll: 67% to hit, 22% with a raise."
    assert savage_worlds.form_preview(
        state, "attack", named["Bart"], {"target": named["Jessie"], "range": "ranged", "modifier": ""}
    ).startswith("Needs 4 (at range), +0")
