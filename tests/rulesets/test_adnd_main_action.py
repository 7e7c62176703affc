"""One main action a round (PHB, "what you can do in one round"): his attacks, however many, are one; a spell
or another action is another; a second is refused with the reason, unless the GM ignores the book, which the
log says."""

from __future__ import annotations

import pytest

from tests.common import d10
from tests.engine.test_adnd2e import MONSTERS, PARTY, RAF, TROLLS, demo_store, start
from tui_combat.engine import actions as a
from tui_combat.engine.errors import RuleError
from tui_combat.rulesets import players_option
from tui_combat.rulesets.adnd2e import RULESET


def rolled() -> a.Action:
    return a.RollInitiative(rolls={PARTY: d10(3), MONSTERS: d10(8)})


def test_a_trolls_three_attack_forms_are_one_action_and_then_nothing_else() -> None:
    store = demo_store()
    start(store)
    store.dispatch(rolled())
    for _ in range(3):  # claw, claw, bite
        store.dispatch(a.RulesetAction(name="attack", args={"combatant": TROLLS[0]}))
    before = store.state
    with pytest.raises(RuleError, match="Troll 1 has attacked this round: his attacks were his main action"):
        store.dispatch(a.RulesetAction(name="main_action", args={"combatant": TROLLS[0]}))
    assert store.state is before
    assert (
        RULESET.form_preview(store.state, "main_action", TROLLS[0], {})
        == "Troll 1 has attacked this round: his attacks were his main action."
    )
    assert [f.key for f in RULESET.action_fields(store.state, "main_action", TROLLS[0])] == ["anyway"]


def test_a_main_action_taken_leaves_no_attack() -> None:
    store = demo_store()
    start(store)
    store.dispatch(rolled())
    assert RULESET.action_fields(store.state, "main_action", RAF) == ()  # nothing to ask the first time
    store.dispatch(a.RulesetAction(name="main_action", args={"combatant": RAF}))
    with pytest.raises(RuleError, match="Raf has already taken his main action this round: one a round"):
        store.dispatch(a.RulesetAction(name="attack", args={"combatant": RAF}))
    assert "anyway" in [f.key for f in RULESET.action_fields(store.state, "attack", RAF)]


def test_ignoring_the_book_is_logged() -> None:
    store = demo_store()
    start(store)
    store.dispatch(rolled())
    store.dispatch(a.RulesetAction(name="attack", args={"combatant": RAF}))
    store.dispatch(a.RulesetAction(name="main_action", args={"combatant": RAF, "anyway": True}))
    texts = [entry.text for entry in store.state.log_entries()[-2:]]
    assert texts[0] == "Raf takes a second main action this round, against the book."
    with pytest.raises(RuleError, match="already taken his main action"):
        store.dispatch(a.RulesetAction(name="main_action", args={"combatant": RAF}))


def test_players_option_keeps_the_same_rule() -> None:
    from tui_combat.engine.encounter import ENCOUNTER_DIR, load_encounter
    from tui_combat.fight.store import store_from_encounter

    store = store_from_encounter(load_encounter(ENCOUNTER_DIR / "demo_players_option.toml"), seed=1)
    store.dispatch(a.BeginSurprise())
    store.dispatch(a.StartFight())
    while players_option.RULESET.step_kind(store.state) != "initiative":
        store.dispatch(a.NextStep())
    requests = players_option.RULESET.initiative_requests(store.state)
    store.dispatch(a.RollInitiative(rolls={r.key: d10(index + 3) for index, r in enumerate(requests)}))
    hero = next(c for c in store.state.combatants if store.state.side(c.side).is_party)
    store.dispatch(a.RulesetAction(name="attack", args={"combatant": hero.id}))
    with pytest.raises(RuleError, match="his attacks were his main action"):
        store.dispatch(a.RulesetAction(name="main_action", args={"combatant": hero.id}))
