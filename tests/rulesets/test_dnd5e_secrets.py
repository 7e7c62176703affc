"""D&D 5e and the players' screen: what the DM keeps behind his screen stays there on every public surface (the
view in both layouts and its data, the public report in Markdown, HTML and JSON), and the DM's own lines read
as before.

* The keys the DM presses ("… (key v)", "… (key f)") are left out of the players' lines.
* Someone hidden from the players is not named in an initiative, surprise, death saving throw, attack or
  condition line; a side made only of hidden ones has no initiative line for them. Such a line is his, by
  reference: not a text held for naming a secret, which the DM's key would offer to show.
* The stats (AC, the attack bonus, a DC, a speed factor) show only when the DM shows everything of the rolls.

What the players see of rolls is set before the lines are written: it applies from then on."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec
import pytest

from tests.common import ids
from tests.rulesets.dnd5e_fight import Member, d20, fight, texts
from tui_combat.engine import actions as a
from tui_combat.engine.apply import initiative_asked
from tui_combat.engine.audience import anything_held
from tui_combat.engine.model import ROLLS_OPTION
from tui_combat.engine.public import public_entries, public_view
from tui_combat.fight.report import fight_report, html_page, json_text, markdown
from tui_combat.fight.store import Store
from tui_combat.rulesets.dnd5e import RULESET
from tui_combat.screens.player_view import view_text

PARTY: list[Member] = [("Ada", 20, {"dex": 14, "ac": 12}), ("Bram", 12, {"dex": 10})]
ORCS: list[Member] = [("Orc", 15, {"dex": 12, "attack": 3, "ac": 13})]


def table(
    sides: Mapping[str, Sequence[Member]], rolls: str = "outcomes", hidden: Sequence[str] = (), **options: str
) -> Store:
    """A fight in set-up, what the players see of rolls set first, ``hidden`` hidden from them."""
    store = Store(fight(sides, **options))
    store.dispatch(a.SetOption(key=ROLLS_OPTION, value=rolls))
    for name in hidden:
        store.dispatch(a.SetHidden(combatant=ids(store.state)[name], hidden=True))
    return store


def shown(store: Store) -> str:
    """Every public surface at once: the view's text in both layouts and its data, the log's public lines, the
    public report in Markdown, HTML and JSON."""
    state = store.state
    view = public_view(state)
    report = fight_report(store.base, store.done_actions(), final=state, public=True)
    return "\n".join(
        (
            view_text(view),
            view_text(view, large=True),
            msgspec.json.encode(view).decode(),
            *(entry.text for entry in public_entries(state)),
            markdown(report),
            html_page(report),
            json_text(report),
        )
    )


def roll_all(store: Store, faces: Mapping[str, int], default: int = 5) -> None:
    """Initiative for everyone asked, by name of the roll's label (``default`` for the others)."""
    asked, _fresh = initiative_asked(RULESET, store.state)
    store.dispatch(a.RollInitiative(rolls={r.key: d20(faces.get(str(r.label), default)) for r in asked}))


def act(store: Store, action: str, who: str, /, **args: object) -> None:
    store.dispatch(a.RulesetAction(name=action, args={"combatant": ids(store.state)[who], **args}))


def turn_of(store: Store, name: str) -> None:
    for _step in range(20):
        if ids(store.state)[name] in store.state.acting_now() and RULESET.step_kind(store.state) == "resolve":
            return
        store.dispatch(a.NextStep())
    raise AssertionError(f"{name}'s turn never came")


# -- the DM's keys ------------------------------------------------------------------------------------------
def test_the_key_for_a_tie_is_the_dms_alone() -> None:
    store = table({"Party": PARTY, "Orcs": ORCS})
    store.dispatch(a.StartFight())
    roll_all(store, {"Ada": 13, "Orc": 14, "Bram": 2})  # Ada 13 + 2 = 15, the orc 14 + 1 = 15
    assert "Tie at 15: Ada, Orc. The DM decides who goes first (key f)." in texts(store.state)
    text = shown(store)
    assert "Tie at 15: Ada, Orc. The DM decides who goes first." in text
    assert "(key" not in text, text


