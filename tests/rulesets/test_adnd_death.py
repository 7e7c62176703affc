"""Death in the AD&D family (DM's Guide, gaps.md): dead at 0 hit points, hit points never below 0; the option
of lying unconscious down to −10, losing 1 hit point a round until bound or healed."""

from __future__ import annotations

import pytest

from tests.engine.test_adnd2e import MONSTERS, PARTY, RAF, TROLLS, demo_store, finish_round, start
from tui_combat.engine import actions as a
from tui_combat.engine.errors import RuleError
from tui_combat.engine.public import HealthScale, health_word
from tui_combat.fight.store import Store
from tui_combat.rulesets.adnd2e import RULESET


def fight(death: str = "dead") -> Store:
    store = demo_store()
    store.dispatch(a.SetOption(key="death", value=death))
    start(store)
    return store


@pytest.mark.parametrize("death", ["dead", "minus_10"])
def test_a_monster_at_0_is_dead_and_never_below_it(death: str) -> None:
    store = fight(death)
    troll = TROLLS[0]
    store.dispatch(a.Damage(combatant=troll, amount=50))  # 36 HP
    state = store.state
    assert state.combatant(troll).hp == 0 and state.combatant(troll).status == "down"
    assert RULESET.condition_word(state, troll) == "dead"


def test_by_the_book_a_character_at_0_is_dead_too() -> None:
    store = fight()
    store.dispatch(a.Damage(combatant=RAF, amount=38))  # exactly his 38
    assert store.state.combatant(RAF).hp == 0 and RULESET.condition_word(store.state, RAF) == "dead"
    assert RULESET.condition_word(store.state, TROLLS[0]) is None  # standing: no word


def test_the_option_dying_to_minus_10_losing_one_a_round() -> None:
    store = fight("minus_10")
    store.dispatch(a.Damage(combatant=RAF, amount=41))  # 38 HP → −3
    state = store.state
    assert state.combatant(RAF).hp == -3 and state.combatant(RAF).status == "down"
    assert RULESET.condition_word(state, RAF) == "dying"
    finish_round(store, {PARTY: 3, MONSTERS: 8})
    assert store.state.combatant(RAF).hp == -4
    assert "Raf is dying and loses 1 hit point: -4." in [e.text for e in store.state.log_entries()]
    # Bound, he loses no more.
    store.dispatch(a.RulesetAction(name="bind", args={"combatant": RAF}))
    assert RULESET.condition_word(store.state, RAF) == "unconscious"
    finish_round(store)
    assert store.state.combatant(RAF).hp == -4
    with pytest.raises(RuleError, match="^Bind wounds cannot be done now.$"):  # bound already: no longer offered
        store.dispatch(a.RulesetAction(name="bind", args={"combatant": RAF}))


def test_dead_at_minus_10_from_the_loss_or_from_a_hit() -> None:
    store = fight("minus_10")
    store.dispatch(a.Damage(combatant=RAF, amount=47))  # −9
    finish_round(store)
    assert store.state.combatant(RAF).hp == -10 and RULESET.condition_word(store.state, RAF) == "dead"
    texts = [e.text for e in store.state.log_entries()]
    assert texts[texts.index("Raf loses 1 hit point: -10.") :][:2] == [
        "Raf loses 1 hit point: -10.",
        "Raf is dead at −10.",
    ]
    finish_round(store)
    assert store.state.combatant(RAF).hp == -10  # the dead lose nothing more
    other = fight("minus_10")
    other.dispatch(a.Damage(combatant=RAF, amount=60))
    assert other.state.combatant(RAF).hp == -10 and RULESET.condition_word(other.state, RAF) == "dead"


def test_a_heal_stops_the_loss_or_brings_him_back() -> None:
    store = fight("minus_10")
    store.dispatch(a.Damage(combatant=RAF, amount=43))  # −5
    store.dispatch(a.Heal(combatant=RAF, amount=2))  # −3: still down, but healed
    finish_round(store)
    assert store.state.combatant(RAF).hp == -3 and RULESET.condition_word(store.state, RAF) == "unconscious"
    store.dispatch(a.Heal(combatant=RAF, amount=5))
    assert store.state.combatant(RAF).hp == 2 and store.state.combatant(RAF).status == "active"
    assert RULESET.condition_word(store.state, RAF) is None


