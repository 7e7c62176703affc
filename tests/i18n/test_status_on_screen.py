"""Women in every state a fight can leave them in, on every screen that says it, in Russian and Ukrainian at
80×24: no word after their names says "he" (docs/glossary.md).

Each demo gets a party of «Лия» and a group of «Гарпия» (feminine names), then down, fled, surrendered, at 0 hit
points (dying, unconscious, dead, as the book has it), killed outright, wounded, bloodied, unhurt, and with
conditions; the GM's card and turn list, the players' screen and the fight report are read for the words after
those names."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from tests.i18n.interface import SIZE, interface_in, make_app, screen_name
from tests.i18n.test_terms import MASCULINE
from tests.i18n.walk import drawn
from tests.ui.steps import select
from tests.waiting import settled, until
from tui_combat.engine import actions as a
from tui_combat.engine.model import State
from tui_combat.fight import session
from tui_combat.fight.session import DEMOS
from tui_combat.fight.store import Store
from tui_combat.i18n import language, set_language
from tui_combat.widgets.lines import text_of
from tui_combat.widgets.many_lines import ManyLines

pytestmark = pytest.mark.slow  # a fight in every rules family, in two languages, on three screens

WOMEN = {"ru": ("Лия", "Гарпия"), "uk": ("Лія", "Гарпія")}
"""A heroine of the party and a monster: feminine names."""
HP = 20


def _ids(state: State, name: str) -> list[str]:
    return [c.id for c in state.combatants if c.name.startswith(name + " ")]


def fight_of_women(data_root: Path, demo: Any, lang: str) -> str:
    """A session of ``demo`` (named in ``lang``) with the women of :data:`WOMEN` in every state; its key."""
    hero, monster = WOMEN[lang]
    before = language()
    set_language(lang)
    try:
        store = session.open_demo(data_root, demo.file_name, seed=1)
    finally:
        set_language(before)
    assert store.folder is not None
    key = store.folder.folder.name
    state = store.state
    party = next(side.id for side in state.sides if side.is_party)
    foes = next(side.id for side in state.sides if not side.is_party)
    if demo.ruleset in ("adnd2e", "players_option"):
        store.dispatch(a.SetOption(key="death", value="minus_10"))  # the party lies dying, then is bound
    store.dispatch(a.AddCombatants(side=party, name=hero, hp=HP, count=7))
    store.dispatch(a.AddCombatants(side=foes, name=monster, hp=HP, count=7))
    store.dispatch(a.StartFight())
    heroes, monsters = _ids(store.state, hero), _ids(store.state, monster)
    for status, (heroine, beast) in zip(("down", "fled", "surrendered"), zip(heroes, monsters)):
        store.dispatch(a.SetStatus(combatant=heroine, status=status))
        store.dispatch(a.SetStatus(combatant=beast, status=status))
    for who, amount in (
        (heroes[3], HP),
        (heroes[4], HP * 3),
        (heroes[5], 6),
        (heroes[6], HP),
        (monsters[3], 4),
        (monsters[4], 15),
        (monsters[5], HP * 3),
    ):
        store.dispatch(a.Damage(combatant=who, amount=amount))
    if demo.ruleset in ("adnd2e", "players_option"):
        store.dispatch(a.RulesetAction(name="bind", args={"combatant": heroes[6]}))
    if demo.ruleset == "dnd5e":
        for who, condition in (
            (heroes[5], "prone"),
            (heroes[5], "poisoned"),
            (monsters[6], "restrained"),
            (monsters[6], "unconscious"),
            (monsters[6], "frightened"),
        ):
            store.dispatch(a.RulesetAction(name="condition", args={"combatant": who, "condition": condition}))
    store.close()
    return key


def after_names(text: str, names: tuple[str, ...]) -> list[str]:
    """Each line of ``text`` that names one of ``names``, from the name on."""
    found = []
    for line in text.splitlines():
        for name in names:
            at = line.find(name)
            if at >= 0:
                found.append(line[at:])
    return found


def masculine(lines: list[str], names: tuple[str, ...], lang: str) -> list[str]:
    """The lines with a word that says "he" about the name before it (a book's term in quotes after a noun,
    «состояние «отравленный»», agrees with the noun)."""
    pattern = MASCULINE[lang]
    wrong = []
    for line in lines:
        rest = re.sub("|".join(re.escape(name) for name in names) + r"(?: \d+)?", " ", re.sub(r"«[^»]*»", " ", line))
        if pattern.search(rest):
            wrong.append(line)
    return wrong


async def gm_lines(pilot: Pilot[Any], names: tuple[str, ...]) -> list[str]:
    """The card's head of each woman, and her line of the turn list."""
    app = pilot.app
    store = app.store
    lines = []
    for combatant in [c for c in store.state.combatants if c.name.split(" ")[0] in names]:
        await select(pilot, combatant.id)
        head = app.screen.query_one("#card-head")
        await until(pilot, lambda: combatant.name in drawn(head) and settled(app.screen), "the card")
        assert drawn(head).strip() == str(head.render()).strip(), "the card's head cut"
        lines.append(drawn(head))
    lines += after_names(drawn(app.screen.query_one("#order")), names)
    return lines


