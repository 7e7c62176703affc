"""The catalogs keep to the glossary (docs/glossary.md): one word for surprise, the undo key's word, and
names put first, so that a combatant's, a side's or a book's name never has to be declined ("У Раф", "атакует
Тролль 1", "в Компания", "В D&D 5-я редакция"): a sentence names a book by its own phrase ("в D&D 5-й редакции")."""

from __future__ import annotations

import re

import pytest

from tui_combat.i18n.update import read_catalog

NAMES = r"\{(?:name|names|target|attacker|holder|side|who|first|ruleset)\}"
DECLINED = {
    "ru": re.compile(
        r"(?i)(?:^|[\s(«])(?:у|в|во|на|для|по|против|от|из|к|с|атакует|захватить|держит|бросает)\s+" + NAMES
    ),
    "uk": re.compile(r"(?i)(?:^|[\s(«])(?:у|в|на|для|по|проти|від|із|з|до|атакує|захопити|тримає|кидає)\s+" + NAMES),
}
NOT_THE_TERM = {
    "ru": ("ошараш", "удивл", "откат", "трата", "данжон", "компани", "кубики пунктов", "воител", "ятаган"),
    "uk": ("відкат", "ушкодж", "заявк", "зустріч", "шахра", "умертвін"),
}
"""Words the glossary does not use: the seed's own that a book of the same game says otherwise ("ошарашен" for
surprised), and the words the Hobby World and Ukrainian books replaced ("компания" for the 5e party, "кубики
пунктов", "воитель", "ятаган"; uk "ушкодження" beside "шкода", "заявка", "зустріч", "шахрай", "умертвіння")."""
LATIN_IN_UKRAINIAN = re.compile(r"\b(?:HP|AC|NPC)\b|(?i:(?<=[а-яєіїґ])'(?=[а-яєіїґ]))")
"""In Ukrainian, hit points are «хіти», the armour class «КБ», an NPC «неігровий персонаж», and the apostrophe
is the typographic ’."""
TERMS = {
    "ru": {
        "THAC0": "THAC0 (пробой)",
        "Hit Dice": "Кости хитов",
        "Party": "Отряд",
        "warrior": "воин",
        "scimitar": "скимитар",
        "unconscious": "бессознательный",
    },
    "uk": {"HP": "Хіти", "AC": "КБ", "Declare": "Оголошення", "damage": "шкода", "rogue": "пройдисвіт"},
}
DIFFICULTY = {"ru": ("лёгкая", "средняя", "сложная", "смертельная"), "uk": ("легка", "середня", "важка", "смертельна")}
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
def test_every_book_has_its_own_words_for_in_it(lang: str) -> None:
    from tui_combat.engine import registry
    from tui_combat.i18n import set_language

    set_language(lang)
    for ruleset_id in ("adnd2e", "players_option", "dnd5e", "ose", "trudvang"):
        ruleset = registry.get(ruleset_id)
        assert ruleset.name_in, ruleset_id
        phrase = ruleset.in_ruleset()
        assert phrase != ruleset.name_in and phrase.split()[0] in ("в", "у"), phrase


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_one_term_for_surprise_and_for_undo(lang: str) -> None:
    bad = [
        (ident, text)
        for ident, text in translations(lang)
        if any(word in text.casefold() for word in NOT_THE_TERM[lang])
    ]
    assert not bad, "\n".join(f"{ident!r}: {text!r}" for ident, text in bad)
    assert dict(translations(lang))["Undo"] == UNDO[lang]


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_the_terms_of_the_books(lang: str) -> None:
    from tui_combat.i18n import _, pgettext, set_language

    set_language(lang)
    assert {ident: _(ident) for ident in TERMS[lang]} == TERMS[lang]
    words = tuple(pgettext("encounter difficulty", word) for word in ("easy", "medium", "hard", "deadly"))
    assert words == DIFFICULTY[lang]


def test_no_latin_unit_or_straight_apostrophe_in_ukrainian() -> None:
    bad = [(ident, text) for ident, text in translations("uk") if LATIN_IN_UKRAINIAN.search(text)]
    assert not bad, "\n".join(f"{ident!r}: {text!r}" for ident, text in bad)


