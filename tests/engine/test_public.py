"""The players' view of a state (:mod:`tui_combat.engine.public`): what it shows, and that no secret ever
reaches the text of the players' screen, over random play of the five demo fights."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from functools import cache
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply, initiative_asked
from tui_combat.engine.contract import Ruleset
from tui_combat.engine.dice import Roll
from tui_combat.engine.encounter import ENCOUNTER_DIR, encounter_actions, load_encounter
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import Msg, render
from tui_combat.engine.model import Combatant, State
from tui_combat.engine.public import HealthScale, health_word, public_view
from tui_combat.engine.registry import get
from tui_combat.fight.session import DEMOS
from tui_combat.fight.store import new_state
from tui_combat.screens.player_view import view_text

SECRET = "ZQX"
"""Every secret text the tests write starts with this (nothing else on screen does)."""
MONSTER_HP = 7000
"""Everyone outside the party gets HP from 7001 up: no such four-digit number may be on screen."""
SECRET_ROLL = 8000
"""A GM-only roll is typed as 8000 and more: no such number may be on screen either."""
SECRET_NUMBERS = re.compile(r"(?<!\d)[78]\d{3}(?!\d)")

_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large]
settings.register_profile("public-secrets-ci", max_examples=1000, deadline=None, suppress_health_check=_HEALTH)
settings.register_profile("public-secrets", max_examples=100, deadline=None, suppress_health_check=_HEALTH)
SECRETS_PROFILE = settings.get_profile("public-secrets-ci" if os.environ.get("CI") == "true" else "public-secrets")
"""The secrets properties' examples: a thousand in CI (``CI=true``), fewer on a developer's machine."""


def state_of(demo_file: str, *, options: dict[str, str] | None = None) -> State:
    state = new_state(1, ruleset="adnd2e")
    for action in encounter_actions(load_encounter(ENCOUNTER_DIR / demo_file), state):
        state = apply(state, action)
    for key, value in (options or {}).items():
        state = apply(state, a.SetOption(key=key, value=value))
    return state


def named(state: State, name: str) -> Combatant:
    return next(c for c in state.combatants if c.name == name)


def physical(total: int, expr: str = "1d20") -> Roll:
    return Roll(expr=expr, total=total, physical=True)


# -- health words ------------------------------------------------------------------------------------------
def test_health_words_follow_the_default_thresholds() -> None:
    troll = Combatant(id="c1", name="Troll", side="s2", hp=20, max_hp=20)
    words = {hp: health_word(replace(troll, hp=hp), HealthScale()) for hp in (20, 19, 11, 10, 1, 0, -3)}
    # below 100 % wounded; at or below 50 % (10 of 20) bloodied; 0 or less down
    assert words == {20: "unhurt", 19: "wounded", 11: "wounded", 10: "bloodied", 1: "bloodied", 0: "down", -3: "down"}
    assert health_word(replace(troll, status="down", hp=5), HealthScale()) == "down"
    assert health_word(replace(troll, status="fled", hp=3), HealthScale()) == "fled"
    assert health_word(replace(troll, status="surrendered"), HealthScale()) == "surrendered"


def test_the_gm_chooses_the_thresholds_and_the_words() -> None:
    scale = HealthScale(wounded_below=75, bloodied_at=25, words={"bloodied": "on his last legs"})
    troll = Combatant(id="c1", name="Troll", side="s2", hp=20, max_hp=20)
    # 16/20 = 80 % and 15/20 = 75 % are not below 75 %; 14/20 = 70 % is; 5/20 = 25 % is at 25 %
    words = {hp: health_word(replace(troll, hp=hp), scale) for hp in (16, 15, 14, 6, 5)}
    assert words == {16: "unhurt", 15: "unhurt", 14: "wounded", 6: "wounded", 5: "on his last legs"}


# -- what the view shows -----------------------------------------------------------------------------------
def adnd2e_in_resolve() -> State:
    """The AD&D 2e demo, round 1, initiative typed: Party 7, Monsters 10 (low goes first: the party)."""
    state = apply(state_of("demo_adnd2e.toml"), a.StartFight())
    state = apply(apply(state, a.NextStep()), a.NextStep())
    return apply(state, a.RollInitiative(rolls={"s1": physical(7, "1d10"), "s5": physical(10, "1d10")}))


def test_the_party_sees_its_own_hp_and_words_for_the_others() -> None:
    state = adnd2e_in_resolve()
    troll, raf = named(state, "Troll 1"), named(state, "Raf")
    state = apply(state, a.Damage(combatant=troll.id, amount=20))  # 16/36: 44 % → bloodied
    state = apply(state, a.Damage(combatant=raf.id, amount=8))  # 30/38
    state = apply(state, a.Heal(combatant=troll.id, amount=2))  # 18/36: 50 % → still bloodied
    view = public_view(state)
    people = {c.name: c for group in view.groups for c in group.combatants}
    assert (people["Raf"].hp, people["Raf"].max_hp, people["Raf"].health) == (30, 38, "wounded")
    assert (people["Troll 1"].hp, people["Troll 1"].max_hp, people["Troll 1"].health) == (None, None, "bloodied")
    assert people["Troll 2"].health == "unhurt"
    lines = [line.text for line in view.log]
    assert "Troll 1 takes 20 damage." in lines and "Troll 1 heals 2." in lines
    assert "Raf takes 8 damage: 30/38 HP." in lines
    assert not any("16/36" in line or "18/36" in line for line in lines)


def test_who_acts_now_and_who_has_acted() -> None:
    state = adnd2e_in_resolve()
    view = public_view(state)
    assert [(g.label, g.now, g.done) for g in view.groups] == [("7", True, False), ("10", False, False)]
    assert [c.name for c in view.now] == ["Raf", "Rupert", "Delsenora"] and view.now_label == "7"
    assert [s.label for s in view.steps if s.current] == ["Resolve"]
    view = public_view(apply(state, a.NextStep()))
    assert [(g.label, g.now, g.done) for g in view.groups] == [("7", False, True), ("10", True, False)]
    assert all(c.acted for c in view.groups[0].combatants) and all(c.acting for c in view.groups[1].combatants)
    view = public_view(apply(apply(state, a.NextStep()), a.NextStep()))  # the end of the round: everyone has acted
    assert [(g.now, g.done) for g in view.groups] == [(False, True), (False, True)] and view.now == ()


def test_secret_notes_never_show_and_public_ones_do() -> None:
    state = adnd2e_in_resolve()
    state = apply(state, a.Note(text="ZQX the trolls regenerate", secret=True))
    state = apply(state, a.Note(text="Torches gutter in the draught"))
    state = apply(state, a.EditCombatant(combatant=named(state, "Troll 1").id, notes="ZQX weak to fire"))
    text = view_text(public_view(state))
    assert "Torches gutter in the draught" in text
    assert SECRET not in text


def test_what_is_done_in_a_secret_step_stays_secret() -> None:
    """AD&D 2e: the round opens with the monsters' intentions, decided in secret."""
    state = apply(state_of("demo_adnd2e.toml"), a.StartFight())
    assert get("adnd2e").steps(state)[state.step].secret
    before = len(state.log_entries())
    state = apply(state, a.Note(text="ZQX the orcs will flee at the first death"))  # a note the GM forgot to mark
    state = apply(
        state,
        a.Declare(
            combatant=named(state, "Troll 1").id, declaration={"action": "weapon", "text": "ZQX goes for the wizard"}
        ),
    )
    assert [e.secret for e in state.log_entries()[before:]] == [True]
    view = public_view(state)
    assert [(s.label, s.secret) for s in view.steps if s.current] == [("Monsters", True)]
    assert SECRET not in view_text(view) and SECRET not in view_text(view, large=True)
    state = apply(state, a.NextStep())  # the players' declarations: public again
    state = apply(state, a.Note(text="Raf shouts a warning"))
    assert "Raf shouts a warning" in view_text(public_view(state))


