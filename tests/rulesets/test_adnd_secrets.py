"""What the players read of AD&D 2e's lines about those hidden from them: a side of hidden combatants only
rolls its surprise and initiative out of their sight and is no slot of "Order: …", a hidden group rolls its
initiative unseen, a hidden name with a comma is the GM's alone (not a line he may show), and a combatant the
players see is not held back because his name holds a hidden one's. Each under the three settings for rolls,
set before the lines are written."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from tests.common import d10, die
from tui_combat.engine import actions as a
from tui_combat.engine.encounter import CombatantSpec, Encounter, SideSpec
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import LogEntry
from tui_combat.engine.model import ROLLS_OPTION, ROLLS_SHOWN, State
from tui_combat.engine.public import public_entries, public_view
from tui_combat.engine.registry import get
from tui_combat.fight.store import Store, store_from_encounter
from tui_combat.screens.player_view import view_text

WARRIOR = {"cls": "warrior", "level": 5, "ac": 3, "weapon": "war hammer", "damage": "1d4+1"}
MONSTER = {"cls": "monster", "level": 2, "ac": 6, "weapon": "short sword", "damage": "1d6"}


def fight(shown: str, monsters: list[CombatantSpec], *more: SideSpec, initiative: str = "standard") -> Store:
    """Raf's party against ``monsters`` (and ``more`` sides), what the players see of rolls set in set-up."""
    encounter = Encounter(
        name="Test",
        ruleset="adnd2e",
        options={"initiative": initiative},
        sides=[
            SideSpec(name="Party", party=True, combatants=[CombatantSpec(name="Raf", hp=38, sheet=WARRIOR)]),
            SideSpec(name="Monsters", combatants=monsters),
            *more,
        ],
    )
    store = store_from_encounter(encounter, seed=1)
    store.dispatch(a.SetOption(key=ROLLS_OPTION, value=shown))
    return store


def monster(name: str, *, hidden: bool = False, count: int = 1) -> CombatantSpec:
    return CombatantSpec(name=name, hp=20, count=count, hidden=hidden, sheet=MONSTER)


def cid(state: State, name: str) -> str:
    return next(c.id for c in state.combatants if c.name == name)


def to_initiative(store: Store) -> None:
    if store.state.phase != "round":
        store.dispatch(a.StartFight())
    while get(store.state.ruleset).steps(store.state)[store.state.step].kind != "initiative":
        store.dispatch(a.NextStep())


def roll_initiative(store: Store, faces: dict[str, int]) -> None:
    """Each request's d10, by its label as the GM reads it."""
    to_initiative(store)
    requests = get(store.state.ruleset).initiative_requests(store.state)
    store.dispatch(a.RollInitiative(rolls={r.key: d10(faces[str(r.label)]) for r in requests}))


def gm_texts(state: State) -> list[str]:
    return [entry.text for entry in state.log_entries()]


def players_read(state: State) -> str:
    """Every public surface of the engine: the view's text and data, the public report's entries."""
    view = public_view(state)
    entries = public_entries(state)
    return "\n".join((view_text(view), msgspec.json.encode(view).decode(), *(entry.text for entry in entries)))


def players_lines(state: State) -> list[str]:
    return [entry.text for entry in public_entries(state)]


def line(state: State, start: str) -> LogEntry:
    return next(entry for entry in state.log_entries() if entry.text.startswith(start))


def test_a_side_of_hidden_combatants_only_rolls_surprise_and_initiative_out_of_the_players_sight() -> None:
    for shown in ROLLS_SHOWN:
        store = fight(
            shown, [monster("Orc")], SideSpec(name="Reinforcements", combatants=[monster("Ogre", hidden=True)])
        )
        store.dispatch(a.BeginSurprise())
        store.dispatch(a.RollSurprise(rolls={side.id: d10(5) for side in store.state.sides}))
        roll_initiative(store, {"Party": 3, "Monsters": 5, "Reinforcements": 8})
        state = store.state
        gm = gm_texts(state)
        assert "Surprise — Reinforcements: 1d10: [5] = 5: not surprised." in gm
        assert "Initiative — Reinforcements: 1d10: [8] = 8." in gm
        assert "Order: 3: Raf; 5: Orc; 8: Ogre." in gm
        read = players_read(state)
        assert "Reinforcements" not in read and "Ogre" not in read, (shown, read)
        assert "Order: 3: Raf; 5: Orc." in players_lines(state), shown  # his slot is not theirs
        if shown == "everything":  # the sides they see keep their lines
            assert "Surprise — Party: 1d10: [5] = 5: not surprised." in read
            assert "Initiative — Monsters: 1d10: [5] = 5." in read


