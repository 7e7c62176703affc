"""A round played with real keys in Russian and in Ukrainian: the AD&D demo from the session list to the
second round, and the other four demos to their first round's order. Along the way the footer shows the
keys the English footer shows at the same moment, in the same order and help among them (longer Cyrillic
labels push none under the palette key: a row too full for them leaves out its last keys, whole), every
budget label shows whole, and the log speaks the language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import DataTable

from tests.i18n.interface import (
    SIZE,
    footer_keys,
    interface_in,
    make_app,
    screen_name,
    settle,
    to_round,
    to_setup,
    type_initiative,
    until_named,
    visible_keys,
)
from tests.ui.steps import until_footer
from tests.waiting import settled, until
from tui_combat.engine.contract import BudgetLine

pytestmark = pytest.mark.slow  # every language through the round screens

LANGUAGES = ("ru", "uk")

# What the AD&D demo shows, by language: words worked out from the catalogs by hand.
WORDS = {
    "ru": {
        "setup_footer": [
            ("a", "Новый"),
            ("e", "Правка"),
            ("del", "Убрать"),
            ("s", "Сторона"),
            ("r", "Правила"),
            ("c", "Далее"),
            ("f1", "Помощь"),
        ],
        "name": "Тролли и орки в туннеле",
        "raf": "Раф",
        "troll": "Тролль 1",
        "round1": "Начинается раунд 1.",
        "order": "Порядок: 7: Раф, Руперт, Дельсенора; 10: Тролль 1, Тролль 2, Тролль 3, Орк 1, Орк 2, Орк 3, Орк 4, "
        "Орк 5, Орк 6.",
        # Raf, warrior 5: THAC0 16, so AC 4 needs 12; his war hammer +4 adds 4: a 9 gives 13, a hit.
        "attack": "Раф → Тролль 1 (КД 4) (боевой молот): атака d20 9 +4 магия против 12 — попадание.",
        "damage": "Тролль 1: урон 7, хиты 29/36.",
        "round2": "Начинается раунд 2.",
        "round_footer": ["Далее", "Урон", "Отменить"],
        "card": "Хиты 38/38  в бою",
    },
    "uk": {
        "setup_footer": [
            ("a", "Додати"),
            ("e", "Правка"),
            ("del", "Стерти"),
            ("s", "Сторона"),
            ("r", "Правила"),
            ("c", "Далі"),
            ("f1", "Довідка"),
        ],
        "name": "Тролі й орки в тунелі",
        "raf": "Раф",
        "troll": "Троль 1",
        "round1": "Починається раунд 1.",
        "order": "Порядок: 7: Раф, Руперт, Дельсенора; 10: Троль 1, Троль 2, Троль 3, Орк 1, Орк 2, Орк 3, Орк 4, "
        "Орк 5, Орк 6.",
        "attack": "Раф → Троль 1 (КБ 4) (бойовий молот): атака d20 9 +4 магія проти 12 — влучання.",
        "damage": "Троль 1: шкода 7, хіти 29/36.",
        "round2": "Починається раунд 2.",
        "round_footer": ["Далі", "Шкода", "Скасувати"],
        "card": "Хіти 38/38  у бою",
    },
}


def log_texts(pilot: Pilot[Any]) -> list[str]:
    store = pilot.app.store
    assert store is not None
    return [entry.text for entry in store.state.log_entries()]


def screen_text(pilot: Pilot[Any]) -> str:
    """What the screen shows, line by line (text cut off by a widget's size is not there)."""
    widgets = [w for w in pilot.app.screen.walk_children() if w.display and not w.children]
    lines = []
    for widget in widgets:
        strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
        lines += [strip.text.rstrip() for strip in strips]
    return "\n".join(lines)


def budgets_whole(pilot: Pilot[Any]) -> None:
    """Every budget label of every combatant fits the meter's 20 columns (it is cut at 20)."""
    from tui_combat.engine import registry

    store = pilot.app.store
    assert store is not None
    state = store.state
    ruleset = registry.get(state.ruleset)
    for combatant in state.combatants:
        lines: tuple[BudgetLine, ...] = ruleset.budget(state, combatant.id)
        for line in lines:
            assert len(line.label) <= 20, (combatant.name, line.label)


class Walk:
    """What a walk through the screens saw: the footer's visible keys at each checkpoint, and the log."""

    def __init__(self) -> None:
        self.keys: list[list[str]] = []
        self.log: list[str] = []
        self.footers: list[list[tuple[str, str]]] = []
        self.screens: list[str] = []

    async def check(self, pilot: Pilot[Any]) -> None:
        await until_footer(pilot)  # the footer of this moment, not of the one before
        self.keys.append(visible_keys(pilot))
        self.footers.append(footer_keys(pilot))
        self.screens.append(screen_text(pilot))


async def walk_adnd(lang: str, data_root: Path, troll_name: str) -> Walk:
    walk = Walk()
    with interface_in(lang) as app_module:
        app = make_app(app_module, data_root)
        async with app.run_test(size=SIZE) as pilot:
            await to_setup(pilot)
            await walk.check(pilot)
            await to_round(pilot)
            await walk.check(pilot)
            await type_initiative(pilot, "7", "10")
            await walk.check(pilot)
            if lang != "en":
                budgets_whole(pilot)
            # Raf (selected, acting in slot 7) attacks: with, target (the first foe, Troll 1), AC 4 typed (the
            # troll's), other modifiers, the d20 typed: 9.
            await pilot.press("a")
            attack = pilot.app.screen.form_panel
            await until(
                pilot,
                lambda: attack.is_open and attack.takes_keys and settled(pilot.app.screen),
                "the attack form at the foot of the round",
            )
            walk.screens.append(screen_text(pilot))
            await pilot.press("tab", "tab", "4", "enter", "enter", "9", "enter")
            # a hit on Troll 1: his damage is asked for in the prompt, read, and left
            await until(
                pilot,
                lambda: (
                    not attack.is_open
                    and screen_name(pilot) == "RoundScreen"
                    and pilot.app.screen.amount_prompt.is_open
                    and settled(pilot.app.screen)
                ),
                "the damage prompt",
                describe=lambda: screen_name(pilot),
            )
            walk.screens.append(screen_text(pilot))
            await pilot.press("escape")
            await until(
                pilot,
                lambda: not pilot.app.screen.amount_prompt.is_open and settled(pilot.app.screen),
                "the damage left",
            )
            troll = next(c.id for c in pilot.app.store.state.combatants if c.name == troll_name)
            order = pilot.app.screen.query_one("#order")
            for _down in range(10):
                if order.selected_combatant() == troll:
                    break
                await pilot.press("down")
                await settle(pilot)
            assert order.selected_combatant() == troll
            await walk.check(pilot)
            await pilot.press("d")
            prompt = pilot.app.screen.amount_prompt
            await until(pilot, lambda: prompt.is_open and settled(prompt), "the damage prompt")
            walk.screens.append(screen_text(pilot))
            await pilot.press("7", "enter")
            await until(pilot, lambda: not prompt.is_open, "the damage applied")
            for _step in range(12):  # the rest of the slots and the end of the round
                if sum(
                    text.startswith(("Round 2", "Начинается раунд 2", "Починається раунд 2"))
                    for text in log_texts(pilot)
                ):
                    break
                await pilot.press("n")
                await settle(pilot)
            await walk.check(pilot)
            walk.log = log_texts(pilot)
            await pilot.press("ctrl+q")
    return walk


HELP = "help"


def shows_what_english_shows(walk: Walk, english: Walk) -> bool:
    """At every checkpoint the footer shows whole, in the same order, the keys the English footer shows, up
    to those a row too full for longer words leaves out at its end (a shorter word can make room for one
    more key); help is always shown."""
    assert len(walk.keys) == len(english.keys)

    def same_start(keys: list[str], theirs: list[str]) -> bool:
        ours, english_ones = [k for k in keys if k != HELP], [k for k in theirs if k != HELP]
        shared = min(len(ours), len(english_ones))
        return HELP in keys and HELP in theirs and ours[:shared] == english_ones[:shared]

    return all(same_start(keys, theirs) for keys, theirs in zip(walk.keys, english.keys))


@pytest.fixture(scope="module")
def english_adnd(tmp_path_factory: pytest.TempPathFactory) -> Walk:
    import asyncio

    root = tmp_path_factory.mktemp("english")
    return asyncio.run(walk_adnd("en", root, "Troll 1"))


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_a_round_of_the_adnd_demo(data_root: Path, lang: str, english_adnd: Walk) -> None:
    words = WORDS[lang]
    walk = await walk_adnd(lang, data_root, words["troll"])
    assert english_adnd.log[-1] == "Round 2 begins."
    assert shows_what_english_shows(walk, english_adnd)
    assert walk.footers[0][:7] == words["setup_footer"]
    assert [description for _key, description in walk.footers[2]][:3] == words["round_footer"]
    assert words["card"] in walk.screens[2]
    assert words["round1"] in walk.log
    assert words["order"] in walk.log
    assert words["attack"] in walk.log
    assert words["damage"] in walk.log
    assert walk.log[-1] == words["round2"]
    english_left = [text for text in walk.log if text.isascii() and any(c.isalpha() for c in text)]
    assert not english_left, english_left


async def walk_demo(lang: str, data_root: Path, row: int) -> Walk:
    """Trudvang, D&D 5e, OSE / Dolmenwood, Player's Option (rows 1–4 of the list): the demo opened, surprise
    left to nobody, initiative rolled by the app (seed 1) until the order is logged."""
    walk = Walk()
    with interface_in(lang) as app_module:
        app = make_app(app_module, data_root)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: pilot.app.screen.query_one(DataTable).row_count > row, "the session list's rows")
            await pilot.press(*(["down"] * row), "enter")
            await until_named(pilot, "SetupScreen")
            await walk.check(pilot)
            await pilot.press("c")
            await until_named(pilot, "SurpriseScreen")
            await walk.check(pilot)
            await pilot.press("c")
            await until_named(pilot, "RoundScreen")
            await walk.check(pilot)
            orders = ("Order:", "Порядок:")
            for _step in range(6):
                if any(text.startswith(orders) for text in log_texts(pilot)):
                    break
                await pilot.press("r")
                await settle(pilot)
                await pilot.press("n")
                await settle(pilot)
            await walk.check(pilot)
            if lang != "en":  # English labels are the code's own ("Medium shield actions" is 21 long)
                budgets_whole(pilot)
            walk.log = log_texts(pilot)
            await pilot.press("ctrl+q")
    return walk


@pytest.mark.parametrize("row", [1, 2, 3, 4])
async def test_the_other_demos_reach_their_order(tmp_path: Path, row: int) -> None:
    english = await walk_demo("en", tmp_path / "en", row)
    assert any(text.startswith("Order:") for text in english.log)
    for lang in LANGUAGES:
        walk = await walk_demo(lang, tmp_path / lang, row)
        assert shows_what_english_shows(walk, english), lang
        assert any(text.startswith("Порядок:") for text in walk.log), walk.log
        assert len(walk.log) == len(english.log)
        english_left = [text for text in walk.log if text.isascii() and any(c.isalpha() for c in text)]
        assert not english_left, (lang, english_left)