def test_the_key_for_a_death_saving_throw_is_the_dms_alone() -> None:
    store = table({"Party": PARTY, "Orcs": ORCS})
    store.dispatch(a.StartFight())
    roll_all(store, {"Ada": 18, "Orc": 14, "Bram": 2})
    store.dispatch(a.Damage(combatant=ids(store.state)["Bram"], amount=15))
    turn_of(store, "Bram")
    gm = texts(store.state)
    assert (
        "Bram falls unconscious at 0 hit points and is dying: a death saving throw at the start of each turn (key v)."
    ) in gm
    assert gm[-1] == "Bram is dying: a death saving throw now (key v)."
    text = shown(store)
    assert (
        "Bram falls unconscious at 0 hit points and is dying: a death saving throw at the start of each turn."
    ) in text
    assert "Bram is dying: a death saving throw now." in text
    assert "(key" not in text, text


# -- someone hidden -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("rolls", ["outcomes", "everything"])
def test_a_hidden_creature_and_a_hidden_group_roll_initiative_unseen(rolls: str) -> None:
    store = table(
        {"Party": PARTY, "Orcs": [*ORCS, ("Ogre", 30, {"dex": 8}), ("Goblin", 7, {"dex": 14}, 2)]},
        rolls=rolls,
        hidden=("Ogre", "Goblin 1", "Goblin 2"),
    )
    store.dispatch(a.BeginSurprise())
    store.dispatch(a.SetSurprised(combatants=(ids(store.state)["Ogre"], ids(store.state)["Ada"])))
    store.dispatch(a.StartFight())
    roll_all(store, {"Ada": 12, "Orc": 9, "Ogre": 17, "Goblin": 11})
    gm = "\n".join(texts(store.state))
    assert "Surprised, they roll initiative with disadvantage: Ogre, Ada." in gm
    assert "Initiative — Ogre: " in gm and "Initiative — Goblin: " in gm
    text = shown(store)
    assert "Ogre" not in text and "Goblin" not in text, text
    assert "Surprised, they roll initiative with disadvantage: Ada." in text
    assert ("Initiative — Orc: " in text) == (rolls == "everything")


def test_static_initiative_leaves_out_the_hidden() -> None:
    store = table({"Party": PARTY, "Orcs": [*ORCS, ("Ogre", 30, {"dex": 8})]}, initiative="static", hidden=("Ogre",))
    store.dispatch(a.StartFight())
    assert "Static initiative: Ada 12, Bram 10, Orc 11, Ogre 9." in texts(store.state)
    text = shown(store)
    assert "Static initiative: Ada 12, Bram 10, Orc 11." in text and "Ogre" not in text, text


def test_a_tie_with_someone_hidden_is_not_the_players() -> None:
    """Ada ties with the hidden ogre alone: a tie of one would tell the players someone unseen ties with her."""
    store = table({"Party": PARTY, "Orcs": [*ORCS, ("Ogre", 30, {"dex": 14})]}, hidden=("Ogre",))
    store.dispatch(a.StartFight())
    roll_all(store, {"Ada": 13, "Ogre": 13, "Orc": 4, "Bram": 2})
    assert "Tie at 15: Ada, Ogre. The DM decides who goes first (key f)." in texts(store.state)
    assert "Order: 15, tie: Ada, Ogre; 5: Orc; 2: Bram." in texts(store.state)
    assert "Order: 15: Ada; 5: Orc; 2: Bram." in [entry.text for entry in public_entries(store.state)]
    store.dispatch(
        a.RulesetAction(
            name="tie",
            args={
                "place1": next(
                    key for key, entry in RULESET.live_entries(store.state).items() if str(entry.label) == "Ogre"
                )
            },
        )
    )
    assert texts(store.state)[-1] == "Tie at 15 decided: Ogre, Ada."
    text = shown(store)
    assert "Tie at" not in text and "Ogre" not in text, text
    assert not anything_held(store.state)


