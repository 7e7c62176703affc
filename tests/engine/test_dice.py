"""Tests for the dice notation engine (tui_combat.engine.dice)."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tui_combat.engine.dice import (
    MAX_REROLLS,
    DiceError,
    DiceExpr,
    Roll,
    format_roll,
    parse,
    physical,
    roll,
)


class FixedRandom(random.Random):
    """A Random whose randint returns the given faces in order (and checks the range asked)."""

    def __init__(self, faces: Iterable[int]) -> None:
        super().__init__(0)
        self._faces = iter(faces)
        self.calls: list[tuple[int, int]] = []

    def randint(self, a: int, b: int) -> int:
        self.calls.append((a, b))
        return next(self._faces)


class MaxRandom(random.Random):
    """Always rolls the maximum face."""

    def randint(self, a: int, b: int) -> int:
        return b


# --- parsing -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "text", "low", "high"),
    [
        ("1d10", "1d10", 1, 10),
        ("d10", "1d10", 1, 10),
        ("D6", "1d6", 1, 6),
        ("d%", "1d100", 1, 100),
        ("2d6+1d4-1", "2d6+1d4-1", 2, 15),
        ("-1+d8", "-1+1d8", 0, 7),
        ("+3", "3", 3, 3),
        ("-d4+3", "-1d4+3", -1, 2),
        (" 2 d6 − 1 ", "2d6-1", 1, 11),
        ("4d6kh3+2", "4d6kh3+2", 5, 20),
        ("4d6K3", "4d6kh3", 3, 18),
        ("4d6kl1", "4d6kl1", 1, 6),
        ("d20adv", "d20adv", 1, 20),
        ("1d20ADV", "d20adv", 1, 20),
        ("1d20 dis+5", "d20dis+5", 6, 25),
        ("d10!", "1d10!", 1, None),
        ("2d10!+3", "2d10!+3", 5, None),
        ("1000d10000", "1000d10000", 1000, 10_000_000),
        # The die letters of the Russian and Ukrainian books.
        ("2к6+1", "2d6+1", 3, 13),
        ("1д8", "1d8", 1, 8),
        ("К20 + 2Д4", "1d20+2d4", 3, 28),
        ("3к6!", "3d6!", 3, None),
    ],
)
def test_parse_valid(expr: str, text: str, low: int, high: int | None) -> None:
    parsed = parse(expr)
    assert parsed.text == text
    assert str(parsed) == text
    assert parsed.min_total == low
    assert parsed.max_total == high
    assert parse(parsed.text) == parsed  # the normalised text reads back to the same thing


@pytest.mark.parametrize(
    ("expr", "fragment"),
    [
        ("", "empty"),
        ("   ", "empty"),
        ("abc", 'found "a"'),
        ("2d", 'number of sides after "d"'),
        ("d", 'number of sides after "d"'),
        ("3x6", 'unexpected "x" after "3"'),
        ("4d6kh9", "keep from 1 to 4"),
        ("4d6kh0", "keep from 1 to 4"),
        ("4d6kh", "number of dice to keep"),
        ("1d0", "from 2 to 10000 sides"),
        ("1d1", "from 2 to 10000 sides"),
        ("1d10001", "from 2 to 10000 sides"),
        ("0d6", "from 1 to 1000"),
        ("1001d6", "from 1 to 1000"),
        ("2d6+", 'after "2d6+"'),
        ("2d6++1", 'found "+"'),
        ("2d20adv", "single die"),
        ("-d10!", "cannot be subtracted"),
        ("4d6!kh3", 'unexpected "k"'),
        ("1d6" + "+1" * 50, "too many terms"),
        ("1" * 201, "too long"),
        ("10000000", "too large"),
        ("٣d6", 'found "٣"'),  # only ASCII digits
    ],
)
def test_parse_errors_name_the_problem(expr: str, fragment: str) -> None:
    with pytest.raises(DiceError) as info:
        parse(expr)
    assert fragment in str(info.value)


def test_error_message_example() -> None:
    with pytest.raises(DiceError) as info:
        parse("2d")
    assert str(info.value) == ('Cannot read "2d": a die needs a number of sides after "d" (e.g. 2d6).')


def test_fifty_terms_is_allowed() -> None:
    assert len(parse("+".join(["1"] * 50)).terms) == 50


@settings(max_examples=500)
@given(st.text())
def test_parse_never_raises_anything_but_dice_error(text: str) -> None:
    try:
        parsed = parse(text)
    except DiceError as err:
        assert str(err)
    else:
        assert isinstance(parsed, DiceExpr)


@settings(max_examples=300)
@given(st.text(alphabet="0123456789dDkhlKHL%!+-−adivs ", max_size=30))
def test_parse_dice_like_text_never_raises_anything_but_dice_error(text: str) -> None:
    try:
        parse(text)
    except DiceError:
        pass


# --- rolling -----------------------------------------------------------------------------

dice_terms = st.one_of(
    st.integers(0, 20).map(str),
    st.builds(lambda n, s: f"{n}d{s}", st.integers(1, 10), st.integers(2, 100)),
    st.builds(lambda s: f"d{s}", st.integers(2, 100)),
    st.just("d%"),
    st.builds(
        lambda n, k, low, s: f"{n}d{s}{'kl' if low else 'kh'}{min(k, n)}",
        st.integers(1, 8),
        st.integers(1, 8),
        st.booleans(),
        st.integers(2, 20),
    ),
    st.builds(lambda s, word: f"d{s}{word}", st.integers(2, 20), st.sampled_from(["adv", "dis"])),
    st.builds(lambda n, s: f"{n}d{s}!", st.integers(1, 4), st.integers(2, 12)),
)


@st.composite
def expressions(draw: st.DrawFn) -> str:
    terms = draw(st.lists(dice_terms, min_size=1, max_size=6))
    text = terms[0]
    for term in terms[1:]:
        # open-ended dice may not be subtracted
        sign = "+" if term.endswith("!") else draw(st.sampled_from(["+", "-"]))
        text += sign + term
    return text


@settings(max_examples=300)
@given(expressions(), st.integers(0, 2**32))
def test_total_within_bounds(expr: str, seed: int) -> None:
    parsed = parse(expr)
    result = roll(parsed, random.Random(seed))
    assert result.expr == parsed.text
    assert not result.physical
    assert parsed.min_total <= result.total
    if parsed.max_total is not None:
        assert result.total <= parsed.max_total
    assert all(face >= 1 for face in result.faces)
    assert format_roll(result).endswith(f"= {result.total}")


@settings(max_examples=100)
@given(expressions(), st.integers(0, 2**32))
def test_same_seed_same_roll(expr: str, seed: int) -> None:
    assert roll(expr, random.Random(seed)) == roll(expr, random.Random(seed))
    assert roll(expr, random.Random(seed)) == roll(parse(expr), random.Random(seed))


def test_simple_roll_and_format() -> None:
    result = roll("1d10", FixedRandom([7]))
    assert result == Roll(expr="1d10", total=7, faces=(7,))
    assert format_roll(result) == "1d10: [7] = 7"


def test_keep_highest_keeps_the_right_faces() -> None:
    rng = FixedRandom([6, 5, 3, 1])
    result = roll("4d6kh3+2", rng)
    assert rng.calls == [(1, 6)] * 4
    assert result.faces == (6, 5, 3, 1)
    assert result.total == 16
    assert format_roll(result) == "4d6kh3+2: [6, 5, 3, (1)] + 2 = 16"


def test_keep_drops_dice_in_any_position_and_ties_keep_the_earlier_die() -> None:
    result = roll("4d6k2", FixedRandom([2, 6, 2, 1]))
    assert result.total == 8
    assert format_roll(result) == "4d6kh2: [2, 6, (2), (1)] = 8"


def test_keep_lowest() -> None:
    result = roll("4d6kl1", FixedRandom([4, 2, 5, 3]))
    assert result.total == 2
    assert format_roll(result) == "4d6kl1: [(4), 2, (5), (3)] = 2"


def test_advantage_and_disadvantage() -> None:
    adv = roll("d20adv", FixedRandom([4, 17]))
    dis = roll("1d20dis", FixedRandom([4, 17]))
    assert (adv.total, adv.faces, adv.expr) == (17, (4, 17), "d20adv")
    assert (dis.total, dis.faces, dis.expr) == (4, (4, 17), "d20dis")
    assert format_roll(adv) == "d20adv: [(4), 17] = 17"
    assert format_roll(dis) == "d20dis: [4, (17)] = 4"


def test_several_terms_and_negatives() -> None:
    result = roll("2d6+1d4-1", FixedRandom([3, 4, 2]))
    assert result.total == 8
    assert format_roll(result) == "2d6+1d4-1: [3, 4] + [2] - 1 = 8"
    result = roll("-d4+3", FixedRandom([4]))
    assert result.total == -1
    assert format_roll(result) == "-1d4+3: -[4] + 3 = -1"


def test_percentile() -> None:
    rng = FixedRandom([42])
    assert roll("d%", rng).total == 42
    assert rng.calls == [(1, 100)]


def test_explosion_with_fake_rng() -> None:
    result = roll("d10!", FixedRandom([10, 10, 3]))
    assert result.faces == (10, 10, 3)
    assert result.total == 23
    assert format_roll(result) == "1d10!: [10+10+3] = 23"
    result = roll("2d10!+1", FixedRandom([10, 4, 7]))
    assert result.total == 22
    assert format_roll(result) == "2d10!+1: [10+4, 7] + 1 = 22"


def test_explosion_with_a_seeded_rng() -> None:
    # Find a seed whose first two d10 faces are both 10, so the die explodes twice.
    seed = next(s for s in range(100_000) if _first_faces(s, 10, 2) == [10, 10])
    result = roll("d10!", random.Random(seed))
    assert result.faces[:2] == (10, 10)
    assert len(result.faces) >= 3
    assert result.faces[-1] != 10
    assert result.total == sum(result.faces) > 20
    assert roll("d10!", random.Random(seed)) == result


def _first_faces(seed: int, sides: int, n: int) -> list[int]:
    rng = random.Random(seed)
    return [rng.randint(1, sides) for _ in range(n)]


def test_explosion_stops_silently_after_the_cap() -> None:
    result = roll("2d6!", MaxRandom())
    assert len(result.faces) == 2 * (MAX_REROLLS + 1)
    assert result.total == 6 * 2 * (MAX_REROLLS + 1)
    assert format_roll(result).endswith(f"= {result.total}")


def test_format_roll_falls_back_for_faces_that_do_not_fit() -> None:
    odd = Roll(expr="2d6", total=5, faces=(5,))
    assert format_roll(odd) == "2d6: [5] = 5"


def test_roll_is_a_msgspec_struct() -> None:
    import msgspec

    result = roll("4d6kh3", random.Random(3))
    assert msgspec.json.decode(msgspec.json.encode(result), type=Roll) == result


# --- physical dice -------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "total"), [("7", 7), (" 10 ", 10), ("+1", 1), ("1", 1)])
def test_physical_accepts_in_range(text: str, total: int) -> None:
    result = physical("1d10", text)
    assert result == Roll(expr="1d10", total=total, faces=(), physical=True)
    assert format_roll(result) == f"1d10 (typed): {total}"


@pytest.mark.parametrize("text", ["abc", "0", "11", "", "-3", "1.5", "1e1", "7 7"])
def test_physical_refuses_out_of_range_or_garbage(text: str) -> None:
    with pytest.raises(DiceError) as info:
        physical("1d10", text)
    message = str(info.value)
    assert "from 1 to 10" in message
    assert "1d10" in message
    assert f'"{text.strip()}"' in message


def test_physical_message_example() -> None:
    with pytest.raises(DiceError) as info:
        physical("1d10", "abc")
    assert str(info.value) == 'Expected a number from 1 to 10 for 1d10, got "abc".'


def test_physical_negative_ranges_and_unicode_minus() -> None:
    assert physical("1d4-5", "−2").total == -2
    assert physical("1d4-5", "-4").total == -4
    with pytest.raises(DiceError, match="from -4 to -1"):
        physical("1d4-5", "0")


def test_physical_open_ended_has_no_upper_bound() -> None:
    assert physical("d10!", "37").total == 37
    with pytest.raises(DiceError) as info:
        physical("d10!", "0")
    assert "at least 1" in str(info.value)


def test_physical_bad_expression_raises_dice_error() -> None:
    with pytest.raises(DiceError):
        physical("2d", "3")


@settings(max_examples=200)
@given(st.text())
def test_physical_never_raises_anything_but_dice_error(text: str) -> None:
    try:
        result = physical("2d6+1", text)
    except DiceError:
        pass
    else:
        assert 3 <= result.total <= 13


def test_module_does_not_import_textual() -> None:
    import ast
    import inspect

    import tui_combat.engine.dice as dice

    tree = ast.parse(inspect.getsource(dice))
    imported = {
        alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
    } | {(node.module or "").split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"__future__", "random", "msgspec", "tui_combat"}