def subject(words: str, colon: bool = False) -> str:
    """A name (with ``colon``, maybe a colon after it: "{name}: бежал") and the little ``words`` that may stand
    between it and its verb. After a colon an adjective belongs to the noun after it ("{name}: бойовий дух")."""
    return r"(?:^|[\s(«])" + NAMES + (r":?" if colon else "") + r"(?:\s+(?:" + words + r"))*\s+"


GENDERED = {
    # Past tense (действовал, прошёл, двигался, умер, мог), short participles and adjectives (захвачен, скрыт,
    # мёртв, стабилен): each says he or she. The present (действует), the plural and the neuter do not.
    "ru": re.compile(
        r"(?i)"
        + subject("уже|не|ещё|снова|так и|никем|его|её|их|больше", colon=True)
        + r"(?:[а-яё]+(?:л|лся|ёл|ёлся)|умер|погиб|мог|смог)(?![а-яё])|"
        + subject("уже|не|ещё|снова|никем|больше")
        + r"(?:[а-яё]+(?:ан|ян|ен|ён)|скрыт|убит|сбит|взят|занят|мёртв|жив|готов|рад)(?![а-яё])"
    ),
    "uk": re.compile(
        r"(?i)"
        + subject("уже|вже|не|ще|знову|ніким|його|її|їх|більше", colon=True)
        + r"(?:[а-яєіїґ'’ʼ]{2,}(?:в|вся)|утік|втік|зміг|міг|помер)(?![а-яєіїґ'’ʼ])|"
        + subject("уже|вже|не|ще|знову|ніким|більше")
        + r"(?:[а-яєіїґ'’ʼ]{2,}(?:ий|ен))(?![а-яєіїґ'’ʼ])"
    ),
}
"""A verb or a participle right after a combatant's name that would have to agree with the name's gender,
which the app does not know ("Сигрун уже действовал"): a message says it name first, then without one
("Сигрун: ход в этом раунде уже был")."""


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_no_gendered_word_follows_a_name(lang: str) -> None:
    bad = [(ident, text) for ident, text in translations(lang) if GENDERED[lang].search(text)]
    assert not bad, "\n".join(f"{ident!r}: {text!r}" for ident, text in bad)


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ru", "{name} уже действовал в этом раунде."),
        ("ru", "{name}: бежал из ближнего боя"),
        ("ru", "{name} его уже использовал."),
        ("ru", "{target} захвачен"),
        ("ru", "{name} мёртв: лечение"),
        ("ru", "{name} не учёл МИ"),
        ("uk", "{name} уже діяв цього раунду."),
        ("uk", "{name} ніким не захоплений."),
        ("uk", "{name} утік з ближнього бою"),
        ("uk", "{name} мертвий: зцілення"),
    ],
)
def test_the_gendered_words_are_found(lang: str, text: str) -> None:
    assert GENDERED[lang].search(text)


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ru", "{name}: ход в этом раунде уже был."),
        ("ru", "{name} действует вне очереди."),
        ("ru", "{name} в бою."),
        ("ru", "{names} бежали"),
        ("uk", "{name}: хід цього раунду вже був."),
        ("uk", "{name} знову в бою."),
        ("uk", "{name} діє поза чергою."),
        ("uk", "{name}: бойовий дух уже зламано."),
    ],
)
def test_what_agrees_with_no_name_is_not_taken_for_it(lang: str, text: str) -> None:
    assert not GENDERED[lang].search(text)


MASCULINE = {
    # A word that would agree with the name before it if it were a man's: a past tense, a short participle or
    # adjective, a full adjective ("выбыл", "ранен", "мёртв", "стабилен", "бессознательный").
    "ru": re.compile(
        r"(?i)(?<![а-яё])(?:[а-яё]{2,}(?:л|лся|ёл|ан|ян|ен|ён|ый|ий|ой)|мёртв|жив|невредим|скрыт|убит|сбит)"
        r"(?![а-яё])"
    ),
    "uk": re.compile(r"(?i)(?<![а-яєіїґ'’ʼ])(?:[а-яєіїґ'’ʼ]+(?:в|вся|ий|ій|ен)|утік|втік|помер)(?![а-яєіїґ'’ʼ])"),
}


