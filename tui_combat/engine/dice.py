"""Dice notation: parse it, roll it with an injected RNG, or accept a result typed from real dice.

Grammar (case-insensitive, whitespace ignored, Unicode minus "−" read as "-", the Cyrillic "к" and "д" of Russian
and Ukrainian books as "d": "2к6+1", "1д8")::

    expr := ["+" | "-"] term (("+" | "-") term)*
    term := INT | [INT] "d" (INT | "%") [mod]
    mod  := ("kh" | "kl" | "k") INT | "adv" | "dis" | "!" [INT]

``d20adv`` / ``d20dis`` roll two dice and keep the higher / lower one; ``d10!`` is open-ended:
a die showing its maximum is rolled again and added, up to ``MAX_REROLLS`` times; ``d10!9`` rolls
again on 9 or more (Trudvang's "OR 9").

A result typed from real dice is the total, or the faces one by one ("10 4", "10+4", "10, 4"): an
open-ended die's chain then shows how it rolled on, and the expression's constants are added.
Rolling only ever calls ``rng.randint(1, sides)``, so a seeded or fake ``random.Random`` makes
every result reproducible.
"""

from __future__ import annotations

import random

import msgspec

from tui_combat.i18n import _, ngettext

MAX_LENGTH = 200
MAX_TERMS = 50
MAX_DICE = 1000
MIN_SIDES = 2
MAX_SIDES = 10_000
MAX_CONSTANT = 1_000_000
MAX_REROLLS = 100


_READ_AS = str.maketrans({"−": "-", "к": "d", "д": "d"})
"""What the parser reads as another character: the Unicode minus, and the die letters of the Russian and Ukrainian
books ("2к6", "1д8")."""


class DiceError(ValueError):
    """A dice expression or typed result that cannot be used; ``str()`` is a user-facing message."""


class Roll(msgspec.Struct, frozen=True, kw_only=True):
    expr: str  # normalised expression, e.g. "1d10", "4d6kh3+2", "d20adv"
    total: int
    faces: tuple[int, ...] = ()  # every die face rolled, in order; empty when typed in
    physical: bool = False  # True when the GM typed the result from real dice


class Constant(msgspec.Struct, frozen=True, kw_only=True, tag="const"):
    value: int  # signed


class Dice(msgspec.Struct, frozen=True, kw_only=True, tag="dice"):
    count: int  # dice rolled (2 for advantage / disadvantage)
    sides: int
    negative: bool = False
    keep: int = 0  # 0 keeps every die
    keep_lowest: bool = False
    explode: bool = False
    explode_at: int = 0  # an open-ended die rolls again on this face or more; 0: on its maximum
    advantage: bool = False  # written as "dMadv" / "dMdis": count=2, keep=1

    @property
    def kept(self) -> int:
        return self.keep or self.count

    @property
    def threshold(self) -> int:
        """The lowest face an open-ended die rolls again on."""
        return self.explode_at or self.sides

    def notation(self) -> str:
        if self.advantage:
            return f"d{self.sides}{'dis' if self.keep_lowest else 'adv'}"
        text = f"{self.count}d{self.sides}"
        if self.keep:
            text += f"k{'l' if self.keep_lowest else 'h'}{self.keep}"
        return text + (f"!{self.explode_at or ''}" if self.explode else "")


Term = Dice | Constant


class DiceExpr(msgspec.Struct, frozen=True, kw_only=True):
    text: str  # normalised notation
    terms: tuple[Term, ...]

    @property
    def min_total(self) -> int:
        return sum(_term_range(term)[0] for term in self.terms)

    @property
    def max_total(self) -> int | None:
        """Largest possible total, or None when an open-ended die makes it unbounded."""
        if any(isinstance(term, Dice) and term.explode for term in self.terms):
            return None
        return sum(_term_range(term)[1] for term in self.terms)

    def __str__(self) -> str:
        return self.text


def _term_range(term: Term) -> tuple[int, int]:
    if isinstance(term, Constant):
        return term.value, term.value
    low, high = term.kept, term.kept * term.sides
    return (-high, -low) if term.negative else (low, high)


