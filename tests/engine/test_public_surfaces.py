"""No secret reaches any public surface, over random play through the store.

Random fights of the five demos (any options, what the players see of rolls included), played through a
:class:`~tui_combat.fight.store.Store` with undo and redo, with a combatant hidden from the start and more added
hidden, hidden and revealed at random. What the GM types is drawn from a vocabulary that holds the secret
strings, the times a spell can take ("2 rounds", "1 turn") and, outside the secret steps, the words already
said in secret (an effect named after a spell the monsters declared, put on a player). After every action
the players' view (its text in both layouts and its data) is checked; at the end the public report in
Markdown, HTML and JSON, and for some runs the session resumed from disk and looked back at.

Examples: the ``public-secrets-ci`` profile (1,000) when ``CI=true``, else ``public-secrets`` (a hundred, for
a run on a developer's machine). The rules are played directly, not through the screens: fast enough for
CI at a thousand.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import msgspec
from hypothesis import given, note, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from tests.engine.test_public import (
    DEMOS,
    MONSTER_HP,
    SECRET,
    SECRET_NUMBERS,
    SECRET_ROLL,
    SECRETS_PROFILE,
    action_for,
    physical,
    prepared,
    secret_step,
)
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import ROLLS_OPTION, ROLLS_SHOWN, State
from tui_combat.engine.public import public_view
from tui_combat.engine.registry import get
from tui_combat.fight.report import fight_report, html_page, json_text, markdown
from tui_combat.fight.rewind import Timeline
from tui_combat.fight.store import Store
from tui_combat.screens.player_view import view_text

PROFILE = SECRETS_PROFILE

LURKER = "Lurker"
"""In the name of everyone hidden from the players (from the start, or added hidden) and of the side made of them
alone: never on a public surface until the GM first reveals one."""
LURKER_NAMES = ("Lurker", "Lurker, the Chief", 'Lurker; "the Quiet"', "Orc, Lurker's kin", "Big Lurker 2")
"""Names with commas, semicolons, quotes, numbers, and the names of others (Orc) inside them."""
TIMES = ("2 rounds", "1 round", "1 turn", "3", "")
TYPED = ("{secret} cloud {n}", *TIMES[:-1], "{secret} plan {n}")
"""What the GM types in a secret step: secrets, and times a spell can take."""


def typed_in_secret(pick: int) -> str:
    return TYPED[pick % len(TYPED)].format(secret=SECRET, n=pick)


def declaration_values(state: State, combatant_id: str, pick: int) -> dict[str, Any]:
    """A declaration as the GM might fill the form: choices, ticks and numbers at random; in a secret step the
    text fields from the secret vocabulary (the spell, its casting time, a note); elsewhere plain words."""
    values: dict[str, Any] = {}
    for number, field in enumerate(get(state.ruleset).declaration_fields(state, combatant_id)):
        if field.kind == "choice" and field.choices:
            values[field.key] = field.choices[(pick + number) % len(field.choices)][0]
        elif field.kind == "bool":
            values[field.key] = bool((pick + number) % 2)
        elif field.kind == "int":
            values[field.key] = pick % 3
        elif field.kind == "roll":
            values[field.key] = msgspec.to_builtins(physical(pick % 20 + 1))
        else:
            values[field.key] = typed_in_secret(pick + number) if secret_step(state) else f"Plan {pick}"
    return values


def casting(state: State, combatant_id: str, pick: int) -> dict[str, Any]:
    """A spell declared with a secret name (or one from his own list) and a time such as "2 rounds", where the
    book has spells with a casting time; elsewhere a declaration like any other."""
    values = declaration_values(state, combatant_id, pick)
    fields = {field.key: field for field in get(state.ruleset).declaration_fields(state, combatant_id)}
    if "action" in values and "spell" in fields:
        values["action"] = "spell"
        spell = fields["spell"]
        named = [value for value, _label in spell.choices if value]
        values["spell"] = named[pick % len(named)] if spell.kind == "choice" and named else f"{SECRET} cloud {pick}"
        if "casting" in fields:
            values["casting"] = TIMES[pick % len(TIMES)]
    return values


def with_lurker(base: State, name: str = LURKER) -> State:
    """``base`` with a monster hidden from the start, his HP from the secret range, and a side of a hidden one
    alone (who may be revealed, or joined by others, later)."""
    outside = next(side for side in base.sides if not side.is_party)
    state = apply(base, a.AddCombatants(side=outside.id, name=name, hp=MONSTER_HP + 99))
    lurker = state.combatants[-1]
    state = replace(state, combatants=(*state.combatants[:-1], replace(lurker, hidden=True, notes=f"{SECRET} lurks")))
    state = apply(state, a.AddSide(name=f"{LURKER} band"))
    return apply(state, a.AddCombatants(side=state.sides[-1].id, name=f"{name} 2", hp=MONSTER_HP + 98, hidden=True))


Step = tuple[str, int, int]
KINDS = [
    "next",
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
    "cast",
    "cast",
    "cast",
    "effect",
    "secret_effect",
    "secret_effect",
    "secret_effect",
    "slip_note",
    "slip_note",
    "slip_effect",
    "ruleset",
    "ruleset",
    "ruleset",
    "ruleset",
    "hide",
    "reveal",
    "ambush",
    "undo",
    "undo",
    "redo",
    "redo",
]
steps = st.lists(st.tuples(st.sampled_from(KINDS), st.integers(0, 63), st.integers(1, 20)), min_size=1, max_size=40)


def action_of(state: State, step: Step) -> a.Action | None:
    kind, index, amount = step
    people = state.combatants
    target = people[index % len(people)]
    party = [c for c in people if state.side(c.side).is_party]
    if kind in ("declare", "cast"):
        outside = [c for c in people if not state.side(c.side).is_party]
        who = outside[index % len(outside)] if amount % 4 else target
        values = casting(state, who.id, index) if kind == "cast" else declaration_values(state, who.id, index)
        return a.Declare(combatant=who.id, declaration=values)
    if kind == "secret_effect":  # outside a secret step, a word first said in secret, put on a player
        words = [w for w in state.secret_words if SECRET in w]
        if state.phase != "round" or not words or not party or secret_step(state):
            return None
        return a.AddEffect(combatant=party[index % len(party)].id, name=words[index % len(words)][:40], rounds=amount)
    if kind in ("slip_note", "slip_effect"):  # a word said in secret, inside a longer text typed later
        words = [w for w in state.secret_words if SECRET in w]
        if not words or state.phase != "round":
            return None
        word = words[index % len(words)]
        text = (f"Beware {word}!", f"{word} fog", f"3 {word}s", f"the {word.upper()} spreads")[amount % 4]
        if kind == "slip_note":
            return a.Note(text=text)
        return a.AddEffect(combatant=target.id, name=text[:40], rounds=amount)
    if kind in ("hide", "reveal"):
        # Only those called Lurker: hiding one the players have seen is allowed, but his name is in their log.
        lurkers = [c for c in people if LURKER in c.name]
        if not lurkers:
            return None
        return a.SetHidden(combatant=lurkers[index % len(lurkers)].id, hidden=kind == "hide")
    if kind == "ambush":
        outside = [side for side in state.sides if not side.is_party]
        return a.AddCombatants(
            side=outside[index % len(outside)].id, name=LURKER, hp=MONSTER_HP + index, count=1 + amount % 2, hidden=True
        )
    return action_for(state, (kind, index, amount))


def surfaces(state: State) -> str:
    view = public_view(state)
    return "\n".join((view_text(view), view_text(view, large=True), msgspec.json.encode(view).decode()))


def check(state: State, revealed: bool) -> None:
    shown = surfaces(state)
    assert SECRET not in shown, shown
    found = SECRET_NUMBERS.search(shown)
    assert found is None, f"{found.group()} in:\n{shown}" if found else ""
    if not revealed:
        assert LURKER not in shown, shown
    view = public_view(state)
    hidden = {c.name for c in state.combatants if c.hidden}
    assert not hidden & {c.name for group in view.groups for c in group.combatants}


def check_report(store: Store, revealed: bool) -> None:
    report = fight_report(store.base, store.done_actions(), final=store.state, public=True)
    for text in (markdown(report), html_page(report), json_text(report)):
        assert SECRET not in text
        assert revealed or LURKER not in text, text
        found = SECRET_NUMBERS.search(text)
        assert found is None, f"{found.group()} in the public report:\n{text}" if found else ""


def played(store: Store, steps_: list[Step]) -> Iterator[tuple[str, bool]]:
    """Each step dispatched (or undone, redone), refused ones skipped: what was done, and whether a hidden
    combatant was revealed so far (in the state as it stands)."""
    for step in steps_:
        kind = step[0]
        try:
            if kind == "undo":
                if not store.can_undo:
                    continue
                store.undo()
            elif kind == "redo":
                if not store.can_redo:
                    continue
                store.redo()
            else:
                action = action_of(store.state, step)
                if action is None:
                    continue
                store.dispatch(action)
                note(repr(action))
        except (RuleError, ValueError):
            continue
        state = store.state  # revealed in the fight ("X appears"), or in set-up (undone back to it): not hidden then
        yield (
            kind,
            (
                any(e.msg.id == "{name} appears." for e in state.log_entries())
                or any(LURKER in c.name and not c.hidden for c in state.combatants)
            ),
        )


@st.composite
def fights(draw: st.DrawFn) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A demo fight with the ruleset's options and what the players see of rolls drawn."""
    demo = draw(st.sampled_from(DEMOS))
    ruleset = get(demo.ruleset)
    options = [
        (option.key, draw(st.sampled_from([value for value, _label in option.choices]))) for option in ruleset.options
    ]
    options.append((ROLLS_OPTION, draw(st.sampled_from(ROLLS_SHOWN))))
    return demo.file_name, tuple(options)


