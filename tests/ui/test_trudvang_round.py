"""A full Trudvang countdown round of the demo skirmish, played with real key presses at 80×24.

Every die is typed in "from physical dice", so nothing depends on the app's own dice:

* initiative (1d10! + IMs): Fridgar 9 − 4 = 5, Sigrun 9 − 5 = 4, Ulf 10 then 1 − 8 = 3 (typed die by die:
  a 10 rolls again), the raiders 8 − 7 = 1;
* at his call Fridgar holds (``l``), Sigrun gives up her turn (``k``);
* Ulf attacks Fridgar with 6 CP and rolls 3 (hit); Fridgar, holding, selects himself and parries with
  the seax, 5 CP, rolling 4 (saved): the damage (two-handed axe 1d10!8 + Strength 2, typed die by die
  "8 3" = 13) goes onto the seax, PV 5: its BV 50 loses 8; Ulf then tries to put 99 CP into a second
  blow: refused;
* at the raiders' call Fridgar acts on his held action (``j``) and attacks Raider 1 with 8 CP: −5 for
  the held turn, SV 3, he rolls 3 (hit); 4 damage, the raider's fur PV 2 takes 2 off;
* n through the end step into round 2: Sigrun starts it with +5 on her initiative.
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

import tui_combat
from tests.ui.steps import (
    SIZE,
    budget_text,
    combatant_id,
    dialog_error,
    field_labels,
    log_texts,
    open_form,
    open_form_of,
    prompt_line,
    select,
    selected,
    store,
    to_round_from_setup,
    until_closed,
    until_prompt,
    until_prompt_closed,
)
from tests.waiting import settled, until
from tui_combat.engine.contract import BudgetLine
from tui_combat.engine.model import State
from tui_combat.rulesets.trudvang import RULESET, AttackRecord, Bonus
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.form_panel import FormPanel
from tui_combat.screens.round import RoundScreen

ENCOUNTER = Path(tui_combat.__file__).parent / "encounters" / "demo_trudvang.toml"


# -- helpers -----------------------------------------------------------------------------------------
def lines(state: State, cid: str) -> dict[str, BudgetLine]:
    return {line.label: line for line in RULESET.budget(state, cid)}


def cp_left(state: State, cid: str) -> int:
    """Every CP the combatant still has this round, over all his pools."""
    return sum(line.left for line in RULESET.budget(state, cid) if line.label.startswith("CP"))


def budget_row(app, label: str) -> str:
    """The rendered bar line of ``label`` in the #budget widget (labels are cut and padded to 20)."""
    rows = [row for row in budget_text(app).splitlines() if row.startswith(f"{label[:20]:<20} ")]
    assert len(rows) == 1, budget_text(app)
    return rows[0]


def messages(app) -> list[str]:
    return [str(notification.message) for notification in app._notifications]


async def fill_weapon_form(pilot: Pilot[None], key: str, cp: str, d20: str) -> FormDialog | FormPanel:
    """Attack / parry form: (target | attack), weapon, cp, hand, modifier, roll — first field focused.

    Keeps the defaults of the choices, types the CP and the d20 rolled on real dice, Enter submits."""
    form = await open_form(pilot, key)
    assert [spec.key for spec in form.fields][1:] == ["weapon", "cp", "hand", "modifier", "roll"]
    await pilot.press("tab", "tab", *cp, "tab", "tab", "tab", *d20)
    assert form.query_one("#f-cp").value == cp
    assert form.query_one("#f-roll").value == d20
    await pilot.press("enter")
    app = pilot.app
    await until(
        pilot,
        lambda: (
            (open_form_of(app) is form and dialog_error(app)) or (open_form_of(app) is not form and settled(app.screen))
        ),
        f"the form {key} closed, or saying why not",
    )
    return form


async def to_round(pilot: Pilot[None]) -> None:
    await to_round_from_setup(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, RoundScreen) and screen.ruleset.id == "trudvang"
    assert any(
        binding.id == "trudvang.attack"
        for bindings in screen._bindings.key_to_bindings.values()
        for binding in bindings
    ), "the ruleset's own keys are the screen's"