def _shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _render(terms: list[Term]) -> str:
    parts: list[str] = []
    for term in terms:
        if isinstance(term, Constant):
            sign, body = ("-" if term.value < 0 else "+"), str(abs(term.value))
        else:
            sign, body = ("-" if term.negative else "+"), term.notation()
        parts.append(body if not parts and sign == "+" else sign + body)
    return "".join(parts)


class _Parser:
    """A tiny cursor-based scanner over the normalised text (lower case, no spaces)."""

    def __init__(self, text: str, shown: str) -> None:
        self.s = text
        self.pos = 0
        self.shown = shown  # the user's input, for messages

    def _eat(self, token: str) -> bool:
        if self.s.startswith(token, self.pos):
            self.pos += len(token)
            return True
        return False

    def _int(self) -> int | None:
        start = self.pos
        while self.pos < len(self.s) and "0" <= self.s[self.pos] <= "9":
            self.pos += 1
        return int(self.s[start : self.pos]) if self.pos > start else None

    def _before(self) -> str:
        text = self.s[: self.pos]
        return text if len(text) <= 20 else "…" + text[-19:]

    def _char(self) -> str:
        char = self.s[self.pos]
        return char if char.isprintable() else f"U+{ord(char):04X}"

    def parse(self) -> DiceExpr:
        terms: list[Term] = []
        negative = self._eat("-")
        if not negative:
            self._eat("+")
        while True:
            if len(terms) == MAX_TERMS:
                raise DiceError(
                    _('Cannot read "{expr}": too many terms (at most {limit}).', expr=self.shown, limit=MAX_TERMS)
                )
            terms.append(self._term(negative))
            if self.pos == len(self.s):
                return DiceExpr(text=_render(terms), terms=tuple(terms))
            if self.s[self.pos] not in "+-":
                raise DiceError(
                    _(
                        'Cannot read "{expr}": unexpected "{char}" after "{before}" (join terms with + or -).',
                        expr=self.shown,
                        char=self._char(),
                        before=self._before(),
                    )
                )
            negative = self.s[self.pos] == "-"
            self.pos += 1

    def _term(self, negative: bool) -> Term:
        count = self._int()
        if not self._eat("d"):
            if count is None:
                if self.pos == len(self.s):
                    raise DiceError(
                        _(
                            'Cannot read "{expr}": expected a number or a die (like 2d6) after "{before}".',
                            expr=self.shown,
                            before=self._before(),
                        )
                    )
                raise DiceError(
                    _(
                        'Cannot read "{expr}": expected a number or a die (like 2d6) but found "{char}".',
                        expr=self.shown,
                        char=self._char(),
                    )
                )
            if count > MAX_CONSTANT:
                raise DiceError(
                    _(
                        'Cannot read "{expr}": the number {value} is too large (at most {limit}).',
                        expr=self.shown,
                        value=_shorten(str(count), 12),
                        limit=MAX_CONSTANT,
                    )
                )
            return Constant(value=-count if negative else count)

        explicit_count = count is not None
        count = 1 if count is None else count
        sides = 100 if self._eat("%") else self._int()
        if sides is None:
            raise DiceError(
                _('Cannot read "{expr}": a die needs a number of sides after "d" (e.g. 2d6).', expr=self.shown)
            )
        if not 1 <= count <= MAX_DICE:
            raise DiceError(
                _(
                    'Cannot read "{expr}": the number of dice must be from 1 to {limit}, got {count}.',
                    expr=self.shown,
                    limit=MAX_DICE,
                    count=_shorten(str(count), 12),
                )
            )
        if not MIN_SIDES <= sides <= MAX_SIDES:
            raise DiceError(
                _(
                    'Cannot read "{expr}": a die must have from {low} to {high} sides, got d{sides}.',
                    expr=self.shown,
                    low=MIN_SIDES,
                    high=MAX_SIDES,
                    sides=_shorten(str(sides), 12),
                )
            )

        for word, lowest in (("adv", False), ("dis", True)):
            if self._eat(word):
                if explicit_count and count != 1:
                    raise DiceError(
                        ngettext(
                            'Cannot read "{expr}": "{word}" applies to a single die (e.g. d20{word}), not {n} die.',
                            'Cannot read "{expr}": "{word}" applies to a single die (e.g. d20{word}), not {n} dice.',
                            count,
                            expr=self.shown,
                            word=word,
                        )
                    )
                return Dice(count=2, sides=sides, negative=negative, keep=1, keep_lowest=lowest, advantage=True)
        if self._eat("!"):
            if negative:
                raise DiceError(_('Cannot read "{expr}": open-ended dice ("!") cannot be subtracted.', expr=self.shown))
            at = self._int()
            if at is not None and not 2 <= at <= sides:
                raise DiceError(
                    _(
                        'Cannot read "{expr}": an open-ended d{sides} rolls again on a face from 2 to '
                        "{sides}, not {at}.",
                        expr=self.shown,
                        sides=sides,
                        at=_shorten(str(at), 12),
                    )
                )
            return Dice(count=count, sides=sides, explode=True, explode_at=0 if at in (None, sides) else at)
        for word, lowest in (("kh", False), ("kl", True), ("k", False)):
            if self._eat(word):
                keep = self._int()
                if keep is None:
                    raise DiceError(
                        _(
                            'Cannot read "{expr}": "{word}" needs the number of dice to keep (e.g. 4d6{word}3).',
                            expr=self.shown,
                            word=word,
                        )
                    )
                if not 1 <= keep <= count:
                    raise DiceError(
                        ngettext(
                            'Cannot read "{expr}": you can keep from 1 to {n} of the {n} die, got {word}{keep}.',
                            'Cannot read "{expr}": you can keep from 1 to {n} of the {n} dice, got {word}{keep}.',
                            count,
                            expr=self.shown,
                            word=word,
                            keep=_shorten(str(keep), 12),
                        )
                    )
                return Dice(count=count, sides=sides, negative=negative, keep=keep, keep_lowest=lowest)
        return Dice(count=count, sides=sides, negative=negative)