def test_effects_show_with_their_rounds_unless_put_on_in_secret() -> None:
    state = adnd2e_in_resolve()
    state = apply(state, a.AddEffect(combatant=named(state, "Troll 1").id, name="hasted", rounds=2))
    state = apply(state, a.AddEffect(combatant=named(state, "Raf").id, name="blessed", rounds=1))
    people = {c.name: c for group in public_view(state).groups for c in group.combatants}
    assert people["Troll 1"].conditions == ("hasted: 2 rounds",) and people["Raf"].conditions == ("blessed: 1 round",)
    secret = apply(state_of("demo_adnd2e.toml"), a.StartFight())  # the monsters' intentions: a secret step
    secret = apply(secret, a.AddEffect(combatant=named(secret, "Troll 1").id, name="ZQX charmed", rounds=3))
    assert secret.effects[-1].secret and SECRET not in view_text(public_view(secret))
    ended = apply(apply(secret, a.NextStep()), a.EndEffect(effect=secret.effects[-1].id))  # ended in an open step
    assert ended.log_entries()[-1].secret and SECRET not in view_text(public_view(ended))


def test_declarations_are_as_secret_as_the_book_makes_them() -> None:
    """Old-School Essentials announces every declaration, the referee's too (a caster can be hit before his
    side's magic phase): they show. 5e's speed factor declares the monsters' actions in secret: they do not."""
    state = apply(state_of("demo_ose.toml"), a.StartFight())
    state = apply(
        state, a.Declare(combatant=named(state, "Goblin 1").id, declaration={"intent": "spell", "what": "curse"})
    )
    assert "Goblin 1 declares a spell: curse." in view_text(public_view(state))
    state = apply(state_of("demo_dnd5e.toml", options={"initiative": "speed_factor"}), a.StartFight())
    assert get("dnd5e").steps(state)[state.step].kind == "declare"
    state = apply(
        state,
        a.Declare(combatant=named(state, "Bugbear").id, declaration={"action": "attack", "weapon": "morningstar"}),
    )
    state = apply(state, a.Declare(combatant=named(state, "Oswin").id, declaration={"action": "other"}))
    text = view_text(public_view(state))
    assert "Bugbear declares" not in text and "Oswin declares another action" in text


