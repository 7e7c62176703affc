"""The fight report (:mod:`tui_combat.fight.report`): the AD&D 2e demo played for two rounds, its report in Markdown,
HTML and JSON (every roll with its faces, each round's turn order, the summary), its public form without a
secret over random play of the five demos (the players' screen's own generator), and writing it to a file."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from msgspec.structs import replace

from tests.common import DEMO, d10, rolled
from tests.engine.test_public import SECRET, SECRET_NUMBERS, Step, fights, physical, played, prepared, state_of, steps
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply, initiative_asked
from tui_combat.engine.encounter import load_encounter
from tui_combat.engine.model import ROLLS_OPTION, State
from tui_combat.engine.registry import get
from tui_combat.fight.report import (
    ReportError,
    default_report_path,
    fight_report,
    format_for,
    html_page,
    json_text,
    markdown,
    store_report,
    write_report,
)
from tui_combat.fight.store import Store, store_from_encounter
from tui_combat.i18n import use_catalog

TROLLS = "Troll 1, Troll 2, Troll 3"
ORCS = "Orc 1, Orc 2, Orc 3, Orc 4, Orc 5, Orc 6"


def step_kind(store: Store) -> str:
    return get("adnd2e").steps(store.state)[store.state.step].kind


def step_to(store: Store, kind: str) -> None:
    while step_kind(store) != kind:
        store.dispatch(a.NextStep())


def attack(store: Store, attacker: str, target: str, face: int, weapon: str = "") -> None:
    ids = {c.name: c.id for c in store.state.combatants}
    args = {"combatant": ids[attacker], "target": ids[target], "roll": {"expr": "1d20", "total": face, "faces": [face]}}
    store.dispatch(a.RulesetAction(name="attack", args={**args, **({"with": weapon} if weapon else {})}))


def two_rounds(folder: Path | None = None, rolls_shown: str = "") -> Store:
    """The AD&D 2e demo, two rounds. Round 1: a note in the monsters' (secret) step; Delsenora declares acid
    arrow; initiative party 7, monsters 3 (the monsters first); Troll 1 claws her (d20 14) for 1d4+1 showing
    4 (5 damage): the spell is lost; Raf hits Orc 1 (d20 17) for 1d8+1 showing 5 (6 damage: 5 − 6 = −1, down);
    Orc 2 flees. Round 2: party 2, monsters 9; Delsenora heals 3; a secret note. Saved in ``folder`` if given;
    ``rolls_shown``: what the players see of rolls, set before the fight."""
    store = store_from_encounter(load_encounter(DEMO), folder=folder, seed=1)
    if rolls_shown:
        store.dispatch(a.SetOption(key=ROLLS_OPTION, value=rolls_shown))
    ids = {c.name: c.id for c in store.state.combatants}
    store.dispatch(a.BeginSurprise())
    store.dispatch(a.StartFight())
    store.dispatch(a.Note(text="The orcs run at the first death"))  # in the monsters' step: secret
    step_to(store, "declare")
    store.dispatch(a.NextStep())  # the players' declarations
    store.dispatch(a.Declare(combatant=ids["Delsenora"], declaration={"action": "spell", "spell": "acid arrow"}))
    step_to(store, "initiative")
    store.dispatch(a.RollInitiative(rolls={"s1": d10(7), "s5": d10(3)}))
    attack(store, "Troll 1", "Delsenora", 14, weapon="claw")
    store.dispatch(a.Damage(combatant=ids["Delsenora"], amount=5, roll=rolled("1d4+1", 4)))
    store.dispatch(a.NextStep())  # the party's slot
    attack(store, "Raf", "Orc 1", 17)
    store.dispatch(a.Damage(combatant=ids["Orc 1"], amount=6, roll=rolled("1d8+1", 5)))
    store.dispatch(a.SetStatus(combatant=ids["Orc 2"], status="fled"))
    while store.state.round == 1:
        store.dispatch(a.NextStep())
    step_to(store, "initiative")
    store.dispatch(a.RollInitiative(rolls={"s1": d10(2), "s5": d10(9)}))
    store.dispatch(a.Heal(combatant=ids["Delsenora"], amount=3))
    store.dispatch(a.Note(text="Troll 2 smells the wizard", secret=True))
    return store


@pytest.fixture(scope="module")
def fought() -> Store:
    return two_rounds()


def section(text: str, start: str, end: str) -> str:
    """From the heading ``start`` to the next ``end`` after it."""
    begin = text.index(start)
    return text[begin : text.index(end, begin + len(start))]


# -- Markdown ------------------------------------------------------------------------------------------------
def test_the_report_lists_every_roll_of_the_log_with_its_faces(fought: Store) -> None:
    text = markdown(store_report(fought))
    entries = fought.state.log_entries()
    rolls = [roll for entry in entries for roll in entry.rolls]
    # four initiative d10s, two attack d20s, two damage rolls
    assert len(rolls) == 8
    shown = [
        "1d10: [7] = 7",
        "1d10: [3] = 3",
        "1d20: [14] = 14",
        "1d4+1: [4] + 1 = 5",
        "1d20: [17] = 17",
        "1d8+1: [5] + 1 = 6",
        "1d10: [2] = 2",
        "1d10: [9] = 9",
    ]
    for faces in shown:
        assert faces in text, faces
    # each on the line of its own entry, in the section of its round
    for entry in entries:
        for faces in (shown[rolls.index(roll)] for roll in entry.rolls):
            part = section(text, f"## Round {entry.round}", "##")
            line = next(line for line in part.splitlines() if line.startswith(f"- {entry.text}"))
            assert faces in line, (faces, line)
    # a roll the text shows only by its total gets its faces beside it
    assert (
        "- Troll 1 attacks Delsenora (AC 9) with claw: d20 14 vs 4 — hit. · 🎲 `1d20: [14] = 14`" in text.splitlines()
    )


def test_each_round_has_its_own_turn_order_as_it_stood(fought: Store) -> None:
    text = markdown(store_report(fought))
    round_1 = section(text, "## Round 1", "## Round 2")
    round_2 = section(text, "## Round 2", "## Summary")
    assert f"1. **3**: {TROLLS}, {ORCS}\n2. **7**: Raf, Rupert, Delsenora" in round_1
    # Orc 1 is down and Orc 2 fled: neither is in round 2's order
    assert f"1. **2**: Raf, Rupert, Delsenora\n2. **9**: {TROLLS}, Orc 3, Orc 4, Orc 5, Orc 6" in round_2
    assert text.index("## Before the fight") < text.index("## Round 1") < text.index("## Round 2")


def test_the_order_of_a_past_round_comes_from_the_journal_not_the_last_state(fought: Store) -> None:
    report = store_report(fought)
    assert fought.state.order[0].combatants[0] == next(c.id for c in fought.state.combatants if c.name == "Raf")
    (round_1,) = [r for r in report.rounds if r.number == 1]
    assert [(slot.label, slot.names[0]) for slot in round_1.order] == [("3", "Troll 1"), ("7", "Raf")]


def test_the_summary_adds_up_damage_and_healing_and_lists_falls_and_lost_spells(fought: Store) -> None:
    text = markdown(store_report(fought))
    summary = text[text.index("## Summary") :]
    assert "| Delsenora | 5 | 3 |" in summary and "| Orc 1 | 6 | 0 |" in summary
    assert "- Round 1: Orc 1 is down.\n- Round 1: Orc 2 has fled." in summary
    assert "### Spells lost\n\n- Round 1: Delsenora is hit before casting: acid arrow is lost." in summary
    assert "Morale" not in summary  # AD&D 2e checked no morale here


def test_the_gm_report_marks_what_only_the_gm_saw(fought: Store) -> None:
    text = markdown(store_report(fought))
    assert "- 🔒 The orcs run at the first death" in text.splitlines()
    assert "- 🔒 Troll 2 smells the wizard" in text.splitlines()
    assert "- Orc 1: 0/5 HP, down" in text.splitlines()  # AD&D: hit points stop at 0


def test_the_public_report_leaves_out_secrets_and_the_monsters_hp(fought: Store) -> None:
    text = markdown(store_report(fought, public=True))
    assert "The orcs run" not in text and "smells the wizard" not in text and "🔒" not in text
    lines = text.splitlines()
    assert "- Orc 1 takes 6 damage." in lines  # no "0/5 HP", and by default no dice either
    assert "- Delsenora takes 5 damage: 9/14 HP." in lines  # the party's own HP stay
    assert "- Orc 1: dead" in lines and "- Troll 1: unhurt" in lines and "- Delsenora: 12/14 HP, active" in lines
    assert "/36" not in text and "/5 HP" not in text and "1d8+1" not in text


def test_the_public_report_shows_every_roll_when_the_gm_says_so() -> None:
    lines = markdown(store_report(two_rounds(rolls_shown="everything"), public=True)).splitlines()
    assert "- Orc 1 takes 6 damage (1d8+1: [5] + 1 = 6)." in lines
    assert "- Delsenora takes 5 damage (1d4+1: [4] + 1 = 5): 9/14 HP." in lines


def test_what_the_players_saw_of_rolls_is_what_was_set_when_each_line_was_written(fought: Store) -> None:
    """Opening up the rolls in round 5 does not show the dice of rounds 1–4."""
    fought.dispatch(a.SetOption(key=ROLLS_OPTION, value="everything"))
    lines = markdown(store_report(fought, public=True)).splitlines()
    assert "- Orc 1 takes 6 damage." in lines and not any("1d8+1" in line for line in lines)


def test_a_name_cannot_turn_into_markdown() -> None:
    store = two_rounds()
    orc = next(c.id for c in store.state.combatants if c.name == "Orc 3")
    store.dispatch(a.EditCombatant(combatant=orc, name="Grub *the* [Bold](http://x.example) | #1"))
    text = markdown(store_report(store))
    assert "- Grub \\*the\\* \\[Bold\\](http://x.example) \\| \\#1: 5/5 HP, active" in text.splitlines()


def test_the_report_is_in_the_language_shown(fought: Store) -> None:
    use_catalog("ru", {"Round {n}": "Раунд {n}", "Round {n} begins.": "Начинается раунд {n}."})
    try:
        text = markdown(store_report(fought))
    finally:
        use_catalog("en", {})
    assert "## Раунд 1" in text and "- Начинается раунд 2." in text


# -- HTML and JSON ---------------------------------------------------------------------------------------------
def test_the_web_page_stands_alone_and_escapes_every_text() -> None:
    store = two_rounds()
    orc = next(c.id for c in store.state.combatants if c.name == "Orc 3")
    store.dispatch(a.EditCombatant(combatant=orc, name='<script>alert("x")</script> & Co'))
    store.dispatch(a.Damage(combatant=orc, amount=1))
    page = html_page(store_report(store))
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<script" not in page and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co" in page
    assert not re.search(r"(src|href)=|url\(|@import", page)  # nothing is loaded from anywhere
    assert "<li>Delsenora takes 5 damage (1d4+1: [4] + 1 = 5): 9/14 HP.</li>" in page


def test_the_json_holds_rounds_of_entries_with_ids_params_rolls_and_facts(fought: Store) -> None:
    data = json.loads(json_text(store_report(fought)))
    assert (data["format"], data["version"], data["public"], data["round"]) == ("tui-combat report", 1, False, 2)
    assert [r["number"] for r in data["rounds"]] == [0, 1, 2]
    round_1 = data["rounds"][1]
    assert [(slot["label"], slot["names"][:2]) for slot in round_1["order"]] == [
        ("3", ["Troll 1", "Troll 2"]),
        ("7", ["Raf", "Rupert"]),
    ]
    damage = next(e for e in round_1["entries"] if e["text"].startswith("Orc 1 takes"))
    assert damage["message"] == "{name} takes {amount} damage{rolled}: {hp}/{max} HP."
    assert (damage["params"]["name"], damage["params"]["amount"], damage["params"]["hp"]) == ("Orc 1", 6, 0)
    assert damage["rolls"] == [
        {"dice": "1d8+1", "total": 6, "faces": [5], "typed": False, "text": "1d8+1: [5] + 1 = 6"}
    ]
    assert damage["facts"] == {"damage": 6, "hp": 0, "hp_before": 5} and damage["kinds"] == ["roll", "damage"]
    assert data["damage"] == [
        {"name": "Delsenora", "damage": 5, "healing": 3},
        {"name": "Orc 1", "damage": 6, "healing": 0},
    ]
    public = json.loads(json_text(store_report(fought, public=True)))
    damage = next(e for r in public["rounds"] for e in r["entries"] if e["text"].startswith("Orc 1 takes"))
    assert damage["message"] == "{name} takes {amount} damage{rolled}." and "hp" not in damage["params"]
    assert damage["facts"] == {"damage": 6}
    orc = next(c for c in public["combatants"] if c["name"] == "Orc 1")
    assert (orc["hp"], orc["max_hp"], orc["health"]) == (None, None, "dead")  # the book's word


def test_a_fight_still_in_set_up_has_a_short_report() -> None:
    store = store_from_encounter(load_encounter(DEMO), seed=1)
    report = store_report(store)
    assert report.progress == "set-up" and [r.number for r in report.rounds] == [0]
    assert "No damage, healing, falls, lost spells or morale checks yet." in markdown(report)


# -- the players' view: nothing secret, over random fights -------------------------------------------------------
@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(fight=fights(), advances=st.integers(0, 8), actions=steps, surprise=st.booleans())
def test_no_secret_ever_reaches_the_public_report(
    fight: tuple[str, tuple[tuple[str, str], ...]], advances: int, actions: list[Step], surprise: bool
) -> None:
    """The players' screen's generator: a demo with any options, secret notes on everyone and HP from 7001 up
    outside the party, then random play with GM-only rolls of 8000 and more. The public Markdown and JSON hold
    none of it; the GM's report holds every secret entry (so the check can fail)."""
    base = prepared(*fight)
    if surprise:  # the report replays from the base as the fight had it
        base = replace(base, surprised=tuple(c.id for c in base.combatants if not base.side(c.side).is_party))
    done: list[a.Action] = []
    state = base
    for action, _state in played(base, advances, actions, False):
        done.append(action)
    public = fight_report(base, done, public=True)
    for text in (markdown(public), json_text(public)):
        assert SECRET not in text, text
        found = SECRET_NUMBERS.search(text)
        assert found is None, f"{found.group()} in:\n{text}" if found else ""
    gm = markdown(fight_report(base, done))
    assert (SECRET in gm) == any(SECRET in entry.text for entry in state.log_entries())