def status_words() -> list[str]:
    """Every word a screen shows right after a combatant's name for his state (the turn list, the card, the
    players' screen, a report): the statuses, the players' words for health, the books' words for it, the
    conditions as the players' screen lists them."""
    from tui_combat.engine.model import STATUS_WORDS
    from tui_combat.engine.public import HEALTH_WORDS
    from tui_combat.rulesets.dnd5e.view import CONDITIONS_AFTER_A_NAME
    from tui_combat.rulesets.trudvang.health import LEVEL_WORDS

    return [
        *STATUS_WORDS,
        *HEALTH_WORDS.values(),
        *LEVEL_WORDS,
        *CONDITIONS_AFTER_A_NAME,
        "dead",
        "dying",
        "stable",
        "unconscious",
    ]


CONDITION_AFTER_A_NAME = re.compile(NAMES + r"[:—\s]*\{(?:condition|status|health|word)\}")
"""A condition put right after a name ("{name}: {condition}" → "Лия: отравленный"): the condition's name is the
book's adjective, which says he or she; a message puts it after a noun instead ("{name}: состояние «{condition}»")."""


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_no_condition_right_after_a_name(lang: str) -> None:
    bad = [(ident, text) for ident, text in translations(lang) if CONDITION_AFTER_A_NAME.search(text)]
    assert not bad, "\n".join(f"{ident!r}: {text!r}" for ident, text in bad)


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_no_status_word_says_he_or_she(lang: str) -> None:
    from tui_combat.i18n import after_name, set_language

    set_language(lang)
    shown = {word: after_name(word) for word in status_words()}
    assert all(text != word for word, text in shown.items()), "a status word without a translation"
    bad = {word: text for word, text in shown.items() if MASCULINE[lang].search(text)}
    assert not bad, bad


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ru", "выбыл"),
        ("ru", "тяжело ранен"),
        ("ru", "мёртв"),
        ("ru", "стабилен"),
        ("ru", "бессознательный"),
        ("ru", "сдался"),
        ("ru", "невредим"),
        ("uk", "вибув"),
        ("uk", "утік"),
        ("uk", "мертвий"),
        ("uk", "поранений"),
        ("uk", "стабільний"),
        ("uk", "непритомний"),
        ("uk", "здався"),
    ],
)
def test_the_masculine_status_words_are_found(lang: str, text: str) -> None:
    assert MASCULINE[lang].search(text)


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ru", "вне боя"),
        ("ru", "в бегстве"),
        ("ru", "сдаётся"),
        ("ru", "без ран"),
        ("ru", "тяжёлые ранения"),
        ("ru", "смерть"),
        ("ru", "стабильно"),
        ("ru", "без сознания"),
        ("ru", "умирает"),
        ("uk", "поза боєм"),
        ("uk", "у втечі"),
        ("uk", "капітулює"),
        ("uk", "тяжкі поранення"),
        ("uk", "без тями"),
        ("uk", "стабільно"),
        ("uk", "помирає"),
    ],
)
def test_the_neutral_status_words_pass(lang: str, text: str) -> None:
    assert not MASCULINE[lang].search(text)


PRONOUN_AFTER_A_NAME = {
    # "он", "его" … after a name in the same message: they say the combatant is a man ("{name}: раны перевязаны —
    # он больше не теряет хиты").
    "ru": re.compile(r"(?i)" + NAMES + r"[^.;]*?(?<![а-яё])(?:он|его|ему|него|нему|ним|нём)(?![а-яё])"),
    "uk": re.compile(r"(?i)" + NAMES + r"[^.;]*?(?<![а-яєіїґ'’ʼ])(?:він|його|йому|нього|ньому|ним)(?![а-яєіїґ'’ʼ])"),
}


@pytest.mark.parametrize("lang", ["ru", "uk"])
def test_no_he_or_him_after_a_name(lang: str) -> None:
    bad = [(ident, text) for ident, text in translations(lang) if PRONOUN_AFTER_A_NAME[lang].search(text)]
    assert not bad, "\n".join(f"{ident!r}: {text!r}" for ident, text in bad)


@pytest.mark.parametrize(
    ("lang", "text"),
    [
        ("ru", "{name}: раны перевязаны — он больше не теряет хиты."),
        ("ru", "{name}: сейчас не его ход."),
        ("ru", "{target} падает: 1d4 урона, и его отпускают"),
        ("uk", "{name}: зараз не його хід."),
        ("uk", "{name} у захопленні ({holder}): він може лише намагатися вирватися."),
    ],
)
def test_he_or_him_after_a_name_is_found(lang: str, text: str) -> None:
    assert PRONOUN_AFTER_A_NAME[lang].search(text)