async def type_initiative(pilot: Pilot[None], *typed: str) -> list[str]:
    """``t``, then one d10 per roll request (Tab between the fields, Enter submits); the field labels."""
    form = await open_form(pilot, "t")
    labels = field_labels(form)
    keys: list[str] = []
    for index, value in enumerate(typed):
        if index:
            keys.append("tab")
        keys.extend(value)
    await pilot.press(*keys, "enter")
    await until_closed(pilot, form, "the initiative typed in")
    assert isinstance(pilot.app.screen, RoundScreen)
    return labels


# -- the round -----------------------------------------------------------------------------------------
async def test_trudvang_countdown_round(make_app) -> None:
    app = make_app(encounter=ENCOUNTER)
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        fridgar, sigrun, ulf = (combatant_id(app, name) for name in ("Fridgar", "Sigrun", "Ulf the Bold"))
        raider1 = combatant_id(app, "Raider 1")
        raiders = store(app).state.combatant(raider1).group
        state = store(app).state
        assert (state.round, state.step, state.order) == (1, 0, ())
        sigrun_im = {r.key: r.modifier for r in RULESET.initiative_requests(state)}[sigrun]
        assert sigrun_im == -5  # fur/leather −1, long spear −5, Agility +1

        # -- initiative from physical dice: the countdown order is known -------------------------------
        await pilot.press("n")  # actions (declare) → initiative
        assert store(app).state.step == 1
        labels = await type_initiative(pilot, "9", "9", "8", "10 1")
        assert "Initiative — Fridgar: 1d10! (typed): 9 -4 = 5." in log_texts(app)
        assert labels[:4] == [
            "Fridgar (1d10! -4)",
            "Sigrun (1d10! -5)",
            "Raider ×3 (1d10! -7)",
            "Ulf the Bold (1d10! -8)",
        ]
        state = store(app).state
        assert state.step == 2 and state.cursor == 0  # straight into the countdown
        assert RULESET.initiative_totals(state) == {fridgar: 5, sigrun: 4, raiders: 1, ulf: 3}
        assert {key: roll.total for key, roll in state.initiative.rolls.items()} == {
            fridgar: 9,
            sigrun: 9,
            raiders: 8,
            ulf: 11,
        }
        assert [(str(slot.label), slot.combatants) for slot in state.order] == [
            ("5", (fridgar,)),
            ("4", (sigrun,)),
            ("3", (ulf,)),
            ("1", (raider1, combatant_id(app, "Raider 2"), combatant_id(app, "Raider 3"))),
        ]
        assert selected(app) == fridgar  # the acting combatant is selected

        # -- Fridgar holds at his call ------------------------------------------------------------------
        await pilot.press("l")
        state = store(app).state
        assert RULESET.round_of(state).turns[fridgar].held is True
        assert fridgar not in [cid for slot in state.order for cid in slot.combatants]
        assert state.acting_now() == (sigrun,)
        assert log_texts(app)[-1] == "Fridgar holds his action (-5 on what he does when he acts)."

        # -- Sigrun gives up her turn -------------------------------------------------------------------
        assert selected(app) == sigrun
        await pilot.press("k")
        state = store(app).state
        assert RULESET.round_of(state).turns[sigrun].skipped is True
        assert RULESET.fight_of(state).init_bonus[sigrun] == Bonus(round=2, value=5)
        assert state.acting_now() == (ulf,)
        assert [str(slot.label) for slot in state.order] == ["3", "1"]

        # -- Ulf attacks Fridgar: 6 CP, d20 3 → hit ------------------------------------------------------
        assert selected(app) == ulf
        before = store(app).state
        ulf_cp, fridgar_cp = cp_left(before, ulf), cp_left(before, fridgar)
        assert (ulf_cp, fridgar_cp) == (12, 17)
        form = await fill_weapon_form(pilot, "a", "6", "3")
        assert form.fields[0].key == "target" and form.fields[0].default == fridgar
        # The hit asks for its damage at once, saying Fridgar may defend first: the GM lets him parry.
        damage = await until_prompt(pilot, "the damage the hit calls for")
        # The weapon goes above the line, which keeps the keys whole ("Enter: roll 1d10!8+2 · Esc: cancel").
        assert prompt_line(app, "title") == "Damage to Fridgar"
        assert " ".join(prompt_line(app, "note").split()) == (
            "Two-handed axe · Fridgar may parry or dodge first: Esc, and the damage is asked for if it fails. "
            "8–10 roll again: type the dice one by one (8 4). Hardened leather absorbs 3 (BV 30)."
        )
        assert damage.placeholder == "1d10!8+2"  # OR 8 for a two-handed weapon, + Ulf's Strength
        await pilot.press("escape")
        await until_prompt_closed(pilot, "the damage left for the parry")
        state = store(app).state
        assert RULESET.round_of(state).attacks == (
            AttackRecord(id=1, attacker=ulf, target=fridgar, kind="attack", item="Two-handed axe", hit=True),
        )
        assert state.log_entries()[-1].facts["cp"] == 6 and state.log_entries()[-1].facts["needed"] == 6
        assert cp_left(state, ulf) == ulf_cp - 6
        ulf_lines = lines(state, ulf)
        assert (ulf_lines["CP any weapon"].left, ulf_lines["CP"].left) == (0, 6)  # locked pool first
        assert ulf_lines["Two-handed axe actions"].left == 1  # one weapon action used of 2
        assert cp_left(state, fridgar) == fridgar_cp
        assert log_texts(app)[-1] == (
            "#1 Ulf the Bold attacks Fridgar with the two-handed axe: 6 CP = SV 6; 1d20 (typed): 3 → hit. "
            "Fridgar may parry or dodge."
        )
        # the live meter, as rendered
        assert selected(app) == ulf
        assert budget_row(app, "CP").endswith(" █████░░░░░ 6/11")  # 6 of 11: half the bar
        assert budget_row(app, "CP any weapon").endswith(" 0/1")
        assert budget_row(app, "Two-handed axe actions").endswith(" 1/2")

        # -- Fridgar (holding) selects himself and parries with the seax: 5 CP, d20 4 → saved -----------
        await select(pilot, fridgar)
        assert budget_row(app, "Seax actions").endswith(" 4/4")
        form = await fill_weapon_form(pilot, "p", "5", "4")
        assert form.fields[0].key == "attack" and form.fields[0].default == "1"
        assert form.fields[1].default == "Seax"
        # The parry succeeded: the damage is asked for again, to go onto the seax.
        await until_prompt(pilot, "the damage, asked for again")
        assert prompt_line(app, "title") == "Damage to Fridgar", dialog_error(app)
        assert " ".join(prompt_line(app, "note").split()) == (
            "Two-handed axe · Parried: the damage goes onto the Seax (PV 5, BV 50), not onto Fridgar."
        )
        assert log_texts(app)[-1] == (  # no held penalty on a parry made while waiting
            "Fridgar parries attack #1 with the seax: 5 CP = SV 5; 1d20 (typed): 4 → parried. "
            "The damage goes onto the seax: what is above its PV wears its BV."
        )
        fridgar_hp = store(app).state.combatant(fridgar).hp
        await pilot.press("8", "space", "3", "enter")  # the axe's 8 rolls again: 3
        await until_prompt_closed(pilot)
        state = store(app).state
        assert state.combatant(fridgar).hp == fridgar_hp
        assert log_texts(app)[-1] == (
            "The parry puts the 13 damage on the Seax (PV 5): Fridgar's body takes none. Seax: BV 50 → 42, PV 5."
        )
        assert RULESET.fight_of(state).wear == {fridgar: {"Seax": 42}}
        assert RULESET.round_of(state).attacks[0].defended == "parry"
        assert cp_left(state, fridgar) == fridgar_cp - 5
        fridgar_lines = lines(state, fridgar)
        # the seax draws its locked CP first: one-handed light 4, any weapon 1; the general CP stay
        assert (
            fridgar_lines["CP one-handed light"].left,
            fridgar_lines["CP any weapon"].left,
            fridgar_lines["CP"].left,
        ) == (0, 0, 9)
        assert fridgar_lines["Seax actions"].left == 3
        assert cp_left(state, ulf) == ulf_cp - 6  # the attacker's meter is not touched by the parry
        await select(pilot, fridgar)
        assert budget_row(app, "CP one-handed light").endswith(" 0/4")
        assert budget_row(app, "Seax actions").endswith(" 3/4")

        # -- a spend beyond what is left is refused: a notification, the state untouched ---------------
        await select(pilot, ulf)
        before = store(app).state
        seen = len(messages(app))
        form = await fill_weapon_form(pilot, "a", "99", "2")
        assert open_form_of(app) is form  # refused: the form stays open with what was typed, and says why
        assert dialog_error(app) == "Not enough CP: Ulf the Bold has 6 left for the two-handed axe, needs 99."
        assert form.query_one("#f-cp").value == "99" and form.query_one("#f-roll").value == "2"
        assert store(app).state is before and messages(app)[seen:] == []
        await pilot.press("escape")
        assert not form.is_open
        assert lines(store(app).state, ulf)["Two-handed axe actions"].left == 1

        # -- the raiders' call: Fridgar acts on his held action, −5 on his attack ----------------------
        await pilot.press("n")
        state = store(app).state
        assert state.acting_now() == state.order[-1].combatants and str(state.order[-1].label) == "1"
        await select(pilot, fridgar)
        await pilot.press("j")  # no other held combatant: no form
        state = store(app).state
        assert isinstance(app.screen, RoundScreen)
        assert state.acting_now() == (fridgar,)
        assert [str(slot.label) for slot in state.order] == ["3", "held", "1"]
        assert RULESET.round_of(state).turns[fridgar].acted_held is True
        assert log_texts(app)[-1] == "Held action now: Fridgar (-5 on that turn's actions)."
        assert selected(app) == fridgar
        raider_hp = store(app).state.combatant(raider1).hp
        form = await fill_weapon_form(pilot, "a", "8", "3")
        assert form.fields[0].default == raider1
        # The raider does not defend: the damage goes straight on (a seax: 1d10 open on 10, + Strength 1).
        damage = await until_prompt(pilot, "the damage the hit calls for")
        assert prompt_line(app, "title") == "Damage to Raider 1 (Seax)", dialog_error(app)
        assert damage.placeholder == "1d10!+1"
        await pilot.press("4", "enter")
        await until_prompt_closed(pilot)
        assert store(app).state.combatant(raider1).hp == raider_hp - 2  # fur / leather PV 2
        state = store(app).state
        attack = RULESET.round_of(state).attacks[1]
        assert (attack.id, attack.attacker, attack.target, attack.hit, attack.damaged) == (
            2,
            fridgar,
            raider1,
            True,
            True,
        )
        assert state.log_entries()[-3].facts["sv"] == 3  # 8 CP − 5 for the held turn
        assert log_texts(app)[-1] == (
            "Raider 1 loses 2 BP, lightly damaged. Fur / leather absorbs 2. Fur / leather: BV 20 → 18, PV 2."
        )
        assert log_texts(app)[-3] == (
            "#2 Fridgar attacks Raider 1 with the seax: 8 CP -5 held = SV 3; 1d20 (typed): 3 → hit. "
            "Raider 1 may parry or dodge."
        )
        assert cp_left(state, fridgar) == fridgar_cp - 5 - 8
        assert lines(state, fridgar)["CP"].left == 1
        assert lines(state, fridgar)["Seax actions"].left == 2

        # -- n through the end step into round 2 ------------------------------------------------------
        await pilot.press("n")  # the raiders' slot
        assert store(app).state.acting_now() == store(app).state.order[-1].combatants
        await pilot.press("n")  # end (CP refresh)
        state = store(app).state
        assert (state.round, state.step) == (1, 3)
        assert "Skipped their turn, +5 to initiative next round: Sigrun." in log_texts(app)
        await pilot.press("n")  # round 2
        state = store(app).state
        assert (state.round, state.step, state.order) == (2, 0, ())
        assert "Sigrun skipped last round's turn: +5 to initiative." in log_texts(app)
        assert ("skipped turn", 5) in RULESET.im_parts(state, sigrun)
        assert {r.key: r.modifier for r in RULESET.initiative_requests(state)}[sigrun] == sigrun_im + 5
        # CP refreshed for everyone
        assert cp_left(state, fridgar) == fridgar_cp and cp_left(state, ulf) == ulf_cp
        assert lines(state, fridgar)["Seax actions"].left == 4

        await pilot.press("n")  # initiative
        labels = await type_initiative(pilot, "9", "9", "8", "10 1")
        assert labels[1] == "Sigrun (1d10!)"  # −5 IMs, +5 for the skipped turn
        state = store(app).state
        assert RULESET.initiative_totals(state) == {fridgar: 5, sigrun: 9, raiders: 1, ulf: 3}
        assert str(state.order[0].label) == "9" and state.order[0].combatants == (sigrun,)
        initiative = [text for text in log_texts(app) if text.startswith("Initiative — Sigrun")]
        assert initiative == [
            "Initiative — Sigrun: 1d10! (typed): 9 -5 = 4.",  # round 1
            "Initiative — Sigrun: 1d10! (typed): 9.",  # round 2: −5 IMs +5 for the skipped turn
        ]