def parse(expr: str) -> DiceExpr:
    """Parse dice notation such as ``"2d6+1d4-1"``, ``"4d6kh3"``, ``"d20adv"`` or ``"d10!"``."""
    shown = _shorten("".join(c if c.isprintable() else " " for c in expr.strip()))
    if len(expr) > MAX_LENGTH:
        raise DiceError(
            _('The dice expression "{expr}" is too long (at most {limit} characters).', expr=shown, limit=MAX_LENGTH)
        )
    text = "".join(expr.split()).lower().translate(_READ_AS)
    if not text:
        raise DiceError(_("The dice expression is empty: type something like 1d20 or 2d6+3."))
    return _Parser(text, shown).parse()


def with_bonus(expr: str, bonus: int) -> str:
    """``expr`` with ``bonus`` added and its constants folded into one: ("1d4+1", 4) → "1d4+5"."""
    parsed = parse(expr)
    dice: list[Term] = [term for term in parsed.terms if isinstance(term, Dice)]
    constant = sum(term.value for term in parsed.terms if isinstance(term, Constant)) + bonus
    return _render([*dice, *([Constant(value=constant)] if constant else [])]) or "0"


def _as_expr(expr: str | DiceExpr) -> DiceExpr:
    return parse(expr) if isinstance(expr, str) else expr


def _roll_die(term: Dice, rng: random.Random) -> list[int]:
    """One die's faces: a single face, or the whole chain of an open-ended die."""
    chain = [rng.randint(1, term.sides)]
    while term.explode and chain[-1] >= term.threshold and len(chain) <= MAX_REROLLS:
        chain.append(rng.randint(1, term.sides))
    return chain


def _kept_indices(values: list[int], term: Dice) -> set[int]:
    """Indices of the dice that count; on ties the earlier die is kept."""
    order = sorted(range(len(values)), key=values.__getitem__, reverse=not term.keep_lowest)
    return set(order[: term.kept])