def test_an_order_rolled_in_secret_shows_in_the_public_report_only_as_it_came() -> None:
    """5e speed factor, every creature's d20 typed in secret: goblins 18, the bugbear 17, Lia 16, Mirela 15,
    Brenna and Oswin 11. The players saw the goblins act, then the bugbear; the others were yet to act, in no
    order; once the round is over they saw every slot, still without the counts."""
    base = state_of("demo_dnd5e.toml", options={"initiative": "speed_factor"})
    done: list[a.Action] = [a.StartFight(), a.NextStep()]
    state = apply(apply(base, done[0]), done[1])
    requests, _fresh = initiative_asked(get("dnd5e"), state)
    assert [r.secret for r in requests] == [True] * 6
    done += [a.RollInitiative(rolls={r.key: physical(10 + i) for i, r in enumerate(requests)}), a.NextStep()]
    for action in done[2:]:
        state = apply(state, action)
    public = markdown(fight_report(base, done, public=True))
    assert (
        "1. Goblin 1, Goblin 2, Goblin 3, Goblin 4\n2. Bugbear\n3. **yet to act**: Brenna, Oswin, Lia, Mirela" in public
    )
    assert "Initiative —" not in public
    gm = markdown(fight_report(base, done))
    assert (
        "1. **18**: Goblin 1, Goblin 2, Goblin 3, Goblin 4\n2. **17**: Bugbear\n3. **16**: Lia\n4. **15**: Mirela" in gm
    )
    while state.round == 1:
        done.append(a.NextStep())
        state = apply(state, done[-1])
    public = markdown(fight_report(base, done, public=True))
    assert "1. Goblin 1, Goblin 2, Goblin 3, Goblin 4\n2. Bugbear\n3. Lia\n4. Mirela\n5. Brenna\n6. Oswin" in public


