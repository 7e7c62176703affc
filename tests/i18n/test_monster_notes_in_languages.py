"""What a Russian or a Ukrainian GM reads of an SRD monster beside its figures — its challenge rating, Hit Dice,
other speeds, Multiattack, legendary actions and special abilities — is in his language: on the card, in the
library picker's detail and in the add form's preview, with no English word but the dice."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input

from tests.common import ids
from tests.i18n.interface import SIZE, interface_in, make_app, screen_name
from tests.i18n.walk import drawn, inspect, latin_words
from tests.rulesets.dnd5e_fight import act, d20, fight, play, texts
from tests.ui.steps import select
from tests.waiting import settled, until
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply
from tui_combat.engine.model import State
from tui_combat.fight import session
from tui_combat.fight.library import Entry, Finder, Library, entry_action, read_bestiary, summary
from tui_combat.i18n import set_language

DRAGON = "Adult Red Dragon"
NOTES = {
    "ru": (
        "ПО 17. Хиты 256 (19d12 + 133). Скорость: лазая 40 фт., летая 80 фт. Мультиатака: Дракон совершает три "
        "атаки разрыванием. Одну атаку можно заменить Использованием заклинаний, чтобы сотворить палящий луч. "
        "Легендарные действия: Властное присутствие, Огненные лучи, Прыжок."
    ),
    "uk": (
        "Небезпека 17. Хіти 256 (19d12 + 133). Швидкість: лазіння 40 фт., політ 80 фт. Мультиатака: Дракон здійснює "
        "три атаки роздиранням. Одну атаку можна замінити Використанням заклять, щоб створити пекучий промінь. "
        "Легендарні дії: Владна присутність, Вогняні промені, Стрибок."
    ),
}
BREATH = {"ru": "Огненное дыхание", "uk": "Вогняний подих"}


def dragon() -> Entry:
    found = Finder(Library(path=Path("none")), read_bestiary("dnd5e")).find(DRAGON)
    assert found is not None
    return found


def added(entry: Entry) -> State:
    """A fight with the entry added as the GM's language adds it."""
    action = entry_action(entry, "s2")
    return fight({"Party": [("Raf", 20, {})], "Monsters": [(action.name, action.hp, action.sheet)]})


def card(state: State, name: str) -> str:
    """The card's lines as the round screen makes them: the ruleset's details, then the stat block's notes."""
    ruleset = registry.get("dnd5e")
    combatant = next(c for c in state.combatants if c.name.startswith(name))
    lines = [f"{label}: {value}" for label, value in ruleset.details(state, combatant.id)]
    return "\n".join([*lines, ruleset.sheet_notes(combatant.sheet, combatant.max_hp)])


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_red_dragons_card_and_library_lines_have_no_english_word(lang: str) -> None:
    set_language(lang)
    entry = dragon()
    ruleset = registry.get("dnd5e")
    shown = card(added(entry), entry.shown_name())
    assert NOTES[lang] in shown
    assert f"{BREATH[lang]}: " in shown
    detail = summary(entry, ruleset.sheet_fields, ruleset.health_label, ruleset.shown_sheet_value)
    assert f"{BREATH[lang]}: 17d6 " in detail
    assert ruleset.sheet_notes(entry.shown_sheet(), entry.hp) == NOTES[lang]
    assert latin_words(shown) == [] and latin_words(detail) == []


def test_in_english_the_card_says_what_the_book_prints() -> None:
    entry = dragon()
    state = added(entry)
    shown = card(state, DRAGON)
    assert shown.endswith(
        "CR 17. HP 256 (19d12 + 133). Speed climb 40 ft., fly 80 ft. Multiattack: The adult red dragon "
        "makes three Rend attacks. It can replace one attack with a use of Spellcasting to cast Scorching "
        "Ray. Legendary actions: Commanding Presence, Fiery Rays, Pounce."
    )
    assert "Fire Breath: recharge 5–6: ready, cone 60 ft" in shown
    from tui_combat.screens.rewind import card_text

    _head, looked_back = card_text(state, next(c.id for c in state.combatants if c.name == DRAGON))
    assert "CR 17. HP 256 (19d12 + 133)." in looked_back.plain  # looking back at the fight, the same card


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_every_srd_monster_says_its_notes_and_abilities_in_the_language(lang: str) -> None:
    """No English word in any SRD monster's notes or abilities as the library shows them (the names files have
    every Multiattack and every name: a monster without them would show its English here)."""
    set_language(lang)
    ruleset = registry.get("dnd5e")
    abilities = next(spec for spec in ruleset.sheet_fields if spec.key == "abilities")
    english = []
    for entry in read_bestiary("dnd5e").entries:
        sheet = entry.shown_sheet()
        words = latin_words(
            ruleset.sheet_notes(sheet, entry.hp)
            + " "
            + entry.shown_notes()
            + " "
            + ruleset.shown_sheet_value(abilities, sheet.get("abilities", ""))
        )
        if words:
            english.append(f"{entry.name}: {words}")
    assert english == []