def roll(expr: str | DiceExpr, rng: random.Random) -> Roll:
    """Roll ``expr`` using only ``rng.randint``; raises DiceError for bad notation."""
    parsed = _as_expr(expr)
    faces: list[int] = []
    total = 0
    for term in parsed.terms:
        if isinstance(term, Constant):
            total += term.value
            continue
        values: list[int] = []
        for _die in range(term.count):
            chain = _roll_die(term, rng)
            faces.extend(chain)
            values.append(sum(chain))
        kept = sum(values[i] for i in _kept_indices(values, term))
        total += -kept if term.negative else kept
    return Roll(expr=parsed.text, total=total, faces=tuple(faces))


def _typed_pair(parsed: DiceExpr, text: str) -> Roll | None:
    """``d20adv`` / ``d20dis`` typed as the two faces ("15 7"): the kept one is the total, both are in the
    roll; None when the expression is not one such die or the text not two numbers."""
    words = text.replace(",", " ").replace(";", " ").replace("/", " ").split()
    if (
        len(words) != 2
        or not all(len(w) <= 3 and all("0" <= c <= "9" for c in w) for w in words)
        or len(parsed.terms) != 1
    ):
        return None
    term = parsed.terms[0]
    if not isinstance(term, Dice) or not term.advantage:
        return None
    faces = (int(words[0]), int(words[1]))
    if not all(1 <= face <= term.sides for face in faces):
        raise DiceError(
            _(
                'Each die of {expr} shows 1 to {sides}, got "{text}".',
                expr=parsed.text,
                sides=term.sides,
                text=_shorten(text.strip(), 20),
            )
        )
    return Roll(expr=parsed.text, total=min(faces) if term.keep_lowest else max(faces), faces=faces, physical=True)


def physical(expr: str | DiceExpr, text: str) -> Roll:
    """A result the GM rolled on real dice and typed in: the total, or the faces one by one ("10 4"); a die
    with advantage or disadvantage also takes its two faces ("15 7"). DiceError if it is not a possible
    result."""
    parsed = _as_expr(expr)
    pair = _typed_pair(parsed, text)
    if pair is not None:
        return pair
    cleaned = text.strip().replace("−", "-")
    faces = _faces(cleaned)
    if faces is not None and _group_faces(parsed, faces) is not None:
        return _typed_faces(parsed, faces)
    low, high = parsed.min_total, parsed.max_total
    digits = cleaned[1:] if cleaned[:1] in ("+", "-") else cleaned
    value: int | None = None
    if digits and len(digits) <= 18 and all("0" <= c <= "9" for c in digits):
        value = -int(digits) if cleaned[0] == "-" else int(digits)
    if value is None or value < low or (high is not None and value > high):
        got = _shorten(text.strip(), 20)
        if high is None:
            raise DiceError(
                _('Expected a number of at least {low} for {expr}, got "{text}".', low=low, expr=parsed.text, text=got)
            )
        raise DiceError(
            _(
                'Expected a number from {low} to {high} for {expr}, got "{text}".',
                low=low,
                high=high,
                expr=parsed.text,
                text=got,
            )
        )
    gap = _open_gap(parsed, value)
    if gap is not None:
        raise DiceError(
            _(
                "{expr} cannot total {value}: a {face} on the die always rolls again "
                "(type the dice one by one, like {example}).",
                expr=parsed.text,
                value=value,
                face=gap,
                example=f"{gap} 1",
            )
        )
    return Roll(expr=parsed.text, total=value, physical=True)


def _open_gap(parsed: DiceExpr, value: int) -> int | None:
    """The face that makes ``value`` impossible for an expression with one open-ended die, or None.

    One open-ended die never stops on a face it rolls again on: with ``d10!`` no total is a multiple of
    10, with ``d10!9`` (rolls again on 9 or 10) the total is never 9. Anything more (two open-ended
    dice, or another die beside it) can make every total from its minimum up."""
    dice = [term for term in parsed.terms if isinstance(term, Dice)]
    if len(dice) != 1 or not dice[0].explode or dice[0].count != 1:
        return None
    die = dice[0]
    chain = value - sum(term.value for term in parsed.terms if isinstance(term, Constant))
    if die.threshold == die.sides:
        return die.sides if chain % die.sides == 0 else None
    return die.threshold if chain == die.threshold else None