def test_an_order_rolled_in_secret_shows_only_as_it_comes() -> None:
    """5e speed factor: every creature rolls in secret; the view lists only the slots that acted and the one
    acting now, without their counts; the others wait, unordered."""
    state = apply(state_of("demo_dnd5e.toml", options={"initiative": "speed_factor"}), a.StartFight())
    ruleset = get("dnd5e")
    state = apply(state, a.NextStep()) if ruleset.steps(state)[state.step].kind == "declare" else state
    requests, _fresh = initiative_asked(ruleset, state)
    assert requests and all(r.secret for r in requests)
    totals = {r.key: physical(SECRET_ROLL + 100 + 7 * index) for index, r in enumerate(requests)}
    state = apply(state, a.RollInitiative(rolls=totals))
    while state.initiative.pending:  # roll-offs, secret too
        state = apply(
            state,
            a.RollInitiative(
                rolls={r.key: physical(SECRET_ROLL + 1 + i) for i, r in enumerate(state.initiative.pending)}
            ),
        )
    assert state.order and ruleset.steps(state)[state.step].kind == "resolve"
    view = public_view(state)
    assert view.order_hidden
    slots = [g for g in view.groups if g.kind == "slot"]
    assert len(slots) == 1 and slots[0].now and slots[0].label == "" and view.now_label == ""
    first = {c.name for c in slots[0].combatants}
    waiting = [g for g in view.groups if g.kind == "waiting"]
    everyone = {c.name for c in state.combatants if c.status == "active"}
    assert {c.name for g in waiting for c in g.combatants} == everyone - first
    text = view_text(public_view(state))
    assert not SECRET_NUMBERS.search(text), text


# -- the property: no secret ever reaches the screen --------------------------------------------------------
@cache
def prepared(demo_file: str, options: tuple[tuple[str, str], ...]) -> State:
    """The demo with its options, every GM note a secret, and HP outside the party from 7001 up."""
    state = state_of(demo_file, options=dict(options))
    party = {side.id for side in state.sides if side.is_party}
    combatants = []
    for number, combatant in enumerate(state.combatants, start=1):
        combatant = replace(combatant, notes=f"{SECRET} note {number}", secret_notes=f"{SECRET} secret {number}")
        if combatant.side not in party:
            combatant = replace(combatant, hp=MONSTER_HP + number * 3, max_hp=MONSTER_HP + number * 3)
        combatants.append(combatant)
    return replace(state, combatants=tuple(combatants))


@st.composite
def fights(draw: st.DrawFn) -> tuple[str, tuple[tuple[str, str], ...]]:
    demo = draw(st.sampled_from(DEMOS))
    ruleset = get(demo.ruleset)
    options = tuple(
        (option.key, draw(st.sampled_from([value for value, _label in option.choices]))) for option in ruleset.options
    )
    return demo.file_name, options