def test_a_hidden_character_dying_is_not_named() -> None:
    store = table({"Party": PARTY, "Orcs": ORCS}, hidden=("Bram",))
    store.dispatch(a.StartFight())
    roll_all(store, {"Ada": 18, "Orc": 14, "Bram": 2})
    store.dispatch(a.Damage(combatant=ids(store.state)["Bram"], amount=15))
    turn_of(store, "Bram")
    act(store, "death_save", "Bram", roll=msgspec.to_builtins(d20(12)))
    gm = texts(store.state)
    assert gm[-2:] == [
        "Bram makes a death saving throw: 1d20 (typed): 12.",
        "Bram: a success; successes ●○○, failures ○○○.",
    ]
    text = shown(store)
    assert "Bram" not in text and "death saving throw" not in text, text
    assert not anything_held(store.state)


@pytest.mark.parametrize("rolls", ["outcomes", "everything"])
def test_a_hidden_attacker_and_a_hidden_target_are_not_named(rolls: str) -> None:
    store = table(
        {"Party": PARTY, "Orcs": [*ORCS, ("Ogre", 30, {"dex": 8, "attack": 6})]}, rolls=rolls, hidden=("Ogre",)
    )
    store.dispatch(a.StartFight())
    roll_all(store, {"Ada": 18, "Orc": 14, "Ogre": 3, "Bram": 2})
    who = ids(store.state)
    act(store, "attack", "Ogre", target=who["Ada"], uses="reaction", to_hit=msgspec.to_builtins(d20(20)))
    act(store, "attack", "Ada", target=who["Ogre"], to_hit=msgspec.to_builtins(d20(15)))
    gm = texts(store.state)
    assert "Ogre attacks Ada: 1d20 (typed): 20, +6 → 26 against AC 12: critical hit." in gm
    assert "Ada attacks Ogre: 1d20 (typed): 15, +0 → 15 against AC 10: hit." in gm
    text = shown(store)
    assert "Ogre" not in text and "critical" not in text and "Ada hits" not in text, text
    assert not anything_held(store.state)


# -- a side of hidden ones only -----------------------------------------------------------------------------
@pytest.mark.parametrize("rolls", ["outcomes", "everything"])
def test_a_side_of_hidden_ones_only_rolls_no_initiative_for_the_players(rolls: str) -> None:
    store = table(
        {"Party": PARTY, "Orcs": ORCS, "Reinforcements": [("Ogre", 30, {}), ("Troll", 40, {})]},
        rolls=rolls,
        hidden=("Ogre", "Troll"),
        initiative="side",
    )
    store.dispatch(a.StartFight())
    roll_all(store, {"Party": 12, "Orcs": 9, "Reinforcements": 8})
    gm = texts(store.state)
    assert "Initiative — Reinforcements: 1d20 (typed): 8." in gm
    assert "Order: Party: Ada, Bram; Orcs: Orc; Reinforcements: Ogre, Troll." in gm
    text = shown(store)
    assert "Reinforcements" not in text and "Ogre" not in text and "Troll" not in text, text
    assert "Order: Party: Ada, Bram; Orcs: Orc." in text
    assert ("Initiative — Orcs: 1d20 (typed): 9." in text) == (rolls == "everything")


def test_a_tie_of_a_seen_side_with_a_side_of_hidden_ones_is_rerolled_unseen() -> None:
    store = table(
        {"Party": PARTY, "Orcs": ORCS, "Reinforcements": [("Ogre", 30, {})]},
        rolls="everything",
        hidden=("Ogre",),
        initiative="side",
    )
    store.dispatch(a.StartFight())
    roll_all(store, {"Party": 12, "Orcs": 8, "Reinforcements": 8})
    assert texts(store.state)[-1] == "Initiative needs more rolls: Orcs, tie reroll, Reinforcements, tie reroll."
    roll_all(store, {"Orcs, tie reroll": 3, "Reinforcements, tie reroll": 4})
    assert "Initiative — Reinforcements, tie reroll: 1d20 (typed): 4." in texts(store.state)
    text = shown(store)
    assert "tie reroll" not in text and "Reinforcements" not in text, text