@PROFILE
@given(
    fight=fights(),
    plans=st.lists(st.integers(0, 63), max_size=3),
    advances=st.sampled_from([0, 0, 1, 3, 6, 9, 12, 16]),
    actions=steps,
    surprise=st.booleans(),
    on_disk=st.integers(0, 7),
    lurker=st.sampled_from(LURKER_NAMES),
)
def test_no_secret_reaches_a_public_surface_through_the_store(
    fight: tuple[str, tuple[tuple[str, str], ...]],
    plans: list[int],
    advances: int,
    actions: list[Step],
    surprise: bool,
    on_disk: int,
    lurker: str,
) -> None:
    """``plans``: spells the monsters declare as the fight opens (in its secret step, where the book has one);
    ``advances``: steps the fight is driven ahead (into the rounds where those spells go on)."""
    base = with_lurker(prepared(*fight), lurker)
    if surprise:
        base = replace(base, surprised=tuple(c.id for c in base.combatants if not base.side(c.side).is_party))
    with TemporaryDirectory() as folder:
        store = Store.create(base, Path(folder) / "fight" if on_disk == 0 else None)
        try:
            store.dispatch(a.StartFight())
            check(store.state, revealed=False)
            revealed = False
            opening: list[Step] = [("cast", pick, 1) for pick in plans]
            for _kind, revealed in played(store, opening + [("advance", n, 1) for n in range(advances)] + actions):
                check(store.state, revealed)
            check_report(store, revealed)
            if store.folder is not None:  # resumed from disk and looked back at, as the GM may
                store.save_now()
                again = Store.resume(store.folder.folder, read_only=True)
                try:
                    assert again.state == store.state
                    timeline = Timeline(again.base, again.done_actions())
                    for position in range(0, timeline.last + 1, max(timeline.last // 4, 1)):
                        looked = timeline.state_at(position)
                        shown = surfaces(looked)
                        assert SECRET not in shown and SECRET_NUMBERS.search(shown) is None, shown
                finally:
                    again.close()
        finally:
            store.close()


def test_the_profile_in_ci_runs_a_thousand_examples() -> None:
    assert settings.get_profile("public-secrets-ci").max_examples >= 1000
    assert SECRET_ROLL > MONSTER_HP  # the secret rolls' range is apart from the monsters' HP