Step = tuple[str, int, int]
steps = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "next",
                "next",
                "next",
                "roll",
                "roll",
                "roll",
                "back",
                "damage",
                "damage",
                "heal",
                "status",
                "secret_note",
                "public_note",
                "declare",
                "declare",
                "effect",
                "ruleset",
                "ruleset",
                "ruleset",
                "ruleset",
            ]
        ),
        st.integers(0, 63),
        st.integers(1, 20),
    ),
    min_size=1,
    max_size=24,
)


def declaration_values(state: State, combatant_id: str, pick: int) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for field in get(state.ruleset).declaration_fields(state, combatant_id):
        if field.kind == "choice" and field.choices:
            values[field.key] = field.choices[pick % len(field.choices)][0]
        elif field.kind == "bool":
            values[field.key] = bool(pick % 2)
        elif field.kind == "int":
            values[field.key] = pick % 3
        elif field.kind == "roll":
            values[field.key] = msgspec.to_builtins(physical(pick % 20 + 1))
        else:  # in a secret step the GM's words are secret; elsewhere the book may have them announced
            values[field.key] = f"{SECRET} plan {pick}" if secret_step(state) else f"Plan {pick}"
    return values


def secret_step(state: State) -> bool:
    steps = get(state.ruleset).steps(state) if state.phase == "round" else ()
    return 0 <= state.step < len(steps) and steps[state.step].secret


def ruleset_action(state: State, index: int, pick: int) -> a.Action | None:
    ruleset = get(state.ruleset)
    spec = ruleset.actions[index % len(ruleset.actions)]
    acting = state.acting_now()
    target = acting[pick % len(acting)] if acting and pick % 3 else state.combatants[pick % len(state.combatants)].id
    args: dict[str, Any] = {"combatant": target} if spec.needs_combatant else {}
    for field in ruleset.action_fields(state, spec.name, target):
        if field.kind == "roll":
            args[field.key] = msgspec.to_builtins(physical(pick % 20 + 1, str(field.default) or "1d20"))
        elif field.kind == "choice" and field.choices:
            args[field.key] = field.choices[pick % len(field.choices)][0]
        elif field.kind == "str":  # an effect's name, a spell cast: what the players see happen
            args[field.key] = field.default if field.default else f"Blessing {pick}"
        else:
            args[field.key] = field.default
    return a.RulesetAction(name=spec.name, args=args)


def action_for(state: State, step: Step) -> a.Action | None:
    kind, index, amount = step
    people = state.combatants
    target = people[index % len(people)]
    party = {side.id for side in state.sides if side.is_party}
    if kind == "next":
        return a.NextStep()
    if kind == "back":
        return a.PreviousStep()
    if kind == "roll" or kind == "advance":
        if state.phase != "round":
            return None
        requests, fresh = initiative_asked(get(state.ruleset), state)
        if kind == "advance" and (
            state.initiative.settled and not state.initiative.pending or not requests and not fresh
        ):
            return a.NextStep()
        return a.RollInitiative(
            rolls={
                r.key: physical(SECRET_ROLL + index * 10 + i if r.secret else (index + i) % 20 + 1)
                for i, r in enumerate(requests)
            }
        )
    if kind == "damage":
        return a.Damage(combatant=target.id, amount=amount)
    if kind == "heal":
        return a.Heal(combatant=target.id, amount=amount)
    if kind == "status":
        return a.SetStatus(combatant=target.id, status=("active", "down", "fled", "surrendered")[amount % 4])
    if kind == "secret_note":
        return a.Note(text=f"{SECRET} note {index}", secret=True)
    if kind == "public_note":  # not marked secret; in a secret step it is secret all the same
        return a.Note(text=f"{SECRET} aside {index}" if secret_step(state) else f"Loud noise {index}")
    if kind == "effect":  # named after a secret in a secret step: hidden; else the players see it
        if state.phase != "round":
            return None
        name = f"{SECRET} charm {index}" if secret_step(state) else f"dazzled {index}"
        return a.AddEffect(combatant=target.id, name=name, rounds=amount)
    if kind == "declare":
        outside = [c for c in people if c.side not in party]
        who = outside[index % len(outside)] if amount % 4 else target
        return a.Declare(combatant=who.id, declaration=declaration_values(state, who.id, index))
    return ruleset_action(state, index, amount)