def test_the_players_screen_word_is_the_books() -> None:
    store = fight("minus_10")
    store.dispatch(a.Damage(combatant=RAF, amount=40))
    raf = store.state.combatant(RAF)
    assert health_word(raf, HealthScale(), RULESET.condition_word(store.state, RAF)) == "dying"


def test_the_card_names_it() -> None:
    store = fight("minus_10")
    store.dispatch(a.Damage(combatant=RAF, amount=40))
    assert ("Condition", "dying") in RULESET.details(store.state, RAF)


# -- the log at the book's moments ---------------------------------------------------------------------------
def texts(store: Store) -> list[str]:
    return [e.text for e in store.state.log_entries()]


@pytest.mark.parametrize("death", ["dead", "minus_10"])
def test_a_monster_at_0_is_said_dead_as_the_blow_falls_and_once(death: str) -> None:
    store = fight(death)
    troll = TROLLS[0]
    store.dispatch(a.Damage(combatant=troll, amount=50))
    assert texts(store)[-3:] == ["Troll 1 takes 50 damage: 0/36 HP.", "Troll 1 is down.", "Troll 1 is dead."]
    store.dispatch(a.Damage(combatant=troll, amount=5))
    assert texts(store).count("Troll 1 is dead.") == 1


def test_by_the_book_a_character_at_0_is_said_dead() -> None:
    store = fight()
    store.dispatch(a.Damage(combatant=RAF, amount=38))
    assert texts(store)[-2:] == ["Raf is down.", "Raf is dead."]


def test_under_the_option_the_fall_says_he_bleeds_and_the_players_read_it_without_the_key() -> None:
    from tui_combat.engine.public import public_entries

    store = fight("minus_10")
    store.dispatch(a.Damage(combatant=RAF, amount=41))
    assert texts(store)[-2:] == [
        "Raf is down.",
        "Raf is bleeding: −1 hit point a round until the wounds are bound (key w) or healed; dead at −10.",
    ]
    assert [e.text for e in public_entries(store.state)][
        -1
    ] == "Raf is bleeding: −1 hit point a round until the wounds are bound or healed; dead at −10."
    # A blow while he lies dying that takes him to −10: dead, said once.
    store.dispatch(a.Damage(combatant=RAF, amount=12))
    assert texts(store)[-1] == "Raf is dead at −10."
    store.dispatch(a.Damage(combatant=RAF, amount=3))
    assert texts(store).count("Raf is dead at −10.") == 1 and "Raf is dead." not in texts(store)


def test_a_blow_straight_to_minus_10_kills_without_bleeding() -> None:
    store = fight("minus_10")
    store.dispatch(a.Damage(combatant=RAF, amount=60))
    assert texts(store)[-2:] == ["Raf is down.", "Raf is dead at −10."]
    assert not any(text.startswith("Raf is bleeding") for text in texts(store))


def test_players_option_says_the_same() -> None:
    from tests.rulesets.side_fight import roll_sides, two_sides, who

    store = two_sides("players_option", ("Party", [("Raf", {})]), ("Orcs", [("Orc", {})]), death="minus_10")
    roll_sides(store, 8, 3)
    ids = who(store)
    store.dispatch(a.Damage(combatant=ids["Orc"], amount=20))
    store.dispatch(a.Damage(combatant=ids["Raf"], amount=25))
    lines = texts(store)
    assert "Orc is dead." in lines
    assert (
        lines[-1] == "Raf is bleeding: −1 hit point a round until the wounds are bound (key w) or healed; dead at −10."
    )


@pytest.mark.parametrize("death", ["dead", "minus_10"])
def test_a_hit_that_leaves_nobody_dying_leaves_the_fight_state_as_it_was(death: str) -> None:
    """The same object, not an equal copy: the turn list keeps each combatant's budget while the fight state is
    the one it was worked out from, so a damage asked the rules anew for every budget on the screen."""
    store = fight(death)
    store.dispatch(a.Damage(combatant=TROLLS[0], amount=1))  # (the fight state made, from none)
    before = store.state.fight_state
    store.dispatch(a.Damage(combatant=TROLLS[0], amount=3))
    assert store.state.fight_state is before
    store.dispatch(a.Damage(combatant=RAF, amount=41))  # 38 HP → −3: dying under the option, dead by the book
    assert (store.state.fight_state is before) == (death == "dead")