# -- files -------------------------------------------------------------------------------------------------------
def test_a_report_is_written_whole_and_replaces_the_old_one(tmp_path: Path) -> None:
    target = tmp_path / "fight.md"
    target.write_text("old", encoding="utf-8")
    assert write_report(target, "new ✓\n") == target
    assert target.read_text(encoding="utf-8") == "new ✓\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fight.md"]  # no temporary file left


def test_a_report_that_cannot_be_written_says_why(tmp_path: Path) -> None:
    with pytest.raises(ReportError, match="does not exist"):
        write_report(tmp_path / "missing" / "fight.md", "x")
    with pytest.raises(ReportError, match="it is a folder"):
        write_report(tmp_path, "x")
    (tmp_path / "file").write_text("", encoding="utf-8")
    with pytest.raises(ReportError, match="Cannot write the report"):
        write_report(tmp_path / "file" / "fight.md", "x", make_folder=True)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file"]


def test_the_default_file_and_the_format_from_a_name(tmp_path: Path) -> None:
    assert (
        default_report_path(tmp_path, "Trolls and orcs: the tunnel!", "html")
        == tmp_path / "reports" / "trolls-and-orcs-the-tunnel.html"
    )
    assert [format_for(Path(name)) for name in ("a.HTML", "a.htm", "a.json", "a.md", "a.txt")] == [
        "html",
        "html",
        "json",
        "md",
        "md",
    ]
    assert format_for(None, "json") == "json"


