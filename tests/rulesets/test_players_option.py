"""Player's Option: Combat & Tactics through the engine: encounter range in squares (every row), placement,
the five steps and the end-of-round checklist, the five phases, the side's 1 and 10, a tie's critical
event, attacks and spells before movement, a changed action at the end of the round. The expected phases
are worked out by hand from the seed and the defaults in ``gaps.md``, not by the code."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.common import config_folder, d10
from tests.rulesets.side_fight import (
    Fighter,
    kind,
    order_of,
    roll_sides,
    roll_surprise,
    sides,
    texts,
    to_initiative,
    two_sides,
    who,
)
from tui_combat.engine import actions as a
from tui_combat.engine.dice import Roll
from tui_combat.engine.encounter import ENCOUNTER_DIR, load_encounter
from tui_combat.engine.errors import RuleError
from tui_combat.fight.store import Store, store_from_encounter
from tui_combat.rulesets.players_option import RULESET, po_tables

DEMO = ENCOUNTER_DIR / "demo_players_option.toml"


def fight(heroes: list[Fighter], monsters: list[Fighter], **options: str) -> Store:
    return two_sides("players_option", ("Heroes", heroes), ("Monsters", monsters), **options)


def declare(store: Store, name: str, **declaration: str) -> None:
    to_initiative(store)
    store.dispatch(a.Declare(combatant=who(store)[name], declaration=declaration))


def phase(store: Store, name: str) -> str:
    details = dict(RULESET.details(store.state, who(store)[name]))
    return details["Phase"].split(" (")[0]


# -- encounter range, every row -----------------------------------------------------------------------------
def surprise(heroes: int, monsters: int) -> Store:
    return roll_surprise(store_from_encounter(load_encounter(DEMO), seed=1), heroes, monsters)


@pytest.mark.parametrize(
    ("heroes", "monsters", "rows"),
    [
        (1, 2, {"both_surprised": "1d4"}),
        (3, 9, {"one_surprised": "1d6"}),
        (7, 2, {"one_surprised": "1d6"}),
        (
            5,
            6,
            {
                "smoke_fog": "1d8",
                "dense_forest": "2d10",
                "light_forest": "4d6",
                "brush": "4d12",
                "field": "10d6",
                "dungeon_night": "",
                "no_cover": "",
            },
        ),
    ],
)
def test_range_rows_follow_the_surprise_result(heroes: int, monsters: int, rows: dict[str, str]) -> None:
    store = surprise(heroes, monsters)
    offered = RULESET.encounter_distances(store.state)
    assert {s.id: s.dice for s in offered} == rows
    assert {(s.multiplier, s.unit) for s in offered} == {(1, "squares of 5 ft")}


@pytest.mark.parametrize(
    ("heroes", "monsters", "row", "dice", "total"),
    [
        (1, 2, "both_surprised", "1d4", 3),
        (3, 9, "one_surprised", "1d6", 5),
        (5, 6, "smoke_fog", "1d8", 8),
        (5, 6, "dense_forest", "2d10", 11),
        (5, 6, "light_forest", "4d6", 14),
        (5, 6, "brush", "4d12", 26),
        (5, 6, "field", "10d6", 35),
    ],
)
def test_every_rolled_range_row_in_squares(heroes: int, monsters: int, row: str, dice: str, total: int) -> None:
    store = surprise(heroes, monsters)
    store.dispatch(a.RollDistance(situation=row, roll=Roll(expr=dice, total=total, physical=True)))
    assert str(store.state.distance) == f"{total} squares of 5 ft"


@pytest.mark.parametrize(
    ("row", "label"),
    [
        ("dungeon_night", "dungeon or night: limit of vision (the GM's squares)"),
        ("no_cover", "no cover: long range of the longest missile weapon (the GM's squares)"),
    ],
)
def test_the_rows_that_ask_the_gm_for_a_number(row: str, label: str) -> None:
    store = surprise(5, 6)
    store.dispatch(a.RollDistance(situation=row, roll=Roll(expr="", total=12, physical=True)))
    assert str(store.state.distance) == "12 squares of 5 ft"
    assert texts(store.state)[-1] == f"Distance ({label}): 12 squares of 5 ft, as the GM gives it."
    assert store.state.log_entries()[-1].facts == {"distance": 12}


def test_a_terrain_row_does_not_apply_when_a_side_is_surprised() -> None:
    store = surprise(3, 9)
    with pytest.raises(RuleError, match="does not apply now"):
        store.dispatch(a.RollDistance(situation="field", roll=Roll(expr="10d6", total=35, physical=True)))


# -- placement ------------------------------------------------------------------------------------------
def test_the_surprised_side_places_its_figures_first() -> None:
    store = surprise(3, 9)
    store.dispatch(a.StartFight())
    assert "Placing the figures: Heroes first (surprised), then Gnolls, at the rolled range." in texts(store.state)
    store = surprise(8, 2)
    store.dispatch(a.StartFight())
    assert "Placing the figures: Gnolls first (surprised), then Heroes, at the rolled range." in texts(store.state)


def test_without_surprise_the_dm_places_everyone() -> None:
    store = surprise(5, 6)
    store.dispatch(a.StartFight())
    assert "Placing the figures: the DM places everyone, the heroes in their marching order." in texts(store.state)


# -- five steps, the end-of-round checklist ------------------------------------------------------------------
def test_five_steps_and_the_end_of_round_walks_its_four_parts() -> None:
    store = store_from_encounter(load_encounter(DEMO), seed=1)
    steps = RULESET.steps(store.state)
    assert [(s.id, s.kind, s.secret) for s in steps] == [
        ("monsters", "declare", True),
        ("heroes", "declare", False),
        ("initiative", "initiative", False),
        ("resolve", "resolve", False),
        ("end", "end", False),
    ]
    roll_sides(store, 3, 6)
    while kind(store.state) != "end":
        store.dispatch(a.NextStep())
    gerda = who(store)["Gerda"]
    assert texts(store.state)[-2:] == ["End of the round: fatigue, retreat, morale, status.", "End of round 1."]
    assert dict(RULESET.details(store.state, gerda))["End of round"] == "☐ fatigue · ☐ retreat · ☐ morale · ☐ status"
    assert RULESET.action_available(store.state, "check", None)
    for _part in range(4):
        store.dispatch(a.RulesetAction(name="check", args={}))
    assert texts(store.state)[-4:] == [
        "End of round, fatigue (1/4): is the fight long enough to tire or exhaust a hero?",
        "End of round, retreat (2/4): is a figure pushed back by the press of the fight?",
        "End of round, morale (3/4): do the monsters check morale?",
        "End of round, status (4/4): spells, poison and special critical effects take their toll.",
    ]
    assert dict(RULESET.details(store.state, gerda))["End of round"] == "✓ fatigue · ✓ retreat · ✓ morale · ✓ status"
    assert not RULESET.action_available(store.state, "check", None)
    store.dispatch(a.NextStep())
    assert store.state.round == 2 and RULESET.round_of(store.state).checked == 0


def test_the_status_part_lists_effects_still_running() -> None:
    store = store_from_encounter(load_encounter(DEMO), seed=1)
    roll_sides(store, 3, 6)
    store.dispatch(
        a.RulesetAction(name="effect", args={"combatant": who(store)["Ilse"], "name": "shield", "amount": 5})
    )
    while kind(store.state) != "end":
        store.dispatch(a.NextStep())
    for _part in range(4):
        store.dispatch(a.RulesetAction(name="check", args={}))
    assert texts(store.state)[-1] == "Ilse: shield 4 rounds."


# -- five phases from base initiative, weapon class, magic and movement -------------------------------------
@pytest.mark.parametrize(
    ("sheet", "declaration", "expected"),
    [
        ({"weapon": "long sword"}, {}, "average"),  # base fast; the weapon (average) is later
        ({"weapon": "long sword", "magic": 2}, {}, "fast"),  # +2: the weapon one class faster
        ({"weapon": "long sword", "magic": 3}, {}, "fast"),
        ({"weapon": "long sword", "magic": 4}, {}, "fast"),  # very fast weapon, but the base is fast
        ({"weapon": "two-handed sword"}, {}, "slow"),
        ({"weapon": "two-handed sword", "magic": 4}, {}, "fast"),
        ({"weapon": "long sword", "weapon_class": "fast"}, {}, "fast"),  # the GM's class for this weapon
        ({"weapon": "dagger", "weapon2": "two-handed sword"}, {}, "slow"),  # the later of two weapons
        ({"weapon": "dagger", "movement": 18}, {}, "average"),  # base very fast, the dagger average
        ({"weapon": "dagger", "movement": 6}, {}, "average"),  # base average
        ({"weapon": "long sword", "movement": 3, "encumbrance": "heavy"}, {}, "very slow"),  # fast +1 +2
        ({"weapon": "long sword", "encumbrance": "moderate"}, {}, "average"),
        ({"weapon": "long sword", "encumbrance": "severe"}, {}, "very slow"),
        ({"weapon": "long sword"}, {"movement": "half"}, "slow"),
        ({"weapon": "long sword"}, {"movement": "full"}, "very slow"),
        ({"weapon": "two-handed sword"}, {"movement": "full"}, "very slow"),  # stops at the end
        ({"weapon": "long sword"}, {"action": "spell", "spell": "sleep"}, "fast"),  # no weapon: the base
        ({"weapon": "long sword"}, {"action": "spell", "phase": "very_slow"}, "very slow"),  # the GM's phase
        ({"cls": "monster", "natural": True, "size": "tiny"}, {}, "very fast"),
        ({"cls": "monster", "natural": True, "size": "small"}, {}, "very fast"),
        ({"cls": "monster", "natural": True, "size": "medium"}, {}, "fast"),
        ({"cls": "monster", "forms": "claw, claw, bite", "size": "large"}, {}, "average"),
        ({"cls": "monster", "natural": True, "size": "huge"}, {}, "slow"),
        ({"cls": "monster", "natural": True, "size": "gargantuan"}, {}, "very slow"),
        ({"cls": "monster", "natural": True, "size": "small", "movement": 18}, {}, "very fast"),  # stops at the end
        ({"cls": "monster", "natural": True, "size": "large", "movement": 24}, {}, "fast"),
        ({"cls": "monster", "weapon": "club", "size": "large"}, {}, "average"),  # armed: base fast, club average
    ],
)
def test_a_combatants_phase(sheet: dict[str, Any], declaration: dict[str, str], expected: str) -> None:
    store = fight([("Hero", sheet)], [("Orc", {"cls": "monster", "weapon": "long sword"})])
    if declaration:
        declare(store, "Hero", **declaration)
    assert phase(store, "Hero") == expected


SHIFTERS: list[Fighter] = [
    ("Quick", {"cls": "monster", "natural": True, "size": "small"}),  # very fast
    ("Steady", {"weapon": "long sword"}),  # average
    ("Laggard", {"weapon": "two-handed sword"}),  # slow; very slow with a full move
]


def shifters() -> Store:
    store = fight(SHIFTERS, [(f"{name} orc", sheet) for name, sheet in SHIFTERS])
    declare(store, "Laggard", movement="full")
    declare(store, "Laggard orc", movement="full")
    return store


def test_a_1_shifts_every_phase_faster_and_a_10_slower_stopping_at_the_ends() -> None:
    store = shifters()
    roll_sides(store, 1, 10)
    assert order_of(store.state) == [
        ("very fast · Heroes", {"Quick"}),  # very fast stays very fast
        ("fast · Heroes", {"Steady"}),  # average → fast
        ("fast · Monsters", {"Quick orc"}),  # very fast → fast
        ("slow · Heroes", {"Laggard"}),  # very slow → slow
        ("slow · Monsters", {"Steady orc"}),  # average → slow
        ("very slow · Monsters", {"Laggard orc"}),  # very slow stays very slow
    ]
    assert texts(store.state)[-4:-1] == [
        "Heroes rolled 1: every phase of the side one faster.",
        "Monsters rolled 10: every phase of the side one slower.",
        "Initiative goes to Heroes.",
    ]
    assert RULESET.round_of(store.state).shifts == dict(zip(sides(store), (-1, 1)))


def test_a_10_against_a_1_the_other_way_round() -> None:
    store = shifters()
    roll_sides(store, 10, 1)
    # The monsters won (1 against 10): in each phase they go before the heroes.
    assert order_of(store.state) == [
        ("very fast · Monsters", {"Quick orc"}),
        ("fast · Monsters", {"Steady orc"}),
        ("fast · Heroes", {"Quick"}),
        ("slow · Monsters", {"Laggard orc"}),
        ("slow · Heroes", {"Steady"}),
        ("very slow · Heroes", {"Laggard"}),
    ]


def test_without_a_1_or_a_10_the_winner_goes_first_in_each_phase() -> None:
    store = shifters()
    roll_sides(store, 6, 3)
    assert order_of(store.state) == [
        ("very fast · Monsters", {"Quick orc"}),
        ("very fast · Heroes", {"Quick"}),
        ("average · Monsters", {"Steady orc"}),
        ("average · Heroes", {"Steady"}),
        ("very slow · Monsters", {"Laggard orc"}),
        ("very slow · Heroes", {"Laggard"}),
    ]


def test_within_a_sides_phase_attacks_and_spells_come_before_movement() -> None:
    store = fight(
        [
            ("Archer", {"weapon": "long bow"}),  # average (a bow's class is the default)
            ("Runner", {"weapon": "dagger"}),  # moves only, half a move: fast + 1 = average
            ("Caster", {"weapon": "dagger"}),
        ],  # a spell the GM times as average
        [("Orc", {"cls": "monster", "weapon": "long sword"})],
    )
    declare(store, "Runner", action="move", movement="half")
    declare(store, "Caster", action="spell", spell="sleep", phase="average")
    roll_sides(store, 2, 8)
    assert order_of(store.state) == [
        ("average · Heroes", {"Archer", "Caster"}),
        ("average · Heroes · moving", {"Runner"}),
        ("average · Monsters", {"Orc"}),
    ]


# -- a tie raises a critical event --------------------------------------------------------------------------
def test_a_tie_raises_a_critical_event_and_a_reroll_for_the_monsters() -> None:
    store = shifters()
    roll_sides(store, 4, 4)
    state = store.state
    assert not state.initiative.settled
    heroes, monsters = sides(store)
    pending = state.initiative.pending
    assert [(r.key, str(r.label), r.dice) for r in pending] == [
        (f"{monsters}#2", "Monsters: roll again (tie at 4)", "1d10"),
        ("event", "Critical event (tie: Heroes 4 = Monsters 4)", "1d20"),
    ]
    store.dispatch(a.RollInitiative(rolls={f"{monsters}#2": d10(7), "event": Roll(expr="1d20", total=9, faces=(9,))}))
    assert "Critical event — 9: knock down. The GM applies it." in texts(store.state)
    entry = next(e for e in store.state.log_entries() if "event" in e.facts)
    assert entry.facts == {"event": "knock down", "roll": 9}
    assert RULESET.round_of(store.state).ranking == (heroes, monsters)  # 4 beats the reroll's 7
    assert order_of(store.state)[0] == ("very fast · Heroes", {"Quick"})


def test_the_option_makes_the_party_roll_again() -> None:
    store = fight(SHIFTERS, [(f"{name} orc", sheet) for name, sheet in SHIFTERS], tie_reroll="party")
    roll_sides(store, 5, 5)
    heroes, monsters = sides(store)
    assert [r.key for r in store.state.initiative.pending] == [f"{heroes}#2", "event"]
    store.dispatch(a.RollInitiative(rolls={f"{heroes}#2": d10(2), "event": Roll(expr="1d20", total=20, faces=(20,))}))
    assert "Critical event — 20: weapon trouble. The GM applies it." in texts(store.state)
    assert RULESET.round_of(store.state).ranking == (heroes, monsters)


def test_a_tie_on_the_reroll_asks_for_another_reroll_but_no_second_event() -> None:
    store = shifters()
    roll_sides(store, 4, 4)
    _heroes, monsters = sides(store)
    store.dispatch(a.RollInitiative(rolls={f"{monsters}#2": d10(4), "event": Roll(expr="1d20", total=1, faces=(1,))}))
    assert [(r.key, str(r.label)) for r in store.state.initiative.pending] == [
        (f"{monsters}#3", "Monsters: roll again (tie at 4)")
    ]
    store.dispatch(a.RollInitiative(rolls={f"{monsters}#3": d10(3)}))
    assert store.state.initiative.settled
    assert [t for t in texts(store.state) if t.startswith("Critical event —")] == [
        "Critical event — 1: armour trouble. The GM applies it."
    ]
    assert RULESET.round_of(store.state).ranking == (monsters, _heroes)


def test_tied_ones_shift_both_sides_and_the_reroll_does_not_shift() -> None:
    store = shifters()
    roll_sides(store, 1, 1)
    heroes, monsters = sides(store)
    store.dispatch(
        a.RollInitiative(rolls={f"{monsters}#2": d10(10), "event": Roll(expr="1d20", total=12, faces=(12,))})
    )
    assert RULESET.round_of(store.state).shifts == {heroes: -1, monsters: -1}
    assert order_of(store.state)[:3] == [
        ("very fast · Heroes", {"Quick"}),
        ("very fast · Monsters", {"Quick orc"}),
        ("fast · Heroes", {"Steady"}),
    ]


EVENTS = (
    ["armour trouble"] * 2
    + ["battlefield damaged"] * 2
    + ["battlefield shifts", "close quarters", "item damaged", "item dropped"]
    + ["knock down"] * 3
    + ["lucky break", "lucky opening"]
    + ["mount trouble"] * 2
    + ["reinforcements", "retreat", "slip"]
    + ["weapon trouble"] * 2
)


@pytest.mark.parametrize("face", range(1, 21))
def test_every_face_of_the_d20_names_its_event(face: int) -> None:
    event = po_tables().event(face)
    assert event is not None and event.label == EVENTS[face - 1]


# -- a changed action at the end of the round --------------------------------------------------------------
def test_an_abandoned_action_moves_to_the_end_of_the_round() -> None:
    store = shifters()
    roll_sides(store, 6, 3)
    ids = who(store)
    store.dispatch(a.NextStep())  # very fast · Heroes: Quick
    assert store.state.acting_now() == (ids["Quick"],)
    store.dispatch(a.RulesetAction(name="abandon", args={"combatant": ids["Steady"], "text": "pulls Quick back"}))
    assert order_of(store.state) == [
        ("very fast · Monsters", {"Quick orc"}),
        ("very fast · Heroes", {"Quick"}),
        ("average · Monsters", {"Steady orc"}),
        ("very slow · Monsters", {"Laggard orc"}),
        ("very slow · Heroes", {"Laggard"}),
        ("end of round (changed action)", {"Steady"}),
    ]
    assert store.state.acting_now() == (ids["Quick"],)  # the turn did not move
    assert (
        texts(store.state)[-1] == "Steady changes his action (pulls Quick back): he acts at the very end of the round."
    )
    with pytest.raises(RuleError, match="Quick orc has already acted"):
        store.dispatch(a.RulesetAction(name="abandon", args={"combatant": ids["Quick orc"]}))
    assert not RULESET.action_available(store.state, "abandon", ids["Steady"])


def test_abandoning_in_ones_own_slot_moves_the_turn_on() -> None:
    store = shifters()
    roll_sides(store, 6, 3)
    ids = who(store)
    store.dispatch(a.RulesetAction(name="abandon", args={"combatant": ids["Quick orc"]}))
    assert store.state.acting_now() == (ids["Quick"],)
    assert order_of(store.state)[-1] == ("end of round (changed action)", {"Quick orc"})


def test_declarations_are_checked() -> None:
    store = shifters()
    to_initiative(store)
    hero = who(store)["Steady"]
    for declaration, message in [
        ({"action": "fly"}, "not one of"),
        ({"movement": "sprint"}, "not one of"),
        ({"phase": "lightning"}, "not a phase"),
    ]:
        with pytest.raises(RuleError, match=message):
            store.dispatch(a.Declare(combatant=hero, declaration=declaration))
    fields = {f.key: f for f in RULESET.declaration_fields(store.state, hero)}
    assert {k: f.kind for k, f in fields.items() if k != "spell" and k != "text"} == {
        "action": "choice",
        "movement": "choice",
        "phase": "choice",
    }


# -- the order, whatever the sheets (property test) ----------------------------------------------------------------
PHASE_BY_SIZE = {"tiny": 0, "small": 0, "medium": 1, "large": 2, "huge": 3, "gargantuan": 4}
WEAPON_CLASS = {"long sword": 2, "dagger": 2, "two-handed sword": 3, "short bow": 2}
LOAD = {"none": 0, "light": 0, "moderate": 1, "heavy": 2, "severe": 3}


def clamp(index: int) -> int:
    return min(max(index, 0), 4)


def expected_phase(sheet: dict[str, Any], declaration: dict[str, str], shift: int) -> int:
    """The phase worked out by hand: 0 very fast … 4 very slow."""
    if declaration.get("phase"):
        index = ["very_fast", "fast", "average", "slow", "very_slow"].index(declaration["phase"])
    else:
        index = PHASE_BY_SIZE[sheet.get("size", "medium")] if not sheet.get("weapon") else 1
        movement = sheet.get("movement", 12)
        index = clamp(index - 1) if movement >= 18 else clamp(index + 1) if movement <= 6 else index
        index = clamp(index + LOAD[sheet.get("encumbrance", "none")])
        if sheet.get("weapon") and declaration.get("action", "attack") == "attack":
            magic = sheet.get("magic", 0)
            weapon = clamp(WEAPON_CLASS[sheet["weapon"]] - (2 if magic >= 4 else 1 if magic >= 2 else 0))
            index = max(index, weapon)
        index = clamp(index + {"none": 0, "half": 1, "full": 2}[declaration.get("movement", "none")])
    return clamp(index + shift)


@st.composite
def combatants(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, str]]:
    if draw(st.booleans()):
        sheet: dict[str, Any] = {
            "weapon": draw(st.sampled_from(sorted(WEAPON_CLASS))),
            "magic": draw(st.integers(0, 5)),
        }
    else:
        sheet = {"cls": "monster", "natural": True, "size": draw(st.sampled_from(sorted(PHASE_BY_SIZE)))}
    sheet["movement"] = draw(st.sampled_from([3, 6, 9, 12, 18, 24]))
    sheet["encumbrance"] = draw(st.sampled_from(sorted(LOAD)))
    declaration = {
        "action": draw(st.sampled_from(["attack", "attack", "spell", "move", "other"])),
        "movement": draw(st.sampled_from(["none", "half", "full"])),
    }
    if draw(st.integers(0, 4)) == 0:
        declaration["phase"] = draw(st.sampled_from(["very_fast", "fast", "average", "slow", "very_slow"]))
    return sheet, declaration


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    heroes=st.lists(combatants(), min_size=1, max_size=4),
    monsters=st.lists(combatants(), min_size=1, max_size=4),
    rolls=st.tuples(st.integers(1, 10), st.integers(1, 10)).filter(lambda r: r[0] != r[1]),
    down=st.lists(st.booleans(), min_size=8, max_size=8),
)
def test_every_living_combatant_appears_once_no_slot_is_empty_and_a_slot_shares_one_key(
    heroes: list[tuple[dict[str, Any], dict[str, str]]],
    monsters: list[tuple[dict[str, Any], dict[str, str]]],
    rolls: tuple[int, int],
    down: list[bool],
) -> None:
    store = fight(
        [(f"H{i}", s) for i, (s, _d) in enumerate(heroes)], [(f"M{i}", s) for i, (s, _d) in enumerate(monsters)]
    )
    plan = {**{f"H{i}": c for i, c in enumerate(heroes)}, **{f"M{i}": c for i, c in enumerate(monsters)}}
    for name, (_sheet, declaration) in plan.items():
        declare(store, name, **declaration)
    for index, combatant in enumerate(store.state.combatants):
        if down[index % 8] and index % 3 == 0:
            store.dispatch(a.SetStatus(combatant=combatant.id, status="down"))
    roll_sides(store, *rolls)
    state = store.state
    heroes_side, monsters_side = sides(store)
    living = {c.id for c in state.combatants if c.status == "active"}
    rank = {heroes_side: 0 if rolls[0] < rolls[1] else 1, monsters_side: 1 if rolls[0] < rolls[1] else 0}
    shift = {
        side: -1 if roll == 1 else 1 if roll == 10 else 0 for side, roll in zip((heroes_side, monsters_side), rolls)
    }
    for combatant in state.combatants:
        count = sum(combatant.id in slot.combatants for slot in state.order)
        assert count == (1 if combatant.id in living else 0), combatant.name
    assert all(slot.combatants for slot in state.order)
    keys = []
    for slot in state.order:
        slot_keys = set()
        for cid in slot.combatants:
            combatant = state.combatant(cid)
            sheet, declaration = plan[combatant.name]
            slot_keys.add(
                (
                    expected_phase(sheet, declaration, shift[combatant.side]),
                    rank[combatant.side],
                    1 if declaration["action"] == "move" else 0,
                )
            )
        assert len(slot_keys) == 1, (str(slot.label), slot_keys)
        keys.append(next(iter(slot_keys)))
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


# -- house rules ------------------------------------------------------------------------------------------
@pytest.fixture
def house_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """``players_option.toml`` in a config folder of our own; the cached tables are read again, and after."""
    with config_folder(tmp_path / "config", monkeypatch, po_tables) as folder:
        (folder / "rulesets").mkdir(parents=True)
        yield folder / "rulesets" / "players_option.toml"


def test_a_house_rule_weapon_class_changes_the_phase(house_rules: Path) -> None:
    house_rules.write_text('[weapons.classes]\n"long sword" = "fast"\n', encoding="utf-8")
    po_tables.cache_clear()
    store = fight([("Hero", {"weapon": "long sword"})], [("Orc", {"cls": "monster", "weapon": "long sword"})])
    assert phase(store, "Hero") == "fast"
    assert po_tables().weapons.classes["two-handed sword"] == "slow"  # the packaged ones are still there


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('[weapons.classes]\n"long sword" = "quick"\n', 'weapons.classes["long sword"]: "quick" is not a phase'),
        ('[weapons.classes]\n"long swrod" = "fast"\n', 'names "long swrod", which is not a weapon'),
        ('[base]\ndefault = "slowish"\n', 'base.default: "slowish" is not a phase'),
        ('[initiative]\nfaster_on = "1"\n', "Expected `int`, got `str` - at `$.initiative.faster_on`"),
        # A table of rows is replaced whole: this one leaves 20 without an event.
        ('[[critical_events]]\nlow = 1\nhigh = 19\nlabel = "chaos"\nsource = "seed"\n', "cover 1 to 20 once each"),
        ('[movement]\nhalf = 1\nfull = 2\nsource = "book"\n', "Invalid enum value 'book' - at `$.movement.source`"),
    ],
)
def test_a_wrong_house_rule_is_refused_naming_the_file(house_rules: Path, text: str, expected: str) -> None:
    house_rules.write_text(text, encoding="utf-8")
    po_tables.cache_clear()
    with pytest.raises(RuleError) as refused:
        po_tables()
    assert str(house_rules) in str(refused.value)
    assert expected in str(refused.value)


def test_a_round_in_progress_survives_save_and_resume(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    store = store_from_encounter(load_encounter(DEMO), folder=folder, seed=1)
    declare(store, "Tam", action="move", movement="full")
    roll_sides(store, 4, 4)
    _heroes, gnolls = sides(store)
    store.dispatch(a.RollInitiative(rolls={f"{gnolls}#2": d10(2), "event": Roll(expr="1d20", total=17, faces=(17,))}))
    store.dispatch(a.RulesetAction(name="abandon", args={"combatant": who(store)["Ilse"]}))
    store.close()
    resumed = Store.resume(folder)
    assert resumed.state == store.state
    assert RULESET.round_of(resumed.state).events == ("retreat",)
    assert order_of(resumed.state)[-1] == ("end of round (changed action)", {"Ilse"})