def check_nothing_secret(state: State) -> None:
    view = public_view(state)
    shown = "\n".join((view_text(view), view_text(view, large=True), msgspec.json.encode(view).decode()))
    assert SECRET not in shown, shown
    found = SECRET_NUMBERS.search(shown)
    assert found is None, f"{found.group()} in:\n{shown}" if found else ""


def played(base: State, advances: int, actions: list[Step], surprise: bool) -> Iterator[tuple[a.Action, State]]:
    """The fight started from ``base`` (its monsters surprised or not), driven ahead ``advances`` steps, then
    ``actions``: each action the rules took, with the state after it (a refused one is skipped)."""
    if surprise:  # the GM rules the monsters surprised
        base = replace(base, surprised=tuple(c.id for c in base.combatants if not base.side(c.side).is_party))
    state = apply(base, a.StartFight())
    yield a.StartFight(), state
    for step in [("advance", number, 1) for number in range(advances)] + actions:
        try:
            action = action_for(state, step)
            if action is None:
                continue
            state = apply(state, action)
        except (RuleError, ValueError):
            continue
        note(repr(action))
        yield action, state


@pytest.mark.slow
@SECRETS_PROFILE
@given(fight=fights(), advances=st.integers(0, 8), actions=steps, surprise=st.booleans())
def test_no_secret_ever_reaches_the_players_screen(
    fight: tuple[str, tuple[tuple[str, str], ...]], advances: int, actions: list[Step], surprise: bool
) -> None:
    """From one of the demo fights (any options, its monsters surprised or not), the fight driven ahead a few
    steps, then random actions: after each, nothing secret is in the view's text, in either layout."""
    for action, state in played(prepared(*fight), advances, actions, surprise):
        check_nothing_secret(state)
        if isinstance(action, a.Note) and not action.secret and not state.log_entries()[-1].secret:
            assert action.text in view_text(public_view(state))  # what is public does show


@settings(max_examples=60, deadline=None)
@given(fight=fights(), advances=st.integers(0, 8), actions=steps, surprise=st.booleans())
def test_each_rulesets_own_public_conditions_are_what_its_card_shows(
    fight: tuple[str, tuple[tuple[str, str], ...]], advances: int, actions: list[Step], surprise: bool
) -> None:
    """A ruleset that works out the players' conditions on its own (not from its whole card) gives what the
    card's condition lines give (:meth:`Ruleset.public_conditions` by default), at every point of a fight (a
    condition given as a message, to be read as a log line's parameter, by its text)."""

    def texts(conditions: tuple[str | Msg, ...]) -> tuple[str, ...]:
        return tuple(render(condition) if isinstance(condition, Msg) else condition for condition in conditions)

    for _action, state in played(prepared(*fight), advances, actions, surprise):
        ruleset = get(state.ruleset)
        for combatant in state.combatants:
            assert texts(ruleset.public_conditions(state, combatant.id)) == texts(
                Ruleset.public_conditions(ruleset, state, combatant.id)
            ), combatant.name


@pytest.mark.parametrize("demo", [demo.file_name for demo in DEMOS])
def test_the_conditions_of_the_fallen_and_the_dying_are_what_the_card_shows(demo: str) -> None:
    """Everyone brought to 0 (a 5e character then makes death saves, a monster dies; AD&D's dead), then the
    first of them healed: the players see the card's words at each point."""
    state = apply(prepared(demo, ()), a.StartFight())
    ruleset = get(state.ruleset)
    for combatant in state.combatants:
        state = apply(state, a.Damage(combatant=combatant.id, amount=max(combatant.hp, 1)))
        seen = {c.id: ruleset.public_conditions(state, c.id) for c in state.combatants}
        assert seen == {c.id: Ruleset.public_conditions(ruleset, state, c.id) for c in state.combatants}
    if state.ruleset in ("adnd2e", "players_option", "dnd5e"):  # dead, dying: OSE's and Trudvang's cards have no word
        assert any(seen.values()), "nobody's state has a word"
    try:
        state = apply(state, a.Heal(combatant=state.combatants[0].id, amount=1))
    except RuleError:  # OSE: the dead stay dead
        return
    first = state.combatants[0].id
    assert ruleset.public_conditions(state, first) == Ruleset.public_conditions(ruleset, state, first)
