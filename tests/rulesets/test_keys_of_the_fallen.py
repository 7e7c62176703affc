"""What each ruleset offers for the fallen (``action_available``, which the footer and the key both ask): a dying
character's keys are what he can still do — 5e his death save, never an attack, a use or a move; AD&D 2e and
Player's Option under the −10 option his wounds bound by another, never an attack nor a main action — and the
dead (a monster at 0) have none of a turn's keys; in Trudvang the dying neither act nor defend; in OSE a dead
creature of the side acting now does not attack."""

from __future__ import annotations

import pytest

from tests.common import d10
from tests.rulesets.dnd5e_fight import act as act_5e
from tests.rulesets.dnd5e_fight import d20, next_until
from tests.rulesets.ose_fight import build, roll_initiative, to_slot
from tests.rulesets.side_fight import kind, roll_sides, two_sides, who
from tests.rulesets.test_dnd5e_table import adas_turn, bram_down
from tests.rulesets.trudvang_fight import FRIDGAR, cid
from tests.rulesets.trudvang_fight import fight as trudvang_fight
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply
from tui_combat.engine.model import State
from tui_combat.rulesets.dnd5e import RULESET as DND5E
from tui_combat.rulesets.ose import RULESET as OSE
from tui_combat.rulesets.trudvang import RULESET as TRUDVANG


def offered(ruleset_id: str, state: State, combatant_id: str) -> set[str]:
    ruleset = registry.get(ruleset_id)
    return {
        spec.name
        for spec in ruleset.actions
        if spec.needs_combatant and ruleset.action_available(state, spec.name, combatant_id)
    }


def test_5e_a_dying_character_is_offered_his_death_save_not_an_attack() -> None:
    state = next_until(bram_down(), "Bram")
    bram = next(c.id for c in state.combatants if c.name == "Bram")
    # (The DM's: his conditions — prone to end —, counters, temporary hit points.)
    assert offered("dnd5e", state, bram) == {"death_save", "condition", "end_condition", "counter", "temp_hp"}
    state = act_5e(state, "death_save", "Bram", roll=d20(12))
    assert "attack" not in offered("dnd5e", state, bram) and "use" not in offered("dnd5e", state, bram)


def test_5e_a_dead_goblin_has_no_turn_s_keys() -> None:
    state = adas_turn()
    goblin = next(c.id for c in state.combatants if c.name == "Goblin 1")
    assert {"attack", "use"} <= offered("dnd5e", state, goblin)
    state = apply(state, a.Damage(combatant=goblin, amount=11))
    assert (
        offered("dnd5e", state, goblin) & {"attack", "attack_advantage", "attack_disadvantage", "use", "move"} == set()
    )
    assert DND5E.action_available(state, "condition", goblin)


@pytest.mark.parametrize("ruleset", ["adnd2e", "players_option"])
def test_adnd_a_dying_character_is_offered_his_wounds_bound_not_an_attack(ruleset: str) -> None:
    store = two_sides(ruleset, ("Party", [("Raf", {}), ("Sigrun", {})]), ("Orcs", [("Orc", {})]), death="minus_10")
    roll_sides(store, 8, 3)
    while kind(store.state) != "resolve":
        store.dispatch(a.NextStep())
    ids = who(store)
    raf, orc = ids["Raf"], ids["Orc"]
    assert {"attack", "main_action"} <= offered(ruleset, store.state, raf)
    assert "bind" not in offered(ruleset, store.state, raf)

    store.dispatch(a.Damage(combatant=raf, amount=23))  # 20 HP → −3: dying
    dying = offered(ruleset, store.state, raf)
    assert "bind" in dying and not {"attack", "main_action", "abandon"} & dying
    store.dispatch(a.RulesetAction(name="bind", args={"combatant": raf}))
    assert "bind" not in offered(ruleset, store.state, raf)  # bound: nothing more to bind

    store.dispatch(a.Damage(combatant=orc, amount=25))  # a monster dies at 0
    assert not {"attack", "main_action", "bind"} & offered(ruleset, store.state, orc)


def test_adnd_by_the_book_a_character_at_0_is_dead_and_offered_nothing_of_a_turn() -> None:
    store = two_sides("adnd2e", ("Party", [("Raf", {})]), ("Orcs", [("Orc", {})]))
    roll_sides(store, 8, 3)
    while kind(store.state) != "resolve":
        store.dispatch(a.NextStep())
    raf = who(store)["Raf"]
    store.dispatch(a.Damage(combatant=raf, amount=20))
    assert offered("adnd2e", store.state, raf) == {"effect"}


def test_trudvang_the_dying_neither_act_nor_defend() -> None:
    state = trudvang_fight(("Heroes", "Fridgar", FRIDGAR), ("Foes", "Orm", FRIDGAR))
    orm, fridgar = cid(state, "Orm"), cid(state, "Fridgar")
    assert offered("trudvang", state, orm) == {"change_action", "skip"}
    state = apply(state, a.Damage(combatant=orm, amount=40))
    assert state.combatant(orm).status == "down"
    assert offered("trudvang", state, orm) == set()
    assert offered("trudvang", state, fridgar) == {"change_action", "skip"}
    state = apply(state, a.NextStep())  # the countdown's rolls
    state = apply(
        state, a.RollInitiative(rolls={key: d10(5) for key in (r.key for r in TRUDVANG.initiative_requests(state))})
    )
    while TRUDVANG.step_kind(state) != "resolve":
        state = apply(state, a.NextStep())
    assert offered("trudvang", state, orm) == set()
    assert {"attack", "parry"} <= offered("trudvang", state, fridgar)


def test_ose_a_dead_goblin_does_not_attack_with_his_side() -> None:
    state = build(
        {
            "Party": [("Cob", 6, {"weapon": "sword"})],
            "Goblins": [("Goblin", 3, {"weapon": "spear"}), ("Grak", 3, {"weapon": "spear"})],
        }
    )
    goblin, grak = (c.id for c in state.combatants if c.name in ("Goblin", "Grak"))
    state = roll_initiative(state, {"s1": 2, "s3": 5})
    state = apply(state, a.Damage(combatant=goblin, amount=3))
    state = to_slot(state, "Goblins · melee")
    assert goblin in state.acting_now()
    assert not OSE.action_available(state, "attack", goblin)
    assert OSE.action_available(state, "attack", grak)
