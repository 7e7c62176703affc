"""Player's Option: a spell acts in the phase its casting time gives (the data file's default: 1–3 fast, 4–6
average, 7–9 slow, more or a round and longer very slow), shifted by the side's 1 or 10, the GM's phase
winning; placement covers a side spotted unseen as well as a surprised one."""

from __future__ import annotations

import pytest

from tests.common import d10
from tests.rulesets.side_fight import texts
from tests.rulesets.test_players_option import DEMO, surprise
from tui_combat.engine import actions as a
from tui_combat.engine.encounter import load_encounter
from tui_combat.engine.errors import RuleError
from tui_combat.fight.store import store_from_encounter
from tui_combat.rulesets.players_option import RULESET, PoDeclaration, PoSheet, po_tables
from tui_combat.rulesets.players_option.phases import phase_of

CASTER = PoSheet(
    cls="wizard",
    level=9,
    weapon="dagger",
    spells="magic missile 1, lightning bolt 3, cone of cold 5, ice storm 6, slow 7, delayed blast 9, "
    "wall of iron 10, monster summoning 1 round, raise dead 1 turn",
)


def phase_name(spell: str, *, shift: int = 0, phase: str = "") -> str:
    reading = phase_of(CASTER, PoDeclaration(action="spell", spell=spell, phase=phase), po_tables(), shift)
    return po_tables().phases[reading.index].id


@pytest.mark.parametrize(
    ("spell", "expected"),
    [
        ("magic missile", "fast"),
        ("lightning bolt", "fast"),
        ("cone of cold", "average"),
        ("ice storm", "average"),
        ("slow", "slow"),
        ("delayed blast", "slow"),
        ("wall of iron", "very_slow"),
        ("monster summoning", "very_slow"),
        ("raise dead", "very_slow"),
    ],
)
def test_a_spell_acts_in_the_phase_of_its_casting_time(spell: str, expected: str) -> None:
    assert phase_name(spell) == expected


def test_the_sides_roll_shifts_it_and_the_gms_phase_wins() -> None:
    assert phase_name("cone of cold", shift=-1) == "fast"  # the side rolled 1
    assert phase_name("slow", shift=1) == "very_slow"  # the side rolled 10
    assert phase_name("wall of iron", phase="very_fast") == "very_fast"
    # Not on his list: his base initiative (fast), as before.
    assert phase_name("wish") == "fast"
    reading = phase_of(CASTER, PoDeclaration(action="spell", spell="cone of cold"), po_tables())
    assert reading.steps == ("cone of cold, casting time 5: average",)


def test_the_casting_time_table_is_an_option_the_gm_may_set_aside() -> None:
    """No source gives the table (not the seed, nor players-option.md or gaps.md): the option ``spell_phase`` lets
    the GM give each spell's phase himself; without one, the caster's base initiative (fast for this wizard)."""
    option = next(o for o in RULESET.options if o.key == "spell_phase")
    assert [value for value, _label in option.choices] == ["casting_time", "gm"]  # the table stays the default
    by_gm = phase_of(CASTER, PoDeclaration(action="spell", spell="wall of iron"), po_tables(), by_casting_time=False)
    assert po_tables().phases[by_gm.index].id == "fast"
    set_by_gm = phase_of(
        CASTER, PoDeclaration(action="spell", spell="wall of iron", phase="slow"), po_tables(), by_casting_time=False
    )
    assert po_tables().phases[set_by_gm.index].id == "slow"
    store = store_from_encounter(load_encounter(DEMO), seed=1)
    store.dispatch(a.SetOption(key="spell_phase", value="gm"))
    assert store.state.options["spell_phase"] == "gm"


def test_placement_when_a_side_was_spotted_unseen() -> None:
    store = store_from_encounter(load_encounter(DEMO), seed=1)
    store.dispatch(a.SetOption(key="spotted", value="party"))
    store.dispatch(a.BeginSurprise())
    keys = [r.key for r in RULESET.surprise_requests(store.state)]
    store.dispatch(a.RollSurprise(rolls={keys[0]: d10(5), keys[1]: d10(6)}))  # nobody surprised
    store.dispatch(a.StartFight())
    assert "Placing the figures: Gnolls first (spotted unseen), then Heroes, at the rolled range." in texts(store.state)
    other = store_from_encounter(load_encounter(DEMO), seed=1)
    other.dispatch(a.SetOption(key="spotted", value="others"))
    other.dispatch(a.BeginSurprise())
    other.dispatch(a.StartFight())
    assert "Placing the figures: Heroes first (spotted unseen), then Gnolls, at the rolled range." in texts(other.state)


def test_surprise_still_places_the_surprised_first() -> None:
    store = surprise(3, 9)
    store.dispatch(a.StartFight())
    assert "Placing the figures: Heroes first (surprised), then Gnolls, at the rolled range." in texts(store.state)


def test_the_free_round_allows_no_spell_in_players_option_either() -> None:
    store = surprise(8, 2)  # the gnolls rolled 2: surprised
    store.dispatch(a.StartFight())
    store.dispatch(a.NextStep())  # the monsters' actions: on to the heroes'
    ilse = next(c.id for c in store.state.combatants if c.name == "Ilse")
    with pytest.raises(RuleError, match="Ilse cannot cast a spell in the surprise round"):
        store.dispatch(a.Declare(combatant=ilse, declaration={"action": "spell", "spell": "sleep"}))
    store.dispatch(a.Declare(combatant=ilse, declaration={"action": "attack"}))