# -- a hit's damage through the armour -----------------------------------------------------------------
async def test_a_hit_fills_in_the_damage_takes_the_armour_off_and_shows_the_damage_level(make_app) -> None:
    """Ulf the Bold (two-handed axe, Strength +2) hits Fridgar (34 BP, hardened leather PV 3 / BV 30): the
    damage form offers 1d10!8+2; the GM types the dice one by one, 8 then 5 (the 8 rolled again): 15, the
    leather takes 3 off, Fridgar loses 12 → 22/34, "injured" (−1) on his card and on the players' screen;
    the leather's BV 30 loses the 12 that got through: 18, PV 2. Next round his initiative has −1."""
    from tui_combat.engine.public import public_view
    from tui_combat.widgets.lines import TextLines

    app = make_app(encounter=ENCOUNTER)
    async with app.run_test(size=SIZE) as pilot:
        await to_round(pilot)
        fridgar, ulf = combatant_id(app, "Fridgar"), combatant_id(app, "Ulf the Bold")
        assert store(app).state.combatant(fridgar).max_hp == 34  # human 32 + Constitution 1 + Strength 1
        await pilot.press("n")
        await type_initiative(pilot, "9", "9", "8", "10 1")  # Fridgar 5, Sigrun 4, Ulf 3, the raiders 1
        await pilot.press("n", "n")  # past Fridgar's and Sigrun's calls
        assert store(app).state.acting_now() == (ulf,)
        assert selected(app) == ulf
        form = await open_form(pilot, "a")  # the form offers CP at once, and the chance they buy
        assert form.query_one("#f-cp").value == "6"  # 12 CP over the axe's 2 weapon actions
        await until(pilot, lambda: "SV 6" in str(form.query_one("#dialog-preview").render()), "the chance shown")
        assert str(form.query_one("#dialog-preview").render()) == "SV 6: needs 6 or less on the d20: 30% to succeed."
        await pilot.press("escape")
        await until_closed(pilot, form, "the form closed")
        await fill_weapon_form(pilot, "a", "6", "3")
        damage = await until_prompt(pilot, "the damage the hit calls for")
        assert prompt_line(app, "title") == "Damage to Fridgar", dialog_error(app)  # the weapon above: keys whole
        assert damage.placeholder == "1d10!8+2"
        assert prompt_line(app, "keys") == "Enter: roll 1d10!8+2 · Esc: cancel"
        assert " ".join(prompt_line(app, "note").split()).endswith("Hardened leather absorbs 3 (BV 30).")
        await pilot.press("8", "space", "5", "enter")
        await until_prompt_closed(pilot, "the damage dealt")
        state = store(app).state
        assert state.combatant(fridgar).hp == 22
        assert log_texts(app)[-2:] == [
            "Fridgar takes 15 damage (1d10!8+2 (typed): [8+5] + 2 = 15): 22/34 BP.",
            "Fridgar loses 12 BP, injured (-1). Hardened leather absorbs 3. Hardened leather: BV 30 → 18, PV 2.",
        ]
        await select(pilot, fridgar)
        await until(pilot, lambda: "Damage level" in str(app.screen.query_one("#card", TextLines).render()), "the card")
        card = str(app.screen.query_one("#card", TextLines).render()).splitlines()
        assert card[0] == "Damage level: injured (-1)", card
        assert "Armour: Hardened leather: IM -1, PV 2, BV 18 of 30" in card
        assert "Body Points: 22/34 (Human 32, Constitution +1, Strength +1)" in card
        players = {c.name: c.health for group in public_view(state).groups for c in group.combatants}
        assert players["Fridgar"] == "injured"
        # the penalty: on his actions now, on his initiative next round
        im = RULESET.init_modifier(state, fridgar)
        while store(app).state.round == 1:
            before = store(app).state
            await pilot.press("n")
            await until(pilot, lambda: store(app).state is not before, "the next step")
        assert ("damage", -1) in RULESET.im_parts(store(app).state, fridgar)
        assert RULESET.init_modifier(store(app).state, fridgar) == im - 1
