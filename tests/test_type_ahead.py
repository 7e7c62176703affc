"""Typing a choice's name in a list (the matcher every picker shares): the start of a name, then of a word in it;
the same letter again goes on to the next; a letter that finds nothing starts anew; never a choice that cannot
be chosen; in whatever language the list shows."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tui_combat.widgets.type_ahead import TypeAhead

CONDITIONS = (
    "blinded",
    "charmed",
    "deafened",
    "exhaustion",
    "frightened",
    "grappled",
    "incapacitated",
    "invisible",
    "paralyzed",
    "petrified",
    "poisoned",
    "prone",
    "restrained",
    "stunned",
    "unconscious",
)


def typed(labels: tuple[str, ...], keys: str, current: int | None = 0) -> int | None:
    finder = TypeAhead()
    finder.use(labels)
    for key in keys:
        found = finder.find(key, current)
        current = current if found is None else found
    return current


def test_the_first_letters_of_a_name() -> None:
    assert CONDITIONS[typed(CONDITIONS, "pr") or 0] == "prone"
    assert CONDITIONS[typed(CONDITIONS, "pe") or 0] == "petrified"
    assert CONDITIONS[typed(CONDITIONS, "u") or 0] == "unconscious"
    assert CONDITIONS[typed(CONDITIONS, "PR") or 0] == "prone"  # case aside


def test_the_same_letter_again_goes_on_to_the_next() -> None:
    assert [CONDITIONS[typed(CONDITIONS, "p" * n) or 0] for n in (1, 2, 3, 4, 5)] == [
        "paralyzed",
        "petrified",
        "poisoned",
        "prone",
        "paralyzed",
    ]


def test_a_letter_that_finds_nothing_starts_anew() -> None:
    assert CONDITIONS[typed(CONDITIONS, "prg") or 0] == "grappled"


def test_nothing_found_leaves_the_highlight() -> None:
    assert typed(CONDITIONS, "z", current=3) == 3
    assert typed(CONDITIONS, " ", current=3) == 3  # a space begins no search


def test_a_word_inside_a_name() -> None:
    labels = ("Goblin 1 — AC 15: 60% to hit", "Bugbear — AC 16: 55% to hit", "Mirela — AC 12: 75% to hit")
    assert typed(labels, "bu") == 1
    assert typed(labels, "mi") == 2
    assert typed(("short sword", "long sword", "dagger"), "lo") == 1
    assert typed(("short sword", "long sword", "dagger"), "sw") == 0  # a word's start, after a name's


def test_in_the_language_shown() -> None:
    labels = ("ослеплённый", "очарованный", "сбитый с ног", "схваченный")
    assert typed(labels, "сб") == 2
    assert typed(labels, "сх") == 3


def test_backspace_takes_back_a_letter() -> None:
    finder = TypeAhead()
    finder.use(CONDITIONS)
    here = finder.find("p", 0)
    here = finder.find("r", here)
    assert here is not None and CONDITIONS[here] == "prone"
    assert finder.back(here) == CONDITIONS.index("prone")  # "p": prone begins with it
    assert finder.typed == "p"


def test_what_cannot_be_chosen_is_passed_over() -> None:
    finder = TypeAhead()
    finder.use(("Orc", "… 3 more: type more of the name", "Ogre"))
    assert finder.find("…", 0, skip=frozenset({1})) is None
    assert finder.find("o", 0, skip=frozenset({1})) == 2


@given(st.lists(st.text(min_size=1, max_size=8), min_size=1, max_size=12), st.text(max_size=6))
def test_a_search_always_ends_on_a_choice_of_the_list(labels: list[str], keys: str) -> None:
    found = typed(tuple(labels), keys)
    assert found is not None and 0 <= found < len(labels)