def _faces(text: str) -> tuple[int, ...] | None:
    """Several faces typed one by one ("10 4", "10+4", "10, 4"), or None when it is not that."""
    parts = text.replace(",", " ").replace("+", " ").split()
    if not 1 < len(parts) <= MAX_DICE or text[:1] in ("+", "-") or not all(p.isdigit() and len(p) <= 6 for p in parts):
        return None
    return tuple(int(part) for part in parts)


def _typed_faces(parsed: DiceExpr, faces: tuple[int, ...]) -> Roll:
    """Faces typed one by one, in the order of the expression's dice (an open-ended die's chain in a row)."""
    groups = _group_faces(parsed, faces)
    assert groups is not None  # the caller checked that they fit
    total = 0
    for term, chains in zip(parsed.terms, groups):
        if isinstance(term, Constant):
            total += term.value
            continue
        for chain in chains:
            bad = next((face for face in chain if not 1 <= face <= term.sides), None)
            if bad is not None:
                raise DiceError(_("A d{sides} shows 1 to {sides}, not {face}.", sides=term.sides, face=bad))
            if term.explode and chain[-1] >= term.threshold and len(chain) <= MAX_REROLLS:
                raise DiceError(_("The {face} rolls again: type the next die too.", face=chain[-1]))
        values = [sum(chain) for chain in chains]
        kept = sum(values[i] for i in _kept_indices(values, term))
        total += -kept if term.negative else kept
    return Roll(expr=parsed.text, total=total, faces=faces, physical=True)


def _group_faces(parsed: DiceExpr, faces: tuple[int, ...]) -> list[list[list[int]]] | None:
    """Split a flat face list back into per-term, per-die chains (None if they do not fit)."""
    groups: list[list[list[int]]] = []
    pos = 0
    for term in parsed.terms:
        chains: list[list[int]] = []
        if isinstance(term, Dice):
            for _die in range(term.count):
                if pos >= len(faces):
                    return None
                chain = [faces[pos]]
                pos += 1
                while term.explode and chain[-1] >= term.threshold and len(chain) <= MAX_REROLLS and pos < len(faces):
                    chain.append(faces[pos])
                    pos += 1
                chains.append(chain)
        groups.append(chains)
    return groups if pos == len(faces) else None


def faces_text(r: Roll) -> str | None:
    """The faces of a roll term by term, dropped dice in parentheses ("[6, 5, 3, (1)] + 2"); None when the
    faces do not fit the expression."""
    try:
        parsed = parse(r.expr)
    except DiceError:
        return None
    groups = _group_faces(parsed, r.faces)
    if groups is None:
        return None
    body = ""
    for term, chains in zip(parsed.terms, groups):
        if isinstance(term, Constant):
            negative, shown = term.value < 0, str(abs(term.value))
        else:
            kept = _kept_indices([sum(chain) for chain in chains], term)
            dice = ["+".join(map(str, chain)) for chain in chains]
            shown = "[" + ", ".join(d if i in kept else f"({d})" for i, d in enumerate(dice)) + "]"
            negative = term.negative
        if not body:
            body = ("-" if negative else "") + shown
        else:
            body += (" - " if negative else " + ") + shown
    return body


def format_roll(r: Roll) -> str:
    """One log line: ``"4d6kh3+2: [6, 5, 3, (1)] + 2 = 16"``; dropped dice in parentheses. A roll typed from
    real dice shows its faces when the GM typed them ("d20adv (typed): [15, (7)] = 15")."""
    if r.physical and not r.faces:
        return _("{expr} (typed): {total}", expr=r.expr, total=r.total)
    body = faces_text(r)
    if body is None:
        return f"{r.expr}: [{', '.join(map(str, r.faces))}] = {r.total}"
    if r.physical:
        return _("{expr} (typed): {faces} = {total}", expr=r.expr, faces=body, total=r.total)
    return f"{r.expr}: {body} = {r.total}"