def test_an_ability_keeps_its_english_name_in_the_sheet_the_rules_read() -> None:
    """The sheet added in Russian keeps "Fire Breath" (the area form and the recharge find it by name); its
    Multiattack is in Russian, as its attacks are."""
    set_language("ru")
    sheet = entry_action(dragon(), "s2").sheet
    assert sheet["abilities"].startswith("Fire Breath: ") and sheet["legendary_actions"].startswith("Commanding")
    assert sheet["multiattack"].startswith("Дракон совершает три атаки разрыванием.")


@pytest.mark.slow  # the picker, the set-up and a round of the 5e demo, in two languages
@pytest.mark.parametrize("lang", ["ru", "uk"])
async def test_the_red_dragon_on_the_screens_has_no_english_word(lang: str, data_root: Path) -> None:
    """The picker's detail and the card read in the GM's language (on a terminal tall enough for the picker to
    show the dragon's whole detail: at 80×24 it ends in "…")."""
    with interface_in(lang) as module:
        app = make_app(module, data_root)
        async with app.run_test(size=(80, 50)) as pilot:
            await until(pilot, lambda: screen_name(pilot) == "SessionsScreen", "the session list")
            app.open_session(partial(session.open_demo, data_root, "demo_dnd5e.toml", seed=app.seed))
            await until(pilot, lambda: screen_name(pilot) == "SetupScreen", "the set-up")
            await pilot.press("l")
            await until(pilot, lambda: screen_name(pilot) == "LibraryPicker", "the picker")
            await pilot.press(*"adult red")
            screen: Any = app.screen
            await until(
                pilot,
                lambda: screen.query_one("#library-query", Input).value == "adult red" and settled(screen),
                "the search",
            )
            await until(
                pilot,
                lambda: NOTES[lang] in " ".join(drawn(screen.query_one("#library-detail")).split()),
                "the detail drawn whole",
                describe=lambda: drawn(screen.query_one("#library-detail")),
            )
            detail = drawn(screen.query_one("#library-detail"))
            assert BREATH[lang] in detail and latin_words(detail) == []
            await pilot.press("enter")
            await until(pilot, lambda: screen_name(pilot) == "SetupScreen", "back on the set-up")
            await pilot.press("c")
            await until(pilot, lambda: screen_name(pilot) == "SurpriseScreen", "the surprise screen")
            await pilot.press("c")
            await until(pilot, lambda: screen_name(pilot).startswith("RoundScreen"), "the round")
            dragon_id = next(c.id for c in app.store.state.combatants if c.sheet.get("cr") == "17")
            await select(pilot, dragon_id)
            shown = app.screen.query_one("#card")
            await until(
                pilot,
                lambda: NOTES[lang] in " ".join(str(shown.render()).split()) and settled(app.screen),
                "the dragon's card",
            )
            assert latin_words(str(shown.render()) + " " + str(app.screen.query_one("#card-head").render())) == []


@pytest.mark.parametrize(("lang", "teleport"), [("ru", "Телепортация"), ("uk", "Телепортація")])
def test_the_use_key_and_its_log_name_an_ability_in_the_gms_language(lang: str, teleport: str) -> None:
    """The blink dog's Teleport (recharge 4–6) offered by the use key and spent, named in the GM's language; the
    rules keep its English name (the use key's choice, the spent ability)."""
    set_language(lang)
    found = Finder(Library(path=Path("none")), read_bestiary("dnd5e")).find("Blink Dog")
    assert found is not None
    action = entry_action(found, "s2")
    state = play(fight({"Party": [("Raf", 20, {})], "Dogs": [(action.name, action.hp, action.sheet)]}), a.StartFight())
    who = ids(state)
    dog = who[action.name]
    state = apply(state, a.RollInitiative(rolls={dog: d20(20), who["Raf"]: d20(5)}))
    ruleset = registry.get("dnd5e")
    assert ("ability:Teleport", teleport) in ruleset.action_fields(state, "use", dog)[0].choices
    state = act(state, "use", action.name, what="ability:Teleport")
    assert teleport in texts(state)[-1] and teleport in texts(state)[-2]
    assert latin_words(" ".join(texts(state)[-2:])) == []


@pytest.mark.slow  # the picker of the 5e demo
async def test_at_80_by_24_the_pickers_detail_ends_in_an_ellipsis_rather_than_cut(data_root: Path) -> None:
    """The dragon's detail is longer than the picker's room at 80×24: it shows what fits and says there is more
    ("…"); nothing is cut, and the challenge rating is among what fits."""
    with interface_in("ru") as module:
        app = make_app(module, data_root)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: screen_name(pilot) == "SessionsScreen", "the session list")
            app.open_session(partial(session.open_demo, data_root, "demo_dnd5e.toml", seed=app.seed))
            await until(pilot, lambda: screen_name(pilot) == "SetupScreen", "the set-up")
            await pilot.press("l")
            await until(pilot, lambda: screen_name(pilot) == "LibraryPicker", "the picker")
            await pilot.press(*"adult red")
            screen: Any = app.screen
            await until(
                pilot,
                lambda: drawn(screen.query_one("#library-detail")).endswith("…"),
                "the detail fitted",
                describe=lambda: drawn(screen.query_one("#library-detail")),
            )
            assert "ПО 17. Хиты 256 (19d12 + 133)." in " ".join(drawn(screen.query_one("#library-detail")).split())
            assert not await inspect(pilot, "picker", "ru")
