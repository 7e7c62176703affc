"""What the players read of Trudvang's lines, under each setting for rolls set before the fight: a foe's armour
values, the Body Points he lost and his damage level's penalty stay behind the GM's screen (the players read the
health word and the outcome); the party's own figures are theirs; nobody hidden is named, in a line, a roll's
label or the card's "this round" notes."""

from __future__ import annotations

from typing import Any

import pytest

from tests.rulesets.trudvang_fight import FRIDGAR, WRESTLER, act, cid, d10, d20, fight, last_log, roll_initiative, two
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.model import ROLLS_SHOWN, State
from tui_combat.engine.public import public_entries, public_view
from tui_combat.rulesets.trudvang import RULESET

ULF = {"sv": 8, "weapons": "broadsword", "armour": "chain"}


def hit(state: State, attacker: str = "Fridgar", target: str = "Ulf") -> State:
    return act(state, "attack", combatant=cid(state, attacker), target=cid(state, target), cp=5, roll=d20(2))


def damage(state: State, name: str, amount: int) -> State:
    return apply(state, a.Damage(combatant=cid(state, name), amount=amount))


def players(state: State) -> list[str]:
    """What the players read of the log, on their screen and in the public report (the same lines)."""
    on_screen = [line.text for line in public_view(state, log_lines=1000).log]
    reported = [entry.text for entry in public_entries(state)]
    assert on_screen == reported
    return reported


def conditions(state: State, name: str) -> tuple[str, ...]:
    """What the players' screen lists under ``name``."""
    view = public_view(state)
    return next(c.conditions for group in view.groups for c in group.combatants if c.name == name)


BEHIND = ("BV", "PV", "BP", "absorbs", "(-")
"""What the players never read of a foe's hit under "outcomes" or "nothing": his armour values, the Body Points he
lost, his level's penalty."""


@pytest.mark.parametrize("rolls_shown", ROLLS_SHOWN)
@pytest.mark.parametrize(
    ("amount", "said", "outcome"),
    [
        (
            12,
            "Ulf loses 7 BP, injured (-1). Chain mail absorbs 5. Chain mail: BV 50 → 43, PV 5.",
            "Ulf loses Body Points, injured. Chain mail takes part of the blow.",
        ),
        (
            30,
            "Ulf loses 25 BP, dying (-7). Chain mail absorbs 5. Chain mail: BV 50 → 25, PV 3.",
            "Ulf loses Body Points, dying. Chain mail takes part of the blow.",
        ),
        (4, "Ulf loses 0 BP. Chain mail absorbs 4.", "Ulf loses no Body Points. Chain mail takes the whole blow."),
    ],
)
def test_a_foes_armour_the_bp_he_lost_and_his_levels_penalty_stay_behind_the_screen(
    rolls_shown: str, amount: int, said: str, outcome: str
) -> None:
    state = damage(hit(two(ulf=ULF, rolls_shown=rolls_shown)), "Ulf", amount)
    assert last_log(state) == said  # the GM reads every figure
    read = players(state)
    if rolls_shown == "everything":
        assert said in read and outcome not in read
    else:
        assert outcome in read
        assert not [line for line in read if any(word in line for word in BEHIND)], read
    assert f"Ulf takes {amount} damage." in read


@pytest.mark.parametrize("rolls_shown", ROLLS_SHOWN)
def test_a_parry_onto_a_foes_shield_does_not_show_the_shields_values(rolls_shown: str) -> None:
    state = hit(two(ulf={**ULF, "shield": "medium", "shield_bearer": 1}, rolls_shown=rolls_shown))
    state = act(state, "parry", combatant=cid(state, "Ulf"), weapon="shield", cp=3, roll=d20(2))
    state = damage(state, "Ulf", 9)
    said = (
        "The parry puts the 9 damage on the Medium shield (PV 5): "
        "Ulf's body takes none. Medium shield: BV 50 → 46, PV 5."
    )
    assert last_log(state) == said
    read = players(state)
    if rolls_shown == "everything":
        assert said in read
    else:
        assert "The parry puts the 9 damage on the Medium shield: Ulf's body takes none." in read
        assert not [line for line in read if "BV" in line or "PV" in line], read


def test_an_unarmed_parry_halves_the_damage_for_the_players_too() -> None:
    state = hit(two(ulf=ULF))
    state = act(state, "parry", combatant=cid(state, "Ulf"), weapon="unarmed", cp=3, roll=d20(2))
    state = damage(state, "Ulf", 15)  # half is 7, chain mail PV 5: 2
    assert last_log(state) == (
        "Ulf loses 2 BP, lightly damaged. Unarmed parry of an armed attack: half, 7. "
        "Chain mail absorbs 5. Chain mail: BV 50 → 48, PV 5."
    )
    assert (
        "Ulf loses Body Points, lightly damaged. Unarmed parry of an armed attack: half, 7. "
        "Chain mail takes part of the blow."
    ) in players(state)


