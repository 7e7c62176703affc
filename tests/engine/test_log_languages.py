"""The log is data: the same journal applied under two languages gives the same state, entry for
entry; only the text rendered from an entry follows the language in use when it is shown."""

from __future__ import annotations

from collections.abc import Iterator

import msgspec
import pytest

from tests.common import DEMO, Faces, typed
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply
from tui_combat.engine.dice import roll
from tui_combat.engine.encounter import encounter_actions, load_encounter
from tui_combat.engine.model import State
from tui_combat.i18n import language, set_language, use_catalog

# A made-up language: a few of the message ids the journal below logs, and one nested word ("hit").
CATALOG = {
    "Round {n} begins.": "Rondo {n} komenciĝas.",
    "Initiative — {label}: {roll}{modifier}.": "Iniciato — {label}: {roll}{modifier}.",
    "{expr} (typed): {total}": "{expr} (tajpita): {total}",
    "{name} attacks AC {ac}: d20 {roll}{bonus} vs {needed} — {result}.": "{name} atakas KA {ac}: d20 {roll}{bonus} "
    "kontraŭ {needed} — {result}.",
    "hit": "trafo",
    " {value} magic": " {value} magia",
    "{name} is hit before casting: {spell} is lost.": "{name} estas trafita antaŭ ol sorĉi: {spell} perdiĝas.",
    "{name} has fled.": "{name} forkuris.",
}


@pytest.fixture
def english() -> Iterator[None]:
    before = language()
    set_language("en")
    try:
        yield
    finally:
        set_language(before)
        registry.forget()


def demo_journal() -> list[a.Action]:
    """The demo encounter built, and its first round played with group-modified initiative: Raf attacks
    an orc, Delsenora is hit before her haste goes off, an orc flees, and round 2 begins."""
    journal: list[a.Action] = list(encounter_actions(load_encounter(DEMO), State(seed=0)))
    journal.append(a.SetOption(key="initiative", value="group"))
    state = State(seed=0)
    for action in journal:
        state = apply(state, action)
    party, monsters = (side.id for side in state.sides)
    who = {c.name: c.id for c in state.combatants}
    journal += [
        a.BeginSurprise(),
        a.RollSurprise(rolls={party: typed("1d10", 6), monsters: roll("1d10", Faces(9))}),
        a.RollDistance(situation="smoke_fog", roll=roll("6d6", Faces(1, 2, 3, 4, 5, 6))),
        a.StartFight(),
        a.NextStep(),  # past the monsters' secret step: the players declare in their own
        a.Declare(combatant=who["Delsenora"], declaration={"action": "spell", "spell": "haste"}),
        a.Declare(combatant=who["Raf"], declaration={"action": "weapon", "text": "the nearest orc"}),
        a.NextStep(),
        a.RollInitiative(rolls={party: typed("1d10", 6), monsters: roll("1d10", Faces(5))}),
        a.RulesetAction(name="attack", args={"combatant": who["Raf"], "target_ac": 6, "roll": roll("1d20", Faces(14))}),
        a.Damage(combatant=who["Orc 1"], amount=5, roll=typed("1d4+1", 5)),
        a.Damage(combatant=who["Delsenora"], amount=3),
        a.SetStatus(combatant=who["Orc 2"], status="fled"),
        a.Note(text="Raf shouts for Moradin."),
    ]
    journal += [a.NextStep()] * 6  # the five slots, the end of round 1, round 2
    journal.append(a.Heal(combatant=who["Delsenora"], amount=2))
    return journal


def replay(journal: list[a.Action]) -> State:
    state = State(seed=0)
    for action in journal:
        state = apply(state, action)
    return state


def test_the_same_journal_gives_the_same_state_in_two_languages(english: None) -> None:
    journal = demo_journal()
    in_english = replay(journal)
    english_texts = [entry.text for entry in in_english.log_entries()]

    use_catalog("xx", CATALOG)
    in_other = replay(journal)
    other_texts = [entry.text for entry in in_other.log_entries()]
    set_language("en")

    assert in_other == in_english
    assert msgspec.json.encode(in_other) == msgspec.json.encode(in_english)
    assert in_other.log_entries() == in_english.log_entries()
    assert in_english.round == 2

    # Rendered under each language: the translated ids differ, the rest reads the same.
    pairs = list(zip(english_texts, other_texts))
    assert ("Round 1 begins.", "Rondo 1 komenciĝas.") in pairs
    assert ("Round 2 begins.", "Rondo 2 komenciĝas.") in pairs
    assert ("Initiative — Party: 1d10 (typed): 6.", "Iniciato — Party: 1d10 (tajpita): 6.") in pairs
    assert ("Initiative — Monsters: 1d10: [5] = 5.", "Iniciato — Monsters: 1d10: [5] = 5.") in pairs
    # Group initiative, party 6 and monsters 5: Raf's war hammer +4 has speed 0 → 6; Delsenora's haste
    # (casting time 3) → 9; orcs' long swords (5) → 10; large trolls, natural weapons (+6) → 11; Rupert's
    # two-handed bastard sword +1 (8 − 1) → 13.
    assert (
        "Order: 6: Raf; 9: Delsenora; 10: Orc 1, Orc 2, Orc 3, Orc 4, Orc 5, Orc 6; "
        "11: Troll 1, Troll 2, Troll 3; 13: Rupert."
    ) in english_texts
    # Raf, warrior 5: THAC0 16, so 10 to hit AC 6; a 14 hits.
    assert (
        "Raf attacks AC 6: d20 14 +4 magic vs 10 — hit.",
        "Raf atakas KA 6: d20 14 +4 magia kontraŭ 10 — trafo.",
    ) in pairs
    assert (
        "Delsenora is hit before casting: haste is lost.",
        "Delsenora estas trafita antaŭ ol sorĉi: haste perdiĝas.",
    ) in pairs
    assert ("Orc 2 has fled.", "Orc 2 forkuris.") in pairs
    assert ("Raf shouts for Moradin.", "Raf shouts for Moradin.") in pairs
    translated = [entry.msg.id in CATALOG for entry in in_english.log_entries()]
    assert all(e != o for (e, o), t in zip(pairs, translated) if t)
    assert sum(translated) >= 7


def test_rendering_follows_the_language_in_use_when_shown(english: None) -> None:
    """One stored entry, shown twice: the state is not touched by switching languages."""
    state = replay(demo_journal())
    entry = next(e for e in state.log_entries() if e.facts.get("hit") is True)
    assert entry.text == "Raf attacks AC 6: d20 14 +4 magic vs 10 — hit."
    assert entry.facts == {
        "needed": 10,
        "natural": 14,
        "hit": True,
        "magic": 4,
        "bonus": 0,
        "armour_modifier": 0,
        "weapon": "war hammer",
        "attacker": "c2",
        "target": "",
    }
    use_catalog("xx", CATALOG)
    assert entry.text == "Raf atakas KA 6: d20 14 +4 magia kontraŭ 10 — trafo."
    set_language("en")
    assert entry.text == "Raf attacks AC 6: d20 14 +4 magic vs 10 — hit."