# -- conditions ---------------------------------------------------------------------------------------------
def test_a_condition_lasting_until_a_hidden_ones_turn_does_not_name_him() -> None:
    store = table({"Party": PARTY, "Orcs": [*ORCS, ("Ogre", 30, {})]}, hidden=("Ogre",))
    store.dispatch(a.StartFight())
    roll_all(store, {"Ada": 18, "Orc": 14, "Ogre": 3, "Bram": 2})
    who = ids(store.state)
    act(store, "condition", "Ada", condition="frightened", ends="end", anchor=who["Ogre"])
    assert texts(store.state)[-1] == "Ada is frightened until the end of Ogre's next turn."
    text = shown(store)
    assert "Ada is frightened." in text and "frightened" in view_text(public_view(store.state))
    assert "Ogre" not in text, text


# -- stats --------------------------------------------------------------------------------------------------
def started_attack(rolls: str) -> Store:
    store = table({"Party": PARTY, "Orcs": ORCS}, rolls=rolls)
    store.dispatch(a.StartFight())
    roll_all(store, {"Ada": 18, "Orc": 14, "Bram": 2})
    act(store, "attack", "Ada", target=ids(store.state)["Orc"], to_hit=msgspec.to_builtins(d20(20)))
    return store


def test_the_players_read_a_critical_hit_not_the_ac_nor_the_bonus() -> None:
    store = started_attack("outcomes")
    assert texts(store.state)[-1] == "Ada attacks Orc: 1d20 (typed): 20, +0 → 20 against AC 13: critical hit."
    text = shown(store)
    assert "Ada hits Orc: a critical hit." in text
    assert "AC 13" not in text and "1d20 (typed): 20" not in text, text
    assert "AC 13" in shown(started_attack("everything"))
    assert not [
        e.text for e in public_entries(started_attack("nothing").state) if "Ada hits" in e.text or "AC" in e.text
    ]


def test_a_concentration_dc_stays_behind_the_screen() -> None:
    store = table({"Party": PARTY, "Orcs": ORCS})
    store.dispatch(a.StartFight())
    roll_all(store, {"Ada": 18, "Orc": 14, "Bram": 2})
    act(store, "condition", "Orc", condition="concentrating")
    store.dispatch(a.Damage(combatant=ids(store.state)["Orc"], amount=4))
    assert (
        texts(store.state)[-1] == "Orc is concentrating: a Constitution saving throw against DC 10, or the spell ends."
    )
    text = shown(store)
    assert "Orc is concentrating: a Constitution saving throw, or the spell ends." in text
    assert "DC" not in text, text


def test_a_speed_factor_and_a_monsters_declaration_stay_behind_the_screen() -> None:
    store = table({"Party": PARTY, "Orcs": ORCS}, initiative="speed_factor")
    store.dispatch(a.StartFight())
    who = ids(store.state)
    store.dispatch(a.Declare(combatant=who["Ada"], declaration={"action": "spell", "spell_level": 1}))
    store.dispatch(a.Declare(combatant=who["Orc"], declaration={"action": "spell", "spell_level": 2}))
    store.dispatch(a.NextStep())
    roll_all(store, {"Orc": 19, "Ada": 2, "Bram": 2})
    act(store, "attack", "Orc", target=who["Ada"], uses="action", overrule=True, to_hit=msgspec.to_builtins(d20(3)))
    gm = texts(store.state)
    assert "Ada declares a spell of level 1: speed factor -1 (spell of level 1 -1)." in gm
    assert "Orc ignores the book: an attack instead of what was declared (a spell of level 2)." in gm
    text = shown(store)
    assert "Ada declares a spell of level 1." in text and "speed factor -1" not in text, text
    assert "Orc ignores the book: an attack instead of what was declared." in text
    assert "level 2" not in text, text
