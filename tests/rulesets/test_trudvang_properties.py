"""Trudvang properties over random sheets and random play, checked against a small model of the rules
written here (not the ruleset's own functions): CP pools as the seed builds them, what each action costs,
what may refuse it.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import HealthCheck, event, given, note, settings
from hypothesis import strategies as st

from tests.rulesets.trudvang_fight import cid, d10, d20, fight, next_round, roll_initiative
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.fight.store import Store
from tui_combat.rulesets.trudvang import RULESET, Budget, cp_available, cp_pools, sheet_from_fields

DATA = RULESET.data
WEAPON_NAMES = [w.name for w in DATA.weapons.values()]
CP_DISCIPLINES = [s.name for s in DATA.disciplines.values() if s.field is None]
CP_SPECIALTIES = [s.name for s in DATA.specialties.values() if s.field is None]
UNARMED_ATTACKS = 4  # the seed: at most 4 unarmed attacks a round


@st.composite
def sheets(draw: st.DrawFn) -> dict[str, Any]:
    weapons = draw(st.lists(st.sampled_from(WEAPON_NAMES), min_size=0, max_size=3, unique=True))
    disciplines = draw(st.dictionaries(st.sampled_from(CP_DISCIPLINES), st.integers(0, 4), max_size=3))
    specialties = draw(st.dictionaries(st.sampled_from(CP_SPECIALTIES), st.integers(0, 4), max_size=3))
    return {
        "sv": draw(st.integers(0, 20)),
        "weapons": ", ".join(weapons),
        "shield": draw(st.sampled_from(["none", *DATA.shields])),
        "armour": draw(st.sampled_from(["none", *DATA.armour])),
        "disciplines": "; ".join(f"{name} {level}" for name, level in disciplines.items()),
        "specialties": "; ".join(f"{name} {level}" for name, level in specialties.items()),
        "wrestling": draw(st.integers(0, 12)),
        "ambidexter": draw(st.integers(0, 5)),
        "shield_bearer": draw(st.integers(0, 1)),
        "str_mod": draw(st.integers(-2, 2)),
        "agi_mod": draw(st.integers(-2, 2)),
    }


# -- the model ----------------------------------------------------------------------------------------------
def model_pools(sheet: dict[str, Any]) -> dict[str, int]:
    """CP by lock as the seed builds them: the Combat SV is general; each level of a discipline or specialty
    adds its CP per level to its lock (a lock's name compared without case or hyphens)."""
    pools = {"general": sheet["sv"]}
    for table, text in ((DATA.disciplines, sheet["disciplines"]), (DATA.specialties, sheet["specialties"])):
        for part in filter(None, (p.strip() for p in text.split(";"))):
            name, level = part.rsplit(" ", 1)
            skill = next(s for s in table.values() if s.name == name)
            cp = int(level) * skill.cp_per_level
            if cp:
                kind, _colon, target = skill.lock.partition(":")
                lock = f"{kind}:{target.lower().replace('-', ' ')}" if target else kind
                pools[lock] = pools.get(lock, 0) + cp
    return pools


def model_weapon_actions(sheet: dict[str, Any]) -> dict[str, int]:
    actions = {w.name: w.actions for w in DATA.weapons.values() if w.name in sheet["weapons"].split(", ")}
    if sheet["shield"] != "none":
        actions["shield"] = DATA.shields[sheet["shield"]].actions
    return actions


COST_PER_SV = {"grapple": 2, "glima": 2, "break_free": 3, "glima_defence": 3}  # the seed's rates
REFUSALS = re.compile(
    "|".join(
        (
            r"^Put at least 1 CP into the (attack|parry|dodge)\.$",
            r"^Not enough CP: ",
            r"weapon actions a round; .* has used them all",
            r"weapon action a round; .* has used it\.$",
            r"has made all 4 unarmed attacks this round",
            r"It is not .*'s turn",
            r"turn has passed",
            r"has no place in the countdown",
            r"gave up his turn this round",
            r"is holding his action",
            r"The countdown has not started",
            r"No hit on .* to defend against",
            r"missed: there is nothing to",
            r"has already tried to defend against attack",
            r"A ranged attack cannot be parried",
            r"A Glima is stopped with a Glima defence",
            r"is held by .*: he can only try to break free",
            r"is not held by anyone",
            r"can try to break free at his call",
            r"does not hold .*: Glima throws a grappled opponent",
            r"^Buy at least SV 1 for",
            r"has no Wrestling SV",
            r"cannot buy SV \d+ for",
            r"has already tried .* this round",
            r"has no shield",
            r'has no ".*" on his sheet',
            r"did not declare his shield",
            r"this round: change the action first",
            r"did not count the IM of",
            r"declared a weapon in each hand",
            r"is already acting on a held action",
            r"has already acted this turn",
            r"is not holding an action",
            r"has already given up his turn",
            r"has already acted this round",
            r"call has come: he can no longer change",
            r"has no initiative this round",
            r"The round is over\.",
            r"cannot be done now\.$",
            r"^Roll initiative first\.$",  # after undoing the first roll
        )
    )
)
NOT_ENOUGH = re.compile(r"^Not enough CP: .* has (?P<left>\d+) left for .*, needs (?P<needed>\d+)\.$")


def budget_of(state: State, combatant: str) -> Budget:
    return RULESET.budget_of(state, RULESET.round_of(state), combatant)


def cp_total(state: State, combatant: str) -> int:
    return sum(meter.left for meter in budget_of(state, combatant).pools.values())


def weapon_actions_left(state: State, combatant: str) -> int:
    return sum(meter.left for meter in budget_of(state, combatant).actions.values())


def check_meters(state: State, combatant: str, sheet: dict[str, Any]) -> None:
    """No meter below 0 or above its total, and every total as the model has it."""
    own = budget_of(state, combatant)
    assert {pool: meter.total for pool, meter in own.pools.items()} == model_pools(sheet)
    assert {item: meter.total for item, meter in own.actions.items()} == model_weapon_actions(sheet)
    assert own.unarmed.total == UNARMED_ATTACKS
    for meter in (*own.pools.values(), *own.actions.values(), own.unarmed):
        assert 0 <= meter.left <= meter.total


OPERATIONS = (
    ["attack"] * 4
    + ["parry"] * 2
    + [
        "dodge",
        "attack+parry",
        "attack+parry",
        "attack+dodge",
        "grapple",
        "grapple+glima",
        "break_free",
        "glima_defence",
        "hold",
        "act_held",
        "skip",
        "change",
        "next",
        "next",
    ]
)
STEPS = st.tuples(
    st.sampled_from(OPERATIONS),
    st.sampled_from((0, 0, 0, 1)),
    st.integers(0, 5),
    st.integers(0, 15),
    st.one_of(st.integers(1, 5), st.integers(1, 20)),
)  # low d20s hit, so there is something to parry
Step = tuple[str, int, int, int, int]


def expand(steps: list[Step]) -> list[Step]:
    """ "attack+parry" → an attack, then a parry against it (with the same numbers)."""
    return [(name, *rest) for first, *rest in steps for name in first.split("+")]  # type: ignore[misc]


DEFENCES = ("parry", "dodge", "glima_defence")


def action_for(state: State, ids: list[str], step: Step) -> tuple[a.Action, int, str]:
    """The action a random step stands for, its CP cost as the model reckons it, and who takes it.

    ``who`` 0 is the likely one (the combatant acting now; for a defence, the other), 1 the other."""
    name, who, item_index, amount, face = step
    acting = [c for c in state.acting_now() if c in ids]
    actor = acting[0] if acting else ids[0]
    defender = ids[1] if actor == ids[0] else ids[0]
    me = (defender if who == 0 else actor) if name in DEFENCES else (actor if who == 0 else defender)
    other = ids[1] if me == ids[0] else ids[0]
    if name == "next":
        return a.NextStep(), 0, me
    items = ["", "unarmed", "shield", *(w.name for w in RULESET.sheet_of(state.combatant(me)).weapons)]
    item = items[item_index % len(items)]
    if name == "change":
        args = {"combatant": me, "weapon": item or "unarmed", "shield": item_index % 2 == 0}
        return a.RulesetAction(name="change_action", args=args), 0, me
    args = {"combatant": me, "roll": msgspec.to_builtins(d20(face))}
    if name in ("attack", "grapple", "glima"):
        args["target"] = other
    if name in ("attack", "parry", "dodge"):
        args.update(cp=amount, weapon=item)
        return a.RulesetAction(name=name, args=args), amount, me
    if name in COST_PER_SV:
        args["sv"] = amount
        return a.RulesetAction(name=name, args=args), amount * COST_PER_SV[name], me
    return a.RulesetAction(name=name, args=args), 0, me


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    sheet_a=sheets(),
    sheet_b=sheets(),
    steps=st.lists(STEPS, min_size=3, max_size=30),
    rolls=st.tuples(st.integers(1, 10), st.integers(1, 10)),
)
def test_random_play_spends_exactly_what_each_action_costs(
    sheet_a: dict[str, Any], sheet_b: dict[str, Any], steps: list[Step], rolls: tuple[int, int]
) -> None:
    """Each action that goes through takes exactly its cost from the CP (and one weapon action or unarmed
    attack when the rules say so) and nothing from anyone else; each refusal is one the rules give, with
    the right numbers; a new round gives back the budget the model builds from the sheet."""
    state = fight(("Heroes", "A", sheet_a), ("Foes", "B", sheet_b))
    ids = [cid(state, "A"), cid(state, "B")]
    sheets_by_id = {ids[0]: sheet_a, ids[1]: sheet_b}
    state = roll_initiative(state, A=d10(rolls[0]), B=d10(rolls[1]))
    first_round = state.round
    for step in expand(steps):
        action, cost, me = action_for(state, ids, step)
        name = step[0]
        try:
            after = apply(state, action)
        except RuleError as error:
            assert REFUSALS.search(str(error)), f"unexpected refusal: {error}"
            short = NOT_ENOUGH.match(str(error))
            if short is not None:
                assert int(short["needed"]) == cost and int(short["left"]) < cost
                assert int(short["left"]) <= cp_total(state, me)
            event(f"{name} refused: " + str(error).split(":")[0][-40:])
            continue
        event(f"{name} done")
        if after.round != state.round:
            state = after
            break
        other = ids[1] if me == ids[0] else ids[0]
        assert cp_total(state, other) - cp_total(after, other) == 0
        assert cp_total(state, me) - cp_total(after, me) == cost
        weapon_actions = weapon_actions_left(state, me) - weapon_actions_left(after, me)
        unarmed = budget_of(state, me).unarmed.left - budget_of(after, me).unarmed.left
        if name == "attack":
            assert (weapon_actions, unarmed) in ((1, 0), (0, 1))  # a weapon action, or one of the unarmed attacks
        elif name == "parry":
            assert (weapon_actions, unarmed) in ((1, 0), (0, 0))  # an unarmed parry uses neither
        elif name in ("grapple", "glima"):
            assert (weapon_actions, unarmed) == (0, 1)
        else:
            assert (weapon_actions, unarmed) == (0, 0)
        state = after
        for combatant in ids:
            check_meters(state, combatant, sheets_by_id[combatant])
        placed = [c for slot in state.order for c in slot.combatants]
        assert all(slot.combatants for slot in state.order) and len(placed) == len(set(placed))
        note(f"{name}: {state.log_entries()[-1].text}")
    if state.round == first_round:
        state = next_round(state)
    for combatant in ids:
        fresh = budget_of(state, combatant)
        assert {pool: (meter.left, meter.total) for pool, meter in fresh.pools.items()} == {
            pool: (cp, cp) for pool, cp in model_pools(sheets_by_id[combatant]).items()
        }
        assert {item: (m.left, m.total) for item, m in fresh.actions.items()} == {
            item: (n, n) for item, n in model_weapon_actions(sheets_by_id[combatant]).items()
        }
        assert (fresh.unarmed.left, fresh.unarmed.total) == (UNARMED_ATTACKS, UNARMED_ATTACKS)