@pytest.mark.parametrize("rolls_shown", ROLLS_SHOWN)
def test_the_partys_own_figures_are_the_players(rolls_shown: str) -> None:
    state = two(fridgar={**FRIDGAR, "armour": "chain"}, rolls_shown=rolls_shown)
    state = damage(state, "Fridgar", 12)
    said = "Fridgar loses 7 BP, injured (-1). Chain mail absorbs 5. Chain mail: BV 50 → 43, PV 5."
    assert last_log(state) == said and said in players(state)


def test_the_players_card_names_nobody_hidden() -> None:
    """ "Held by" and "holding" name the other one: not while he is hidden from the players."""
    state = two(WRESTLER, {"sv": 9, "weapons": "broadsword"})
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "grapple", combatant=fridgar, target=ulf, sv=3, roll=d20(2))
    assert conditions(state, "Ulf") == ("This round: held by Fridgar",)
    assert conditions(state, "Fridgar") == ("This round: holding Ulf",)
    fridgar_hidden = apply(state, a.SetHidden(combatant=fridgar, hidden=True))
    assert ("This round", "held by Fridgar") in RULESET.details(fridgar_hidden, ulf)  # the GM's card says it
    assert conditions(fridgar_hidden, "Ulf") == ()
    ulf_hidden = apply(state, a.SetHidden(combatant=ulf, hidden=True))
    assert ("This round", "holding Ulf") in RULESET.details(ulf_hidden, fridgar)
    assert conditions(ulf_hidden, "Fridgar") == ()


def test_the_card_keeps_what_the_players_may_read_beside_someone_hidden() -> None:
    people: list[tuple[str, str, dict[str, Any]]] = [
        ("Heroes", "Fridgar", WRESTLER),
        ("Foes", "Ulf", {"sv": 9, "weapons": "broadsword"}),
        ("Foes", "Orm", {"sv": 9, "weapons": "seax"}),
    ]
    state = fight(*people, surprised="Heroes")
    state = roll_initiative(state, Fridgar=d10(10, 4), Ulf=d10(9), Orm=d10(3))
    fridgar = cid(state, "Fridgar")
    state = act(state, "grapple", combatant=fridgar, target=cid(state, "Ulf"), sv=3, roll=d20(1))
    assert conditions(state, "Fridgar") == ("This round: surprised (-5); holding Ulf",)
    hidden = apply(state, a.SetHidden(combatant=cid(state, "Ulf"), hidden=True))
    assert conditions(hidden, "Fridgar") == ("This round: surprised (-5)",)


@pytest.mark.parametrize("rolls_shown", ROLLS_SHOWN)
def test_a_hidden_foes_initiative_and_actions_are_not_the_players(rolls_shown: str) -> None:
    state = fight(("Heroes", "Fridgar", FRIDGAR), ("Foes", "Ulf", ULF), rolls_shown=rolls_shown)
    ulf = cid(state, "Ulf")
    state = apply(state, a.SetHidden(combatant=ulf, hidden=True))
    state = roll_initiative(state, Fridgar=d10(10, 4), Ulf=d10(9))
    state = apply(state, a.NextStep())  # Ulf's turn
    state = act(state, "hold", combatant=ulf)
    state = act(state, "act_held", combatant=ulf)
    texts = [entry.text for entry in state.log_entries()]
    assert any(text.startswith("Initiative — Ulf: ") for text in texts)
    assert "Held action now: Ulf (-5 on that turn's actions)." in texts
    # Lines about someone hidden are his by reference: none is held as if it named a secret (for the GM to show).
    assert not [entry.text for entry in state.log_entries() if entry.held]
    read = players(state)
    assert not [line for line in read if "Ulf" in line], read
    assert "Round 1 begins." in read


@pytest.mark.parametrize("rolls_shown", ROLLS_SHOWN)
def test_the_players_read_whether_a_defence_works_not_its_skill_value(rolls_shown: str) -> None:
    state = two(ulf={**ULF, "weapons": "broadsword, seax"}, rolls_shown=rolls_shown)
    state = hit(state)
    state = act(state, "parry", combatant=cid(state, "Ulf"), weapon="broadsword", cp=3, roll=d20(2))
    said = "Ulf parries attack #1 with the broadsword: 3 CP = SV 3; 1d20: [2] = 2 → parried."
    assert last_log(state).startswith(said)
    read = players(state)
    assert (said in " ".join(read)) is (rolls_shown == "everything")
    assert ("Ulf parries with the broadsword: parried." in read) is (rolls_shown == "outcomes")
    assert not [line for line in read if "SV" in line] or rolls_shown == "everything"


def test_the_players_read_whether_he_breaks_free() -> None:
    state = two(WRESTLER, {"sv": 9, "weapons": "broadsword"})
    fridgar, ulf = cid(state, "Fridgar"), cid(state, "Ulf")
    state = act(state, "grapple", combatant=fridgar, target=ulf, sv=3, roll=d20(2))
    state = apply(state, a.NextStep())
    state = act(state, "break_free", combatant=ulf, sv=1, roll=d20(1))
    assert last_log(state) == "Ulf tries to break free of Fridgar: SV 1 (3 CP) = SV 1; 1d20: [1] = 1 → critical: free."
    assert players(state)[-1] == "Ulf tries to break free of Fridgar: critical: free."
