"""Surprise, whole (DM's Guide, gaps.md): the surprising side's free round allows melee, missiles and magic items
but no spells; attacks against the surprised get +1 and the surprised lose their Dex bonus to AC; both sides
surprised, nothing of it."""

from __future__ import annotations

import pytest

from tests.common import d10
from tests.engine.test_adnd2e import DELSENORA, MONSTERS, PARTY, RAF, TROLLS, demo_store, finish_round, to_initiative
from tui_combat.engine import actions as a
from tui_combat.engine.errors import RuleError
from tui_combat.fight.store import Store
from tui_combat.rulesets.adnd2e import RULESET


def d20(total: int) -> dict[str, object]:
    return {"expr": "1d20", "total": total, "faces": [total]}


def surprised(party: int, monsters: int, dex_ac: int = -2) -> Store:
    """The demo with the trolls' AC 4 made of AC 6 and Dex −2 (ours), surprise rolled, round 1 reached."""
    store = demo_store()
    troll = store.state.combatant(TROLLS[0])
    store.dispatch(a.EditCombatant(combatant=TROLLS[0], sheet={**troll.sheet, "dex_ac": dex_ac}))
    store.dispatch(a.BeginSurprise())
    store.dispatch(a.RollSurprise(rolls={PARTY: d10(party), MONSTERS: d10(monsters)}))
    store.dispatch(a.StartFight())
    return store


def test_the_free_round_allows_no_spell() -> None:
    store = surprised(7, 2)  # the monsters rolled 2: surprised
    assert set(store.state.surprised) >= set(TROLLS)
    store.dispatch(a.NextStep())  # the monsters' intentions (they lose the round anyway)
    before = store.state
    with pytest.raises(RuleError, match="Delsenora cannot cast a spell in the surprise round"):
        store.dispatch(a.Declare(combatant=DELSENORA, declaration={"action": "spell", "spell": "acid arrow"}))
    assert store.state is before
    # Melee, missiles and magic items are allowed.
    store.dispatch(a.Declare(combatant=RAF, declaration={"action": "item", "item": "misc", "text": "horn of blasting"}))
    store.dispatch(a.Declare(combatant=DELSENORA, declaration={"action": "weapon"}))
    # From round 2 on she may cast again.
    finish_round(store, {PARTY: 3})
    store.dispatch(a.NextStep())
    store.dispatch(a.Declare(combatant=DELSENORA, declaration={"action": "spell", "spell": "acid arrow"}))


def test_attacks_on_the_surprised_get_plus_1_and_no_dex_bonus() -> None:
    store = surprised(7, 2)
    to_initiative(store)
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(3)}))
    state = store.state
    # Raf, THAC0 16, against the troll's AC 4 without its Dex −2: AC 6, 10 needed; +4 magic, +1 surprised: 5.
    assert RULESET.form_preview(state, "attack", RAF, {"target": TROLLS[0]}) == (
        "Needs 5 or more on the d20 (THAC0 16 − AC 6, +4 magic, +1 surprised, surprised: AC without Dex -2): "
        "80% to hit."
    )
    store.dispatch(a.RulesetAction(name="attack", args={"combatant": RAF, "target": TROLLS[0], "roll": d20(5)}))
    assert (
        store.state.log_entries()[-1].text
        == "Raf attacks Troll 1 (AC 6) with war hammer: d20 5 +4 magic +1 surprised vs 10 — hit."
    )
    # An AC typed by the GM is taken as it is (the +1 stays).
    assert (
        RULESET.form_preview(state, "attack", RAF, {"target": TROLLS[0], "target_ac": "4"})
        == "Needs 7 or more on the d20 (THAC0 16 − AC 4, +4 magic, +1 surprised): 70% to hit."
    )


def test_a_dex_penalty_is_not_lost_and_round_2_is_plain() -> None:
    store = surprised(7, 2, dex_ac=1)
    to_initiative(store)
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(3)}))
    assert (
        RULESET.form_preview(store.state, "attack", RAF, {"target": TROLLS[0]})
        == "Needs 7 or more on the d20 (THAC0 16 − AC 4, +4 magic, +1 surprised): 70% to hit."
    )
    finish_round(store, {PARTY: 3, MONSTERS: 8})
    assert (
        RULESET.form_preview(store.state, "attack", RAF, {"target": TROLLS[0]})
        == "Needs 8 or more on the d20 (THAC0 16 − AC 4, +4 magic): 65% to hit."
    )


def test_both_surprised_nothing_of_it() -> None:
    store = surprised(1, 2)
    assert store.state.surprised == ()
    to_initiative(store)
    store.dispatch(a.Declare(combatant=DELSENORA, declaration={"action": "spell", "spell": "acid arrow"}))
    store.dispatch(a.RollInitiative(rolls={PARTY: d10(3), MONSTERS: d10(8)}))
    assert (
        RULESET.form_preview(store.state, "attack", RAF, {"target": TROLLS[0]})
        == "Needs 8 or more on the d20 (THAC0 16 − AC 4, +4 magic): 65% to hit."
    )