@pytest.mark.parametrize("public", [False, True], ids=["gm", "public"])
def test_a_fight_whose_states_hold_only_its_newest_log_entries_reports_every_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, public: bool
) -> None:
    from tui_combat.engine import log_window
    from tui_combat.engine import messages as log_module

    whole = markdown(store_report(two_rounds(), public=public))
    monkeypatch.setattr(log_window, "LOG_KEPT", 3)
    monkeypatch.setattr(log_module, "LOG_CHUNK", 2)
    two_rounds(tmp_path / "fight").close()
    resumed = Store.resume(tmp_path / "fight", read_only=True)
    assert resumed.state.log_start > 0 and len(resumed.state.log_entries()) < 6
    assert markdown(store_report(resumed, public=public)) == whole
    resumed.close()


def test_a_combatant_who_gave_up_his_turn_is_in_the_rounds_order_marked_skipped() -> None:
    from tests.rulesets.trudvang_fight import FRIDGAR, act, cid, d10, fight, roll_initiative

    state = fight(("Heroes", "Fridgar", FRIDGAR), ("Foes", "Ulf", {"sv": 8, "weapons": "broadsword"}))
    state = act(state, "skip", combatant=cid(state, "Fridgar"))
    state = roll_initiative(state, Ulf=d10(9))
    for public in (False, True):
        (round_1,) = [r for r in fight_report(State(), (), final=state, public=public).rounds if r.number == 1]
        assert [(slot.label, slot.names) for slot in round_1.order][-1] == ("skipped", ("Fridgar",)), round_1.order
        assert any("Ulf" in slot.names for slot in round_1.order)
    assert "**skipped**: Fridgar" in markdown(fight_report(State(), (), final=state))


def test_the_combatants_health_is_in_the_words_of_the_rules() -> None:
    from tests.rulesets.trudvang_fight import FRIDGAR, fight
    from tui_combat.i18n import set_language

    state = fight(("Heroes", "Fridgar", FRIDGAR), ("Foes", "Ulf", {"sv": 8, "weapons": "broadsword"}))
    fridgar = next(c for c in state.combatants if c.name == "Fridgar")
    text = markdown(fight_report(State(), (), final=state))
    assert f"Fridgar: {fridgar.hp}/{fridgar.max_hp} BP, active" in text and " HP" not in text
    set_language("ru")
    assert f"Fridgar: ОТ {fridgar.hp}/{fridgar.max_hp}, в бою" in markdown(fight_report(State(), (), final=state))