@pytest.mark.parametrize("demo", DEMOS, ids=[demo.ruleset for demo in DEMOS])
@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_no_word_after_a_womans_name_says_he(lang: str, demo: Any, data_root: Path, tmp_path: Path) -> None:
    from tui_combat.fight.report import markdown, store_report
    from tui_combat.screens.player_view import PlayerViewApp

    key = fight_of_women(data_root, demo, lang)
    names = WOMEN[lang]
    seen: list[str] = []
    with interface_in(lang) as module:
        app = make_app(module, data_root)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: screen_name(pilot) == "SessionsScreen", "the session list")
            app.open_session(lambda: session.resume(data_root, key))
            await until(pilot, lambda: screen_name(pilot).startswith("RoundScreen"), "the round")
            seen += await gm_lines(pilot, names)
        viewer = PlayerViewApp(
            data_root, key, settings_path=tmp_path / "none.toml", poll_seconds=0.02, handle_hangup=False
        )
        async with viewer.run_test(size=SIZE) as view:
            await until(
                view, lambda: names[0] in drawn(view.app.screen.query_one("#view-order")), "the players' screen"
            )
            order = view.app.screen.query_one("#view-order", ManyLines)  # every line of it, not only those in sight
            view_lines = after_names("\n".join(text_of(line).plain for line in order.lines), names)
            assert len(view_lines) >= 10, view_lines
            seen += view_lines
        store = Store.resume(data_root / "sessions" / key, read_only=True)
        try:
            for public in (False, True):
                combatants = markdown(store_report(store, public=public)).split("\n## ")[1]  # the list of who is where
                seen += after_names(combatants, names)
        finally:
            store.close()
    assert not masculine(seen, names, lang), "\n".join(masculine(seen, names, lang))
    words = " ".join(seen)
    assert all(word in words for word in EXPECTED[lang]), (EXPECTED[lang], seen)


EXPECTED = {"ru": ("вне боя", "в бегстве", "сдаётся"), "uk": ("поза боєм", "у втечі", "капітулює")}
"""The statuses the GM set, as the screens word them."""


def test_the_masculine_words_are_seen_after_a_name() -> None:
    assert masculine(["Лия 3  33/33 выбыл"], WOMEN["ru"], "ru")
    assert masculine(["Лия 1 · 0/20 · мёртв"], WOMEN["ru"], "ru")
    assert not masculine(["Лия 1  Отряд  Хиты 0/20  вне боя"], WOMEN["ru"], "ru")
    assert masculine(["Гарпія 4  поранений"], WOMEN["uk"], "uk")
