"""The documentation's example ruleset, installed the way a third-party package is (an entry point in
the group ``tui_combat.rulesets``), found by the registry and played for two rounds through the engine.

Every number below is worked out by hand from the Skirmish rules in ``tests/plugins/skirmish.py``:
side initiative 1d6 (highest first, ties rerolled), a d20 plus the attack bonus against the target's AC,
one attack per turn.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import msgspec
import pytest

from tests.common import Faces, ids, typed
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply, initiative_asked
from tui_combat.engine.contract import AnyRuleset, BudgetLine
from tui_combat.engine.dice import Roll, roll
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State

PLUGIN = Path(__file__).resolve().parents[1] / "plugins" / "skirmish.py"


@pytest.fixture
def installed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[AnyRuleset]:
    """A site-packages folder holding one distribution, ``skirmish_example``, with its entry point."""
    site = tmp_path / "site-packages"
    site.mkdir()
    shutil.copy(PLUGIN, site / "skirmish_example.py")
    dist_info = site / "skirmish_example-0.1.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: skirmish-example\nVersion: 0.1\n", encoding="utf-8"
    )
    (dist_info / "entry_points.txt").write_text(
        "[tui_combat.rulesets]\nskirmish = skirmish_example:RULESET\n", encoding="utf-8"
    )
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.delitem(sys.modules, "skirmish_example", raising=False)
    registry.forget()
    try:
        yield registry.get("skirmish")
    finally:
        registry.forget()
        sys.modules.pop("skirmish_example", None)


def attack(state: State, attacker: str, target: str, to_hit: Roll, damage: Roll) -> State:
    named = ids(state)
    return apply(
        state,
        a.RulesetAction(
            name="attack",
            args={"combatant": named[attacker], "target": named[target], "to_hit": to_hit, "damage": damage},
        ),
    )


def attacks_left(ruleset: AnyRuleset, state: State) -> dict[str, int]:
    return {c.name: ruleset.budget(state, c.id)[0].left for c in state.combatants}


def test_the_registry_finds_the_plugin_through_its_entry_point(installed: AnyRuleset) -> None:
    assert "skirmish" in registry.available()
    assert type(installed).__module__ == "skirmish_example"
    assert installed.name == "Skirmish"


def test_two_rounds_of_skirmish(installed: AnyRuleset) -> None:
    journal: list[a.Action] = [
        a.SetRuleset(ruleset="skirmish"),
        a.AddSide(name="Heroes", is_party=True),
        a.AddSide(name="Goblins"),
        a.AddCombatants(side="s1", name="Ada", hp=12, sheet={"attack": 3, "ac": 14, "damage": "1d8"}),
        a.AddCombatants(side="s1", name="Bram", hp=9, sheet={"attack": 1, "ac": 12, "damage": "1d6"}),
        a.AddCombatants(side="s2", name="Goblin", hp=5, count=2, sheet={"attack": 2, "ac": 11, "damage": "1d6"}),
        a.StartFight(),
    ]
    state = State(seed=1)
    for action in journal:
        state = apply(state, action)
    heroes, goblins = (side.id for side in state.sides)

    # Round 1: one 1d6 per side, and both show 4.
    asked, fresh = initiative_asked(installed, state)
    assert fresh and [(r.key, str(r.label), r.dice) for r in asked] == [
        (heroes, "Heroes", "1d6"),
        (goblins, "Goblins", "1d6"),
    ]
    state = apply(state, a.RollInitiative(rolls={heroes: typed("1d6", 4), goblins: typed("1d6", 4)}))
    assert not state.initiative.settled and state.order == ()
    assert [str(r.label) for r in state.initiative.pending] == ["Heroes, tie reroll", "Goblins, tie reroll"]
    with pytest.raises(RuleError, match="Initiative still needs: Heroes, tie reroll, Goblins, tie reroll"):
        apply(state, a.NextStep())
    reroll = {r.key: r for r in state.initiative.pending}
    assert set(reroll) == {heroes + "#2", goblins + "#2"}

    # The reroll: Heroes 2, Goblins 5, so the goblins go first; each side is one free-order slot.
    state = apply(state, a.RollInitiative(rolls={heroes + "#2": typed("1d6", 2), goblins + "#2": typed("1d6", 5)}))
    names = {c.id: c.name for c in state.combatants}
    assert [(str(s.label), [names[c] for c in s.combatants], s.free) for s in state.order] == [
        ("Goblins", ["Goblin 1", "Goblin 2"], True),
        ("Heroes", ["Ada", "Bram"], True),
    ]
    assert installed.steps(state)[state.step].kind == "resolve" and state.cursor == 0
    assert attacks_left(installed, state) == {"Ada": 0, "Bram": 0, "Goblin 1": 1, "Goblin 2": 1}

    # Goblin 1: 11 + 2 = 13 against AC 14, a miss. Goblin 2: 12 + 2 = 14, a hit for 5: Ada 12 → 7.
    state = attack(state, "Goblin 1", "Ada", typed("1d20", 11), typed("1d6", 6))
    state = attack(state, "Goblin 2", "Ada", typed("1d20", 12), typed("1d6", 5))
    assert state.combatant(ids(state)["Ada"]).hp == 7
    with pytest.raises(RuleError, match="^Attack cannot be done now.$"):
        attack(state, "Goblin 2", "Bram", typed("1d20", 20), typed("1d6", 6))  # one attack per turn
    with pytest.raises(RuleError, match="^Attack cannot be done now.$"):
        attack(state, "Ada", "Goblin 1", typed("1d20", 20), typed("1d8", 8))  # not her turn yet

    # The heroes' turn: Ada 8 + 3 = 11 against AC 11 hits for 6: Goblin 1 5 → −1, down. Bram 9 + 1 = 10 misses.
    state = apply(state, a.NextStep())
    assert attacks_left(installed, state) == {"Ada": 1, "Bram": 1, "Goblin 1": 0, "Goblin 2": 0}
    state = attack(state, "Ada", "Goblin 1", typed("1d20", 8), typed("1d8", 6))
    goblin_1 = state.combatant(ids(state)["Goblin 1"])
    assert (goblin_1.hp, goblin_1.status) == (-1, "down")
    with pytest.raises(RuleError, match="^Goblin 1 is out of the fight.$"):
        attack(state, "Bram", "Goblin 1", typed("1d20", 20), typed("1d6", 6))
    state = attack(state, "Bram", "Goblin 2", typed("1d20", 9), typed("1d6", 6))
    assert attacks_left(installed, state) == {"Ada": 0, "Bram": 0, "Goblin 1": 0, "Goblin 2": 0}

    state = apply(state, a.NextStep())
    assert installed.steps(state)[state.step].kind == "end"
    state = apply(state, a.NextStep())
    assert state.round == 2 and state.order == () and not state.initiative.settled
    assert attacks_left(installed, state) == {"Ada": 0, "Bram": 0, "Goblin 1": 0, "Goblin 2": 0}

    # Round 2: Heroes 6, Goblins 3 (only Goblin 2 is still up). No tie, no reroll.
    asked, fresh = initiative_asked(installed, state)
    assert fresh and [(r.key, len(r.combatants)) for r in asked] == [(heroes, 2), (goblins, 1)]
    state = apply(state, a.RollInitiative(rolls={heroes: typed("1d6", 6), goblins: typed("1d6", 3)}))
    assert state.initiative.pending == ()
    assert [(str(s.label), [names[c] for c in s.combatants], s.value) for s in state.order] == [
        ("Heroes", ["Ada", "Bram"], 6),
        ("Goblins", ["Goblin 2"], 3),
    ]
    # Ada's d20 rolled by the app this time: 10 + 3 = 13 hits for 3 (Goblin 2: 5 → 2); Bram 11 + 1 = 12 hits for 4
    # (→ −2).
    state = attack(state, "Ada", "Goblin 2", roll("1d20", Faces(10)), roll("1d8", Faces(3)))
    assert state.combatant(ids(state)["Goblin 2"]).hp == 2
    state = attack(state, "Bram", "Goblin 2", typed("1d20", 11), typed("1d6", 4))
    goblin_2 = state.combatant(ids(state)["Goblin 2"])
    assert (goblin_2.hp, goblin_2.status) == (-2, "down")

    assert installed.budget(state, ids(state)["Ada"]) == (BudgetLine(label="Attack", left=0, total=1),)
    assert [installed.details(state, ids(state)[name]) for name in ("Ada", "Bram", "Goblin 2")] == [
        (("Hits landed", "2"),),
        (("Hits landed", "1"),),
        (("Hits landed", "1"),),
    ]
    attacks = [entry for entry in state.log_entries() if "hit" in entry.facts]
    assert [(e.round, e.facts["needed"], e.facts["total"], e.facts["hit"]) for e in attacks] == [
        (1, 12, 13, False),
        (1, 12, 14, True),
        (1, 8, 11, True),
        (1, 10, 10, False),
        (2, 8, 13, True),
        (2, 10, 12, True),
    ]
    assert attacks[1].text == "Goblin 2 attacks Ada: 1d20 (typed): 12, +2 → 14 against AC 14: hit."
    assert attacks[4].text == "Ada attacks Goblin 2: 1d20: [10] = 10, +3 → 13 against AC 11: hit."
    assert attacks[4].rolls[0].faces == (10,)
    assert "Ada takes 5 damage (1d6 (typed): 5): 7/12 HP." in [e.text for e in state.log_entries()]


def test_a_journal_of_two_roll_forms_replays_to_the_same_state(installed: AnyRuleset) -> None:
    """The attack's two rolls travel inside the action; read back from JSON they are mappings, and
    replaying them gives the same fight."""
    journal: list[a.Action] = [
        a.SetRuleset(ruleset="skirmish"),
        a.AddSide(name="Heroes", is_party=True),
        a.AddSide(name="Goblins"),
        a.AddCombatants(side="s1", name="Ada", hp=12, sheet={"attack": 3, "ac": 14, "damage": "1d8"}),
        a.AddCombatants(side="s2", name="Goblin", hp=5, sheet={"attack": 2, "ac": 11, "damage": "1d6"}),
        a.StartFight(),
        a.RollInitiative(rolls={"s1": typed("1d6", 5), "s2": typed("1d6", 2)}),
        a.RulesetAction(
            name="attack",
            args={
                "combatant": "c3",
                "target": "c4",
                "to_hit": roll("1d20", Faces(15)),
                "damage": roll("1d8", Faces(4)),
            },
        ),
    ]
    state = State(seed=1)
    for action in journal:
        state = apply(state, action)
    assert state.combatant("c4").hp == 1  # 15 + 3 against AC 11 hits; 5 − 4

    encoded = msgspec.json.encode(journal)
    replayed = State(seed=1)
    for action in msgspec.json.decode(encoded, type=list[a.Action]):
        replayed = apply(replayed, action)
    assert msgspec.json.encode(replayed) == msgspec.json.encode(state)


def test_a_bad_sheet_is_refused_naming_the_field(installed: AnyRuleset) -> None:
    state = State()
    for action in (a.SetRuleset(ruleset="skirmish"), a.AddSide(name="Heroes")):
        state = apply(state, action)
    with pytest.raises(RuleError, match=r'^Sheet, ac: a whole number, not "14"\.$'):
        apply(state, a.AddCombatants(side="s1", name="Ada", hp=12, sheet={"ac": "14"}))
    with pytest.raises(RuleError, match="^Sheet, damage: "):
        apply(state, a.AddCombatants(side="s1", name="Ada", hp=12, sheet={"damage": "1d"}))
    with pytest.raises(RuleError, match=r'^Sheet, unknown field "armour".*Sheet, damage: '):  # every mistake at once
        apply(state, a.AddCombatants(side="s1", name="Ada", hp=12, sheet={"armour": 2, "damage": "1d"}))


def test_a_side_of_hidden_ones_rolls_nothing_the_players_read(installed: AnyRuleset) -> None:
    """Skirmish names its sides by reference: the players read nothing of a side whose members are all hidden
    from them, even when they see every roll."""
    from tui_combat.engine.model import ROLLS_OPTION
    from tui_combat.engine.public import public_entries

    state = State(seed=1)
    for action in (
        a.SetRuleset(ruleset="skirmish"),
        a.SetOption(key=ROLLS_OPTION, value="everything"),
        a.AddSide(name="Heroes", is_party=True),
        a.AddSide(name="Ambush"),
        a.AddCombatants(side="s1", name="Ada", hp=12, sheet={"attack": 3, "ac": 14, "damage": "1d8"}),
        a.AddCombatants(side="s2", name="Goblin", hp=5, count=2, hidden=True),
        a.StartFight(),
    ):
        state = apply(state, action)
    heroes, ambush = (side.id for side in state.sides)
    state = apply(state, a.RollInitiative(rolls={heroes: typed("1d6", 4), ambush: typed("1d6", 4)}))
    state = apply(state, a.RollInitiative(rolls={heroes + "#2": typed("1d6", 2), ambush + "#2": typed("1d6", 5)}))
    state = attack(state, "Goblin 1", "Ada", typed("1d20", 19), typed("1d6", 3))
    texts = [entry.text for entry in state.log_entries()]
    assert (
        "Initiative — Ambush: 1d6 (typed): 4." in texts and "Initiative — Ambush, tie reroll: 1d6 (typed): 5." in texts
    )
    read = [entry.text for entry in public_entries(state)]
    assert not [line for line in read if "Ambush" in line or "Goblin" in line], read
    assert "Initiative — Heroes: 1d6 (typed): 4." in read and "Ada takes 3 damage (1d6 (typed): 3): 9/12 HP." in read
    assert not [entry.text for entry in state.log_entries() if entry.held]
