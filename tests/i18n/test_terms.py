"""The catalogs keep to the glossary (docs/glossary.md): one word for surprise, the undo key's word, and
names put first, so that a combatant's or a side's name never has to be declined ("У Раф", "атакует
Тролль 1", "в Компания")."""

from __future__ import annotations

import re

import pytest

from tui_combat.i18n.update import read_catalog

NAMES = r"\{(?:name|names|target|attacker|holder|side|who|first)\}"
DECLINED = {
    "ru": re.compile(r"(?i)(?:^|[\s(«])(?:у|в|во|на|для|по|против|от|из|к|с|атакует|захватить|держит|бросает)\s+" + NAMES),
    "uk": re.compile(r"(?i)(?:^|[\s(«])(?:у|в|на|для|по|проти|від|із|з|до|атакує|захопити|тримає|кидає)\s+" + NAMES),
}
NOT_THE_TERM = {
    "ru": ("ошараш", "удивл", "откат", "трата", "данжон"),
    "uk": ("відкат",),
}
UNDO = {"ru": "Отменить", "uk": "Скасувати"}


def translations(lang: str) -> list[tuple[str, str]]:
    catalog = read_catalog(lang)
    found = []
    for message in catalog:
        if not message.id:
            continue
        ident = message.id if isinstance(message.id, str) else message.id[0]
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found += [(ident, text) for text in strings if text]
    return found


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_no_name_follows_a_word_that_would_decline_it(lang: str) -> None:
    bad = [(ident, text) for ident, text in translations(lang) if DECLINED[lang].search(text)]
    assert not bad, "\n".join(f"{ident!r}: {text!r}" for ident, text in bad)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_one_term_for_surprise_and_for_undo(lang: str) -> None:
    bad = [(ident, text) for ident, text in translations(lang)
           if any(word in text.casefold() for word in NOT_THE_TERM[lang])]
    assert not bad, "\n".join(f"{ident!r}: {text!r}" for ident, text in bad)
    assert dict(translations(lang))["Undo"] == UNDO[lang]