@settings(max_examples=80, deadline=None)
@given(sheet=sheets())
def test_random_sheets_read_back_and_cp_adds_up(sheet: dict[str, Any]) -> None:
    resolved = sheet_from_fields(sheet)
    assert sheet_from_fields(msgspec.to_builtins(resolved)) == resolved
    assert cp_pools(resolved) == model_pools(sheet)
    pools = model_pools(sheet)
    for weapon in resolved.weapons:
        assert resolved.sv <= cp_available(resolved, weapon.name) <= sum(pools.values())
    assert cp_available(resolved, "dodge") == sheet["sv"]  # a dodge uses general CP only


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheet_a=sheets(), sheet_b=sheets(), steps=st.lists(st.one_of(STEPS, st.just(("undo", 0, 0, 0, 0))), max_size=15))
def test_a_restart_replays_the_journal_into_the_same_fight(
    sheet_a: dict[str, Any], sheet_b: dict[str, Any], steps: list[Step]
) -> None:
    """Spends, refusals and undos through a store on disk; resumed from its files, the session has the
    same budgets, round and fight state, order and log (facts included) as the one that played."""
    state = fight(("Heroes", "A", sheet_a), ("Foes", "B", sheet_b))
    ids = [cid(state, "A"), cid(state, "B")]
    with tempfile.TemporaryDirectory() as folder:
        session = Path(folder) / "session"
        store = Store.create(state, session)
        store.dispatch(
            a.RollInitiative(
                rolls={r.key: d10(7 - index) for index, r in enumerate(RULESET.initiative_requests(store.state))}
            )
        )
        for step in expand(steps):
            if step[0] == "undo":
                if store.can_undo:
                    store.undo()
                continue
            action, _cost, _who = action_for(store.state, ids, step)
            before = store.state
            try:
                store.dispatch(action)
            except RuleError as error:
                assert REFUSALS.search(str(error)), f"unexpected refusal: {error}"
                assert store.state is before
        played = store.state
        store.close()
        resumed = Store.resume(session).state
    for combatant in ids:
        assert RULESET.budget(resumed, combatant) == RULESET.budget(played, combatant)
    assert RULESET.round_of(resumed) == RULESET.round_of(played)
    assert RULESET.fight_of(resumed) == RULESET.fight_of(played)
    assert (resumed.round, resumed.step, resumed.cursor, resumed.order) == (
        played.round,
        played.step,
        played.cursor,
        played.order,
    )
    assert [(e.text, e.facts) for e in resumed.log_entries()] == [(e.text, e.facts) for e in played.log_entries()]
