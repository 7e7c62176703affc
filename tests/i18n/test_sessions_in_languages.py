"""A saved session opened in one language and then in another: the same journal, its whole log shown in
each language; the files on disk are not touched by either. And a demo started in a language speaks it."""

from __future__ import annotations

import hashlib
from pathlib import Path

from tests.engine.test_log_languages import demo_journal
from tui_combat.fight import session
from tui_combat.fight.store import Store, new_state
from tui_combat.i18n import set_language
from tui_combat.saves.session_folders import new_session_folder


def fingerprint(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def saved_demo_fight(root: Path) -> str:
    """The demo of the AD&D chapter played in English into round 2 (see tests/engine/test_log_languages.py)."""
    set_language("en")
    store = Store.create(new_state(0, ruleset="adnd2e"), new_session_folder(root, "tunnel"))
    for action in demo_journal():
        store.dispatch(action)
    assert store.folder is not None
    key = store.folder.folder.name
    store.close()
    return key


def texts_in(root: Path, key: str, lang: str) -> list[str]:
    set_language(lang)
    store = session.resume(root, key)
    try:
        return [entry.text for entry in store.state.log_entries()]
    finally:
        store.close()


def test_the_same_session_in_russian_then_ukrainian(tmp_path: Path) -> None:
    key = saved_demo_fight(tmp_path)
    folder = tmp_path / "sessions" / key
    before = fingerprint(folder)

    russian = texts_in(tmp_path, key, "ru")
    ukrainian = texts_in(tmp_path, key, "uk")
    english = texts_in(tmp_path, key, "en")

    assert fingerprint(folder) == before  # opening in a language changes no file: the journal is the same
    assert len(russian) == len(ukrainian) == len(english) == 20
    rows = list(zip(english, russian, ukrainian))
    assert ("Orc 1 is dead.", "Orc 1: смерть.", "Orc 1: смерть.") in rows  # a monster at 0, by the book
    assert ("Round 1 begins.", "Начинается раунд 1.", "Починається раунд 1.") in rows
    assert ("Round 2 begins.", "Начинается раунд 2.", "Починається раунд 2.") in rows
    assert (
        "Initiative — Monsters: 1d10: [5] = 5.",
        "Инициатива — Monsters: 1d10: [5] = 5.",
        "Ініціатива — Monsters: 1d10: [5] = 5.",
    ) in rows
    # Raf, warrior 5 with his war hammer +4: THAC0 16, so 10 to hit AC 6; a 14 hits.
    assert (
        "Raf attacks AC 6: d20 14 +4 magic vs 10 — hit.",
        "Raf атакует КД 6: d20 14 +4 магия против 10 — попадание.",
        "Raf атакує КБ 6: d20 14 +4 магія проти 10 — влучання.",
    ) in rows
    assert (
        "Delsenora is hit before casting: haste is lost.",
        "Delsenora получает удар до сотворения: haste потеряно.",
        "Delsenora зазнає удару до створення: haste зривається.",
    ) in rows
    assert ("Orc 2 has fled.", "Orc 2 бежит.", "Orc 2 тікає.") in rows
    assert (
        "Orc 1 takes 5 damage (1d4+1 (typed): 5): 0/5 HP.",
        "Orc 1: урон 5 (1d4+1 (вручную): 5), хиты 0/5.",
        "Orc 1: шкода 5 (1d4+1 (вручну): 5), хіти 0/5.",
    ) in rows
    assert ("Raf shouts for Moradin.",) * 3 in rows  # the GM's own note is his words, in no catalog
    untranslated = [e for e, r, u in rows if r == e and e != "Raf shouts for Moradin." and any(c.isalpha() for c in e)]
    assert not untranslated, untranslated


def test_a_demo_started_in_russian_has_russian_names(tmp_path: Path) -> None:
    set_language("ru")
    store = session.open_demo(tmp_path, session.DEMOS[0].file_name, seed=1)
    try:
        state = store.state
        assert state.name == "Тролли и орки в туннеле"
        assert [side.name for side in state.sides] == ["Отряд", "Монстры"]
        assert [c.name for c in state.combatants][:4] == ["Раф", "Руперт", "Дельсенора", "Тролль 1"]
        assert state.combatants[0].notes == "Карлик-воин, ненавидит орков; носит рог разрушения."
        assert state.combatants[0].sheet["weapon"] == "war hammer"  # the sheet is data, looked up in the tables
    finally:
        store.close()
        set_language("en")


def test_a_demo_started_in_ukrainian_has_ukrainian_names(tmp_path: Path) -> None:
    set_language("uk")
    store = session.open_demo(tmp_path, "demo_ose.toml", seed=1)
    try:
        assert store.state.name == "Гобліни біля мосту"
        assert [side.name for side in store.state.sides] == ["Гурт", "Гобліни", "Огр"]
    finally:
        store.close()
        set_language("en")
