"""The action deck: 52 cards and two Jokers, as numbers a Roll can carry.

A card is its place in a fresh deck, 1 to 54: clubs 2 … A (1–13), diamonds (14–26), hearts (27–39), spades
(40–52), then the red and the black Joker (53, 54). Its rank in the order is another number
(:func:`order_value`): the rank first (Ace high, Deuce low), then the suit, spades ♠ > hearts ♥ > diamonds ♦ >
clubs ♣; a Joker above every card.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

SUITS = ("♣", "♦", "♥", "♠")
"""In the order of the ties: clubs lowest, spades highest."""
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
JOKERS = (53, 54)
DECK = tuple(range(1, 55))
_SUIT_LETTERS = {"c": 0, "d": 1, "h": 2, "s": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3, "♧": 0, "♢": 1, "♡": 2, "♤": 3}
_RANK_WORDS = {"jack": "J", "queen": "Q", "king": "K", "ace": "A", "1": "A", "t": "10"}


class CardError(ValueError):
    """What was typed is not a card; ``str()`` says what a card looks like (in English: the caller words it)."""


def is_joker(card: int) -> bool:
    return card in JOKERS


def suit_of(card: int) -> int:
    """0 clubs … 3 spades."""
    return (card - 1) // 13


def rank_of(card: int) -> int:
    """0 for a Deuce … 12 for an Ace."""
    return (card - 1) % 13


def order_value(card: int) -> int:
    """Higher acts first: rank, then suit; a Joker above all (the two Jokers equal)."""
    if is_joker(card):
        return 100
    return rank_of(card) * 4 + suit_of(card)


def low_card(card: int) -> bool:
    """A Five or lower (what the Quick edge draws again)."""
    return not is_joker(card) and rank_of(card) <= 3


def card_text(card: int) -> str:
    """ "K♠", "10♥"; a Joker is "Joker" (the caller translates that word)."""
    if is_joker(card):
        return "Joker"
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def best(cards: Iterable[int]) -> int:
    """The card acted on: the highest of those drawn."""
    return max(cards, key=order_value)


def read_card(typed: str, taken: Iterable[int] = ()) -> int:
    """One card as typed: "K♠", "ks", "10h", "QH", "queen of hearts" is not accepted, "Joker" (the first Joker
    not in ``taken``)."""
    text = typed.strip().lower().replace(" ", "")
    if text in ("joker", "jk", "🃏"):
        free = [joker for joker in JOKERS if joker not in set(taken)]
        return free[0] if free else JOKERS[0]
    if len(text) < 2 or text[-1] not in _SUIT_LETTERS:
        raise CardError(typed)
    rank = _RANK_WORDS.get(text[:-1], text[:-1].upper())
    if rank not in RANKS:
        raise CardError(typed)
    return _SUIT_LETTERS[text[-1]] * 13 + RANKS.index(rank) + 1


def read_cards(typed: str) -> tuple[int, ...]:
    """Several cards, by spaces or commas ("3♣ 9♥"), in the order drawn."""
    words = [word for word in typed.replace(",", " ").split() if word]
    cards: list[int] = []
    for word in words:
        cards.append(read_card(word, cards))
    if not cards:
        raise CardError(typed)
    return tuple(cards)


def deal(out: Iterable[int], rng: random.Random) -> int | None:
    """One card of those not in ``out`` (the cards out of the deck), chosen with ``rng.randint``; None when none
    is left."""
    gone = set(out)
    left = [card for card in DECK if card not in gone]
    return left[rng.randint(1, len(left)) - 1] if left else None
