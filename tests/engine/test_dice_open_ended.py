"""Open-ended dice with a threshold (Trudvang's OR 10 / 9 / 8) and typed results that must be possible."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_combat.engine.dice import DiceError, format_roll, parse, physical, roll


class FixedRandom(random.Random):
    def __init__(self, faces: list[int]) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


@pytest.mark.parametrize(("text", "shown"), [("d10!9", "1d10!9"), ("1d10!8+2", "1d10!8+2"), ("d10!10", "1d10!")])
def test_threshold_notation(text: str, shown: str) -> None:
    assert parse(text).text == shown


@pytest.mark.parametrize("text", ["d10!1", "d10!11", "d6!0"])
def test_threshold_outside_the_die_is_refused(text: str) -> None:
    with pytest.raises(DiceError, match="rolls again on a face from 2 to"):
        parse(text)


def test_or_9_rolls_again_on_9_and_10() -> None:
    result = roll("1d10!9+2", FixedRandom([9, 10, 4]))
    assert result.total == 9 + 10 + 4 + 2
    assert format_roll(result) == "1d10!9+2: [9+10+4] + 2 = 25"
    assert roll("1d10!9", FixedRandom([8])).total == 8


def test_or_8_stops_below_8() -> None:
    assert roll("1d10!8", FixedRandom([8, 7])).faces == (8, 7)


def test_typed_total_of_exactly_10_is_impossible_for_d10_open() -> None:
    for total in ("10", "20"):
        with pytest.raises(DiceError, match="always rolls again"):
            physical("1d10!", total)
    assert physical("1d10!", "19").total == 19


def test_typed_total_for_or_9_and_strength() -> None:
    with pytest.raises(DiceError, match="cannot total 11"):
        physical("1d10!9+2", "11")  # the die would have stopped on 9
    assert physical("1d10!9+2", "12").total == 12  # 10 never stops either, but 9 then 1 is 10


def test_faces_one_by_one_add_the_constants() -> None:
    typed = physical("1d10!9+2", "9 4")
    assert (typed.total, typed.faces, typed.physical) == (15, (9, 4), True)
    assert physical("1d10!", "10+10+3").total == 23
    assert physical("1d10!", "10, 4").total == 14


def test_faces_must_finish_the_chain_and_fit_the_dice() -> None:
    with pytest.raises(DiceError, match="rolls again: type the next die"):
        physical("1d10!", "10 10")
    with pytest.raises(DiceError, match="at least 1"):
        physical("1d10!", "4 3")  # the 4 did not roll again
    with pytest.raises(DiceError, match="shows 1 to 10"):
        physical("1d10!", "11 3")


def test_faces_of_two_dice_keep_the_higher() -> None:
    assert physical("d20adv", "17 4").total == 17


@settings(max_examples=100)
@given(st.integers(min_value=0, max_value=2**32), st.sampled_from(["1d10!", "1d10!9", "1d10!8+1", "1d10!9-1"]))
def test_every_rolled_total_is_accepted_typed(seed: int, expr: str) -> None:
    result = roll(expr, random.Random(seed))
    assert physical(expr, str(result.total)).total == result.total
    if len(result.faces) > 1:  # one number typed is the total
        assert physical(expr, " ".join(map(str, result.faces))).total == result.total
