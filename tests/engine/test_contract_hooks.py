"""The contract's hooks for results that are not dice, actors outside the order, conditions on the players'
screen and the book's own words for a hit: small rulesets of the shape each hook is for, and the defaults
that keep every numeric ruleset as it was."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from tests.common import ids, order_names, typed
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply, initiative_asked
from tui_combat.engine.contract import Health, NoState, Ruleset, Waiting
from tui_combat.engine.dice import Roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, render
from tui_combat.engine.model import Combatant, RollRequest, State
from tui_combat.engine.public import public_view
from tui_combat.i18n import N_, _

LETTERS = "ABCDEFGHIJ"


class Letters(Ruleset[NoState, NoState]):
    """Each combatant draws a letter; A acts first. Whoever draws J waits outside the order."""

    id = "letters"
    name = "Letters"
    round_state_type = NoState
    fight_state_type = NoState

    def initiative_requests(self, state: State) -> tuple[RollRequest, ...]:
        return tuple(
            RollRequest(key=c.id, label=Msg(id="{name}", params={"name": c.name}), dice="", combatants=(c.id,))
            for c in state.combatants
            if c.status == "active"
        )

    def draws_initiative(self, state: State, request: RollRequest) -> bool:
        return True

    def draw_initiative(
        self,
        state: State,
        requests: tuple[RollRequest, ...],
        rng: random.Random,
        taken: Mapping[str, Roll] | None = None,
    ) -> dict[str, Roll]:
        return {r.key: Roll(expr="", total=rng.randint(1, len(LETTERS)), faces=()) for r in requests}

    def read_initiative(self, state: State, request: RollRequest, typed_text: str) -> Roll:
        letter = typed_text.strip().upper()
        if len(letter) != 1 or letter not in LETTERS:
            raise RuleError(_("a letter from A to J"))
        return Roll(expr="", total=LETTERS.index(letter) + 1, physical=True)

    def initiative_line(self, state: State, request: RollRequest, result: Roll) -> Msg:
        return Msg(id="{label} draws {letter}.", params={"label": request.label, "letter": LETTERS[result.total - 1]})

    def initiative_value(self, state: State, request: RollRequest, result: Roll) -> int:
        return len(LETTERS) + 1 - result.total  # A first: 10, B 9 … J 1

    def out_of_order(self, state: State) -> tuple[Waiting, ...]:
        drawn = state.initiative.rolls
        return tuple(
            Waiting(combatant=key, label=Msg(id="waits"))
            for key, result in drawn.items()
            if result.total == len(LETTERS) and not any(key in slot.combatants for slot in state.order)
        )

    def order(self, state: State, totals: dict[str, int]) -> tuple[Any, ...]:
        return super().order(state, {key: value for key, value in totals.items() if value != 1})

    def on_turn_start(self, state: State, slot: int) -> State:
        return _turn_logged(state, slot)


def _turn_logged(state: State, slot: int) -> State:
    from tui_combat.engine.log import log

    names = ", ".join(state.combatant(c).name for c in state.order[slot].combatants)
    return log(state, Msg(id="turn of {names}", params={"names": names}))


@pytest.fixture
def letters() -> Iterator[Letters]:
    ruleset = Letters()
    registry.register(ruleset)
    yield ruleset
    registry.forget()


def started(ruleset_id: str, *names: str) -> State:
    state = State(seed=1)
    for action in (a.SetRuleset(ruleset=ruleset_id), a.AddSide(name="Heroes", is_party=True), a.AddSide(name="Foes")):
        state = apply(state, action)
    for number, name in enumerate(names):
        state = apply(state, a.AddCombatants(side="s1" if number % 2 == 0 else "s2", name=name, hp=10))
    return apply(state, a.StartFight())


def test_a_result_that_is_not_dice_is_read_logged_and_ordered_by_the_ruleset(letters: Letters) -> None:
    state = started("letters", "Ada", "Orc", "Bram")
    requests, _fresh = initiative_asked(letters, state)
    rolls = {r.key: letters.read_initiative(state, r, text) for r, text in zip(requests, ("c", "A", "B"))}
    state = apply(state, a.RollInitiative(rolls=rolls))
    assert order_names(state) == [["Orc"], ["Bram"], ["Ada"]]
    entries = state.log_entries()
    assert [e.text for e in entries if "draws" in e.text] == ["Ada draws C.", "Orc draws A.", "Bram draws B."]
    assert [e.facts["total"] for e in entries if "draws" in e.text] == [8, 10, 9]  # the ruleset's sort key
    with pytest.raises(RuleError, match="a letter from A to J"):
        letters.read_initiative(state, requests[0], "K")


def test_numeric_rulesets_keep_the_engines_initiative_line_and_totals() -> None:
    ruleset = registry.get("ose")
    state = State()
    request = RollRequest(key="s1", label=Msg(id="{name}", params={"name": "Party"}), dice="1d6", modifier=1)
    assert not ruleset.draws_initiative(state, request)
    result = ruleset.read_initiative(state, request, "4")
    assert result == typed("1d6", 4)
    assert render(ruleset.initiative_line(state, request, result)) == "Initiative — Party: 1d6 (typed): 4 +1 = 5."
    assert ruleset.initiative_value(state, request, result) == 5
    drawn = ruleset.draw_initiative(state, (request,), random.Random(3))
    assert drawn["s1"].expr == "1d6" and 1 <= drawn["s1"].total <= 6
    with pytest.raises(RuleError):
        ruleset.read_initiative(state, request, "9")  # a d6 cannot show 9


def test_one_waiting_outside_the_order_comes_in_before_the_slot_acting(letters: Letters) -> None:
    state = started("letters", "Ada", "Orc", "Bram")
    requests, _fresh = initiative_asked(letters, state)
    rolls = {r.key: letters.read_initiative(state, r, text) for r, text in zip(requests, ("J", "A", "B"))}
    state = apply(state, a.RollInitiative(rolls=rolls))
    named = ids(state)
    assert order_names(state) == [["Orc"], ["Bram"]]
    assert letters.turn_marker(state, named["Ada"], None) == "waits"  # the default marker says why he waits
    with pytest.raises(RuleError, match="Orc is not waiting outside the order."):
        apply(state, a.BringIn(combatant=named["Orc"]))
    state = apply(state, a.NextStep())  # Bram's turn
    state = apply(state, a.BringIn(combatant=named["Ada"]))
    assert order_names(state) == [["Orc"], ["Ada"], ["Bram"]] and state.acting_now() == (named["Ada"],)
    texts = [e.text for e in state.log_entries()]
    assert texts[-2:] == ["Ada comes in (waits) and acts now, before 9.", "turn of Ada"]  # on_turn_start fired
    state = apply(state, a.NextStep())
    assert state.acting_now() == (named["Bram"],) and state.log_entries()[-1].text == "turn of Bram"
    view = public_view(state)
    assert "waiting" not in [group.kind for group in view.groups]


def test_bringing_in_is_refused_outside_the_turns(letters: Letters) -> None:
    state = started("letters", "Ada", "Orc")
    with pytest.raises(RuleError, match="not waiting"):
        apply(state, a.BringIn(combatant=ids(state)["Ada"]))


class Shaken(msgspec.Struct, frozen=True, kw_only=True):
    shaken: tuple[str, ...] = ()


class Grit(Ruleset[NoState, Shaken]):
    """A hit of 5 or more shakes; the log says so in the book's words; the players see who is shaken."""

    id = "grit"
    name = "Grit"
    round_state_type = NoState
    fight_state_type = Shaken

    def after_damage(self, state: State, combatant: Combatant, amount: int, *, critical: bool = False) -> Health:
        health = super().after_damage(state, combatant, amount, critical=critical)
        return replace(health, said=Msg(id=N_("{name} reels."), params={"name": combatant.name}))

    def on_damage(self, state: State, combatant_id: str, amount: int, *, critical: bool = False) -> State:
        fight = self.fight_of(state)
        return self.with_fight(state, replace(fight, shaken=(*fight.shaken, combatant_id))) if amount >= 5 else state

    def public_conditions(self, state: State, combatant_id: str) -> tuple[str, ...]:
        return ("shaken",) if combatant_id in self.fight_of(state).shaken else ()

    def details(self, state: State, combatant_id: str) -> tuple[tuple[str, str], ...]:
        return ((_("Condition"), "gritty"), ("Secret plan", "flee"))


def test_the_book_words_a_hit_and_puts_its_condition_on_the_players_screen() -> None:
    ruleset = Grit()
    registry.register(ruleset)
    try:
        state = started("grit", "Ada", "Orc")
        state = apply(state, a.Damage(combatant=ids(state)["Orc"], amount=6))
        entry = state.log_entries()[-1]
        assert entry.text == "Orc reels." and entry.facts == {"damage": 6, "hp": 4, "hp_before": 10}
        orc = next(c for g in public_view(state).groups for c in g.combatants if c.name == "Orc")
        assert orc.conditions == ("shaken",)
        # The default: the details labelled as conditions, nothing else of them.
        assert Ruleset.public_conditions(ruleset, state, ids(state)["Orc"]) == ("gritty",)
    finally:
        registry.forget()