def test_a_hidden_group_rolls_its_initiative_out_of_the_players_sight() -> None:
    for shown in ROLLS_SHOWN:
        store = fight(shown, [monster("Goblin", hidden=True, count=3), monster("Orc")], initiative="individual_groups")
        roll_initiative(store, {"Raf": 3, "Goblin": 4, "Orc": 6})
        state = store.state
        assert "Initiative — Goblin: 1d10: [4] = 4." in gm_texts(state)
        read = players_read(state)
        assert "Goblin" not in read, (shown, read)
        order = next(text for text in players_lines(state) if text.startswith("Order: "))
        assert "Raf" in order and "Orc" in order and "Goblin" not in order


def hidden_chief_attacks(shown: str) -> Store:
    """Individual initiative, "Grak, the Chief" hidden among the monsters; he hits Raf and Raf hits him back."""
    store = fight(shown, [monster("Grak, the Chief", hidden=True), monster("Orc")], initiative="individual")
    roll_initiative(store, {"Raf": 3, "Grak, the Chief": 4, "Orc": 6})
    grak, raf = cid(store.state, "Grak, the Chief"), cid(store.state, "Raf")
    for attacker, target in ((grak, raf), (raf, grak)):
        store.dispatch(
            a.RulesetAction(
                name="attack",
                args={
                    "combatant": attacker,
                    "out_of_turn": True,
                    "target": target,
                    "roll": msgspec.to_builtins(die("1d20", 19)),
                },
            )
        )
    return store


@pytest.mark.parametrize("shown", ROLLS_SHOWN)
def test_a_hidden_name_with_a_comma_is_the_gms_alone_not_a_line_he_may_show(shown: str) -> None:
    store = hidden_chief_attacks(shown)
    state = store.state
    lines = [
        line(state, "Initiative — Grak, the Chief: 1d10: [4] = 4."),
        line(state, "Grak, the Chief attacks Raf (AC 3) with short sword: d20 19"),
        line(state, "Raf attacks Grak, the Chief (AC 6) with war hammer: d20 19"),
    ]
    assert all(entry.secret and not entry.held for entry in lines)
    read = players_read(state)
    assert "Grak" not in read and "Chief" not in read, read
    assert "Order: 7: Raf, Grak, the Chief; 9: Orc." in gm_texts(state)
    assert "Order: 7: Raf; 9: Orc." in players_lines(state)
    # Nothing of it is offered to the GM to show: it is not held for a word, it names someone hidden.
    place = state.log_start + next(i for i, entry in enumerate(state.log_entries()) if entry is lines[1])
    with pytest.raises(RuleError):
        store.dispatch(a.ShowToPlayers(entries=(place,)))


def test_a_combatant_whose_name_holds_a_hidden_ones_is_still_the_players() -> None:
    for shown in ROLLS_SHOWN:
        store = fight(shown, [monster("Orc", hidden=True), monster("Orc Chief")], initiative="individual")
        roll_initiative(store, {"Raf": 3, "Orc": 4, "Orc Chief": 6})
        chief, raf = cid(store.state, "Orc Chief"), cid(store.state, "Raf")
        store.dispatch(
            a.RulesetAction(
                name="attack",
                args={
                    "combatant": chief,
                    "out_of_turn": True,
                    "target": raf,
                    "roll": msgspec.to_builtins(die("1d20", 19)),
                },
            )
        )
        state = store.state
        assert not any(entry.held for entry in state.log_entries())
        read = players_lines(state)
        assert "Order: 7: Raf; 9: Orc Chief." in read
        expected: dict[str, list[Any]] = {
            "outcomes": ["Orc Chief hits Raf."],
            "everything": [
                "Initiative — Orc Chief: 1d10: [6] = 6.",
                "Orc Chief attacks Raf (AC 3) with short sword: d20 19 vs 16 — hit.",
            ],
            "nothing": [],
        }
        for text in expected[shown]:
            assert text in read, (shown, read)
        assert not any(text.startswith(("Orc hits", "Initiative — Orc:")) for text in read)
