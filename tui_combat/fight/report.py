"""A fight's report: what happened, round by round, as Markdown, a web page or JSON. No Textual here.

A report is built from a fight's history (its first state and every action done since), replayed so that
each round's turn order is the one that stood at the end of that round (delays, newcomers and tie-breaks
included), and from its log, which is data: every entry keeps its message id, its parameters, its dice with
their faces and its facts. The summary (damage and healing by combatant; who fell, fled or surrendered;
spells lost; morale checks) is read from those entries.

A public report shows only what the players' screen would (:mod:`tui_combat.engine.public`): no secret
entry, no exact hit points of anyone outside the party, an order rolled in secret without its values, no
notes.

Text is in the active language (the JSON keeps the message ids and parameters beside it).
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Literal, NamedTuple

import msgspec

from tui_combat.engine.actions import Action
from tui_combat.engine.apply import apply_logged
from tui_combat.engine.area import AREA_LINES
from tui_combat.engine.dice import Roll, format_roll
from tui_combat.engine.log import Fact, LogEntry, Msg, Param, render, render_param
from tui_combat.engine.log_window import logged_since
from tui_combat.engine.model import State
from tui_combat.engine.public import HealthScale, health_word, public_entries, public_view
from tui_combat.engine.registry import get
from tui_combat.engine.text import harmless, json_harmless
from tui_combat.fight.session import fight_progress
from tui_combat.i18n import _, language
from tui_combat.saves.locations import slug

if TYPE_CHECKING:
    from tui_combat.fight.store import Store

__all__ = [
    "FORMATS",
    "SUFFIXES",
    "Format",
    "REPORTS_FOLDER",
    "Report",
    "ReportCombatant",
    "ReportEntry",
    "ReportError",
    "ReportRoll",
    "ReportRound",
    "ReportSlot",
    "Tally",
    "default_report_path",
    "fight_report",
    "format_for",
    "format_named",
    "html_page",
    "json_text",
    "markdown",
    "rendered",
    "store_report",
    "write_report",
]

Format = Literal["md", "html", "json"]
FORMATS: tuple[Format, ...] = ("md", "html", "json")
SUFFIXES: dict[Format, str] = {"md": ".md", "html": ".html", "json": ".json"}
REPORTS_FOLDER = "reports"
"""In the data folder: where the app offers to write reports."""
DICE = "🎲"
SECRET_MARK = "🔒"

# The engine's messages (tui_combat/engine/apply.py and the players' versions in engine/public.py) and the
# rulesets' that the summary gathers. Each is matched by its message id, which never changes with the language.
DAMAGE_MESSAGES = (
    frozenset(
        {
            "{name} takes {amount} damage{rolled}: {hp}/{max} HP.",
            "{name} takes {amount} damage{rolled}: {hp}/{max} {health}.",
            "{name} takes {amount} damage{rolled}.",
        }
    )
    | AREA_LINES
)
HEALING_MESSAGES = frozenset(
    {"{name} heals {amount}: {hp}/{max} HP.", "{name} heals {amount}: {hp}/{max} {health}.", "{name} heals {amount}."}
)
Kind = Literal["roll", "damage", "healing", "down", "fled", "surrendered", "back", "spell_lost", "morale"]
STATUS_MESSAGES: dict[str, Kind] = {
    "{name} is down.": "down",
    "{name} has fled.": "fled",
    "{name} surrenders.": "surrendered",
    "{name} is back in the fight.": "back",
}
SPELL_LOST_MESSAGES = frozenset({"{name} is hit before casting: {spell} is lost."})
"""AD&D 2e and Player's Option; Old-School Essentials marks a disrupted spell with the fact ``disrupted``."""
MORALE_FACTS = ("morale", "morale_due")
"""Old-School Essentials: a morale roll, or a check due; Player's Option's end of round asks about morale
with the fact ``part`` = ``morale``."""


class ReportError(Exception):
    """A report that cannot be written; ``str()`` is for the GM."""


# -- the report as data ------------------------------------------------------------------------------------
class ReportRoll(msgspec.Struct, frozen=True, kw_only=True):
    dice: str
    total: int
    faces: tuple[int, ...] = ()
    typed: bool = False
    """Typed in from real dice: the total only, no faces."""
    text: str
    """As the log shows a roll: "1d10: [7] = 7"."""


class ReportEntry(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    text: str
    """In the active language."""
    message: str
    """The message id (the English text with its placeholders)."""
    params: dict[str, Param]
    rolls: tuple[ReportRoll, ...] = ()
    facts: dict[str, Fact] = msgspec.field(default_factory=dict)
    kinds: tuple[Kind, ...] = ()
    """What the summary gathers it under."""
    secret: bool = False
    """Only in the GM's report: the players never saw it."""


class ReportSlot(msgspec.Struct, frozen=True, kw_only=True):
    label: str
    """What the GM called out ("7", "countdown 15"); "" when the order was rolled in secret."""
    names: tuple[str, ...]
    waiting: bool = False
    """Public report of a round under way, its order rolled in secret: those yet to act, in no order."""


class ReportRound(msgspec.Struct, frozen=True, kw_only=True):
    number: int
    """0: before the fight (set-up, surprise, distance)."""
    order: tuple[ReportSlot, ...] = ()
    entries: tuple[ReportEntry, ...] = ()


class ReportCombatant(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    side: str
    party: bool
    status: str
    health: str
    hp: int | None = None
    """None in a public report for anyone outside the party."""
    max_hp: int | None = None


class Tally(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    damage: int = 0
    """What the hits took off his health (the damage dealt, or what got past the armour where the book says so)."""
    healing: int = 0


class Report(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    ruleset: str
    """The ruleset's name, in the active language."""
    language: str
    public: bool
    phase: str
    round: int
    progress: str
    """Where the fight stands: "round 3", "set-up" …"""
    combatants: tuple[ReportCombatant, ...]
    rounds: tuple[ReportRound, ...]
    damage: tuple[Tally, ...] = ()
    fallen: tuple[ReportEntry, ...] = ()
    """Who fell, fled, surrendered, or came back."""
    spells_lost: tuple[ReportEntry, ...] = ()
    morale: tuple[ReportEntry, ...] = ()
    health: str = "HP"
    """The rules' word for health, in the active language ("HP"; Trudvang "BP")."""

    def every_entry(self) -> list[ReportEntry]:
        return [entry for fight_round in self.rounds for entry in fight_round.entries]


# -- building it ---------------------------------------------------------------------------------------------
class _Replayed(NamedTuple):
    rounds: dict[int, State]
    """Each round's last state, by round number."""
    final: State
    """The state the replay reached."""
    log: list[LogEntry]
    """Every entry of the log up to there (a state holds only the newest)."""
    whole: bool
    """Whether every action replayed."""


def _replayed_rounds(base: State, actions: Sequence[Action]) -> _Replayed:
    """Replays ``actions`` on ``base`` once: each round's last state, the state they lead to and the whole log. A
    history that no longer replays (a ruleset changed since) gives the rounds and the log it reached."""
    last: dict[int, State] = {}
    state = base
    logged = base.log_entries()
    try:
        for action in actions:
            state, entries = apply_logged(state, action)
            logged += entries
            if state.phase in ("round", "over") and state.round > 0:
                last[state.round] = state
    except Exception:  # the rules are plugins: whatever they raise, the report goes on with what is known
        return _Replayed(last, state, logged, whole=False)
    return _Replayed(last, state, logged, whole=True)


def _whole_log(replayed: _Replayed, base: State, final: State) -> list[LogEntry]:
    """The fight's log as far as it is known: the replayed one, and where the replay stopped short, the entries of
    ``final`` after it (all ``final`` holds when nothing replayed)."""
    if replayed.whole:
        return replayed.log
    known = base.log_start + len(replayed.log)
    return replayed.log + logged_since(final, known) if known >= final.log_start else final.log_entries()


def _kinds(entry: LogEntry) -> tuple[Kind, ...]:
    kinds: list[Kind] = []
    if entry.rolls:
        kinds.append("roll")
    message = entry.msg.id
    if message in DAMAGE_MESSAGES:
        kinds.append("damage")
    elif message in HEALING_MESSAGES:
        kinds.append("healing")
    elif message in STATUS_MESSAGES:
        kinds.append(STATUS_MESSAGES[message])
    if message in SPELL_LOST_MESSAGES or "disrupted" in entry.facts:
        kinds.append("spell_lost")
    if any(fact in entry.facts for fact in MORALE_FACTS) or entry.facts.get("part") == "morale":
        kinds.append("morale")
    return tuple(kinds)


def _roll(roll: Roll) -> ReportRoll:
    return ReportRoll(dice=roll.expr, total=roll.total, faces=roll.faces, typed=roll.physical, text=format_roll(roll))


def _plain(value: Param) -> Param:
    """A parameter as a reader of the report takes it: a name, a value of the GM's or a text typed as the value
    itself (a message that is only that), any other message as it is."""
    if isinstance(value, Msg) and value.id in ("{name}", "{value}", "{text}") and len(value.params) == 1:
        return _plain(next(iter(value.params.values())))
    if isinstance(value, list):
        return [
            item
            if isinstance(item, (str, int))
            else plain
            if isinstance(plain := _plain(item), (str, int, Msg))
            else render_param(item)
            for item in value
        ]
    return value


def _entry(entry: LogEntry, *, public: bool) -> ReportEntry:
    return ReportEntry(
        round=entry.round,
        text=render(entry.msg),
        message=entry.msg.id,
        params={key: _plain(value) for key, value in entry.msg.params.items()},
        rolls=tuple(_roll(roll) for roll in entry.rolls),
        facts=dict(entry.facts),
        kinds=_kinds(entry),
        secret=entry.secret and not public,
    )


def _order(state: State, public: bool, scale: HealthScale) -> tuple[ReportSlot, ...]:
    if public:
        view = public_view(state, scale, log_lines=1)
        slots = tuple(
            ReportSlot(
                label=group.label, names=tuple(c.name for c in group.combatants), waiting=group.kind == "waiting"
            )
            for group in view.groups
            if group.kind in ("slot", "waiting") and group.combatants
        )
    else:
        names = state.names()
        slots = tuple(
            ReportSlot(label=render(slot.label), names=tuple(names[c] for c in slot.combatants if c in names))
            for slot in state.order
        )
    return slots + _out_of_order(state, public) if state.order else slots


def _out_of_order(state: State, public: bool) -> tuple[ReportSlot, ...]:
    """Those still in the fight who had no turn in the round's order (one who gave up his turn, a surprised
    one), under the ruleset's word for why ("skipped"), or "not in the order"."""
    ruleset = get(state.ruleset)
    ordered = {cid for slot in state.order for cid in slot.combatants}
    by_word: dict[str, list[str]] = {}
    for combatant in state.combatants:
        if combatant.status != "active" or combatant.id in ordered or (public and combatant.hidden):
            continue
        word = ruleset.turn_marker(state, combatant.id, None) or _("not in the order")
        by_word.setdefault(word, []).append(combatant.name)
    return tuple(ReportSlot(label=word, names=tuple(names)) for word, names in by_word.items())


def _combatants(state: State, public: bool, scale: HealthScale) -> tuple[ReportCombatant, ...]:
    ruleset = get(state.ruleset)
    party = {side.id for side in state.sides if side.is_party}
    sides = {side.id: side.name for side in state.sides}
    listed = []
    for side in state.sides:
        for combatant in (c for c in state.combatants if c.side == side.id and not (public and c.hidden)):
            exact = not public or combatant.side in party
            listed.append(
                ReportCombatant(
                    name=combatant.name,
                    side=sides[combatant.side],
                    party=combatant.side in party,
                    status=combatant.status,
                    health=health_word(combatant, scale, ruleset.condition_word(state, combatant.id)),
                    hp=combatant.hp if exact else None,
                    max_hp=combatant.max_hp if exact else None,
                )
            )
    return tuple(listed)


def _tallies(entries: list[ReportEntry]) -> tuple[Tally, ...]:
    damage: dict[str, int] = {}
    healing: dict[str, int] = {}
    for entry in entries:
        named = entry.params.get("name")
        if not isinstance(named, (str, Msg)):
            continue
        name = render_param(named)
        lost = entry.facts.get("lost", entry.facts.get("damage"))  # what a hit took off (Trudvang: past the armour)
        if "damage" in entry.kinds and isinstance(lost, int):
            damage[name] = damage.get(name, 0) + lost
            healing.setdefault(name, 0)
        elif "healing" in entry.kinds and isinstance(entry.facts.get("heal"), int):
            healing[name] = healing.get(name, 0) + int(entry.facts["heal"])
            damage.setdefault(name, 0)
    return tuple(Tally(name=name, damage=damage[name], healing=healing[name]) for name in damage)


def fight_report(
    base: State,
    actions: Sequence[Action],
    *,
    final: State | None = None,
    public: bool = False,
    scale: HealthScale | None = None,
) -> Report:
    """The report of the fight that ``actions`` made of ``base`` (``final``: the state they lead to, when it is
    known already). ``public``: only what the players may see; ``scale``: the words for their health."""
    scale = scale or HealthScale()
    replayed = _replayed_rounds(base, actions)
    rounds_replayed = replayed.rounds
    final = replayed.final if final is None else final
    if final.phase in ("round", "over") and final.round > 0:
        rounds_replayed[final.round] = final
    whole = _whole_log(replayed, base, final)
    logged = public_entries(final, whole) if public else whole
    entries = [_entry(entry, public=public) for entry in logged]
    by_round: dict[int, list[ReportEntry]] = {}
    for entry in entries:
        by_round.setdefault(entry.round, []).append(entry)
    numbers = sorted(set(by_round) | set(rounds_replayed))
    rounds = tuple(
        ReportRound(
            number=number,
            entries=tuple(by_round.get(number, ())),
            order=_order(rounds_replayed[number], public, scale) if number in rounds_replayed else (),
        )
        for number in numbers
    )
    return Report(
        name=final.name,
        ruleset=_(get(final.ruleset).name),
        health=_(get(final.ruleset).health_label),
        language=language(),
        public=public,
        phase=final.phase,
        round=final.round,
        progress=fight_progress(final.phase, final.round),
        combatants=_combatants(final, public, scale),
        rounds=rounds,
        damage=_tallies(entries),
        fallen=tuple(e for e in entries if {"down", "fled", "surrendered", "back"} & set(e.kinds)),
        spells_lost=tuple(e for e in entries if "spell_lost" in e.kinds),
        morale=tuple(e for e in entries if "morale" in e.kinds),
    )


def store_report(store: Store, *, public: bool = False, scale: HealthScale | None = None) -> Report:
    """The report of the session ``store`` holds (its whole saved history is read: not for every key press).
    When that history cannot be read, the report still has the log the state holds (its newest entries), and
    the order of the present round."""
    from tui_combat.saves.errors import SaveError

    try:
        base, actions = store.base, store.done_actions()
    except (SaveError, LookupError, OSError):
        base, actions = store.state, []
    return fight_report(base, actions, final=store.state, public=public, scale=scale)


# -- text ----------------------------------------------------------------------------------------------------
def _round_title(number: int) -> str:
    return _("Before the fight") if number == 0 else _("Round {n}", n=number)


def _health(combatant: ReportCombatant, word: str) -> str:
    """ "30/38 HP, active" in the rules' ``word`` for health (or the health word, for those whose HP the players
    may not know)."""
    if combatant.hp is None:
        return combatant.health
    return _(
        "{hp}/{max} {health}, {status}", hp=combatant.hp, max=combatant.max_hp, health=word, status=_(combatant.status)
    )


def _rolls_text(entry: ReportEntry) -> str:
    """The entry's dice with their faces, those its text does not show already ("d20 15" shows no faces)."""
    return "; ".join(roll.text for roll in entry.rolls if roll.text not in entry.text)


def _slot_text(slot: ReportSlot) -> tuple[str, str]:
    """(label, names) of a slot as the report shows it."""
    label = _("yet to act") if slot.waiting else slot.label
    return label, ", ".join(slot.names)


def _one_line(text: str) -> str:
    return " ".join(text.split())


# -- Markdown ------------------------------------------------------------------------------------------------
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_<>|~#])")
_MARKDOWN_LINK = re.compile(r"\][(\[:]")


def _md(text: str) -> str:
    """Text with nothing Markdown would read as markup, on one line. Square brackets are left as they are
    ("1d10: [7] = 7") unless they could make a link."""
    text = _MARKDOWN_SPECIAL.sub(r"\\\1", _one_line(harmless(text)))
    return re.sub(r"([\[\]])", r"\\\1", text) if _MARKDOWN_LINK.search(text) else text


def _md_entry(entry: ReportEntry) -> str:
    line = ("🔒 " if entry.secret else "") + _md(entry.text)
    dice = _rolls_text(entry)
    if dice:
        line += f" · {DICE} `{_one_line(harmless(dice)).replace('`', '')}`"
    return f"- {line}"


def markdown(report: Report) -> str:
    """The report as Markdown: a heading per round, its turn order and what happened in lists."""
    lines = [f"# {_md(report.name)}", "", _md(f"{report.ruleset} · {report.progress}")]
    if report.public:
        lines += ["", _md(_("What the players saw: nothing secret is in this report."))]
    elif any(entry.secret for entry in report.every_entry()):
        lines += ["", _md(_("{mark} marks what only the GM saw.", mark=SECRET_MARK))]
    lines += ["", f"## {_md(_('Combatants'))}"]
    side = None
    for combatant in report.combatants:
        if combatant.side != side:
            side = combatant.side
            lines += ["", f"**{_md(side)}**", ""]
        lines.append(f"- {_md(combatant.name)}: {_md(_health(combatant, report.health))}")
    for fight_round in report.rounds:
        lines += ["", f"## {_md(_round_title(fight_round.number))}"]
        if fight_round.order:
            lines += ["", f"**{_md(_('Turn order'))}**", ""]
            for position, slot in enumerate(fight_round.order, start=1):
                label, names = _slot_text(slot)
                lines.append(f"{position}. **{_md(label)}**: {_md(names)}" if label else f"{position}. {_md(names)}")
        lines.append("")
        lines += [_md_entry(entry) for entry in fight_round.entries] or [f"*{_md(_('Nothing was logged.'))}*"]
    lines += _md_summary(report)
    return "\n".join(lines) + "\n"


def _md_summary(report: Report) -> list[str]:
    lines = ["", f"## {_md(_('Summary'))}"]
    if report.damage:
        header = (_("Combatant"), _("Damage taken"), _("Healed"))
        lines += [
            "",
            f"### {_md(_('Damage and healing'))}",
            "",
            "| " + " | ".join(_md(h) for h in header) + " |",
            "|---|---:|---:|",
        ]
        lines += [f"| {_md(tally.name)} | {tally.damage} | {tally.healing} |" for tally in report.damage]
    for title, entries in _summary_lists(report):
        lines += ["", f"### {_md(title)}", ""]
        lines += [f"- {_md(_round_title(entry.round))}: {_md(entry.text)}" for entry in entries]
    if not report.damage and not any(entries for _title, entries in _summary_lists(report)):
        lines += ["", f"*{_md(_('No damage, healing, falls, lost spells or morale checks yet.'))}*"]
    return lines


def _summary_lists(report: Report) -> list[tuple[str, tuple[ReportEntry, ...]]]:
    return [
        (title, entries)
        for title, entries in (
            (_("Fell, fled, surrendered or came back"), report.fallen),
            (_("Spells lost"), report.spells_lost),
            (_("Morale checks"), report.morale),
        )
        if entries
    ]


# -- HTML ----------------------------------------------------------------------------------------------------
_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 50rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.45;
       color: #1d1d1d; background: #fdfdfb; }
h1 { margin-bottom: 0.2rem; } h2 { border-bottom: 1px solid #ccc; margin-top: 2rem; }
.meta { color: #555; } .dice { color: #555; font-family: ui-monospace, monospace; font-size: 0.9em; }
.secret { background: #fff3d6; } .empty { color: #777; font-style: italic; }
table { border-collapse: collapse; } td, th { border: 1px solid #ccc; padding: 0.2rem 0.6rem; }
td.number { text-align: right; }
@media (prefers-color-scheme: dark) { body { color: #e6e6e6; background: #1b1b1b; } .meta, .dice { color: #aaa; }
  .secret { background: #3d3320; } }
"""


def _h(text: str) -> str:
    return html.escape(harmless(text), quote=True)


def _html_entry(entry: ReportEntry) -> str:
    parts = [_h(entry.text)]
    dice = _rolls_text(entry)
    if dice:
        parts.append(f' <span class="dice">{DICE} {_h(dice)}</span>')
    if entry.secret:
        return f'<li class="secret">{SECRET_MARK} {"".join(parts)}</li>'
    return f"<li>{''.join(parts)}</li>"


def html_page(report: Report) -> str:
    """The report as a page of its own: every text escaped, nothing loaded from anywhere."""
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{_h(report.language)}">',
        "<head>",
        '<meta charset="utf-8">',
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_h(report.name)}</title>",
        f"<style>{_STYLE}</style>",
        "</head>",
        "<body>",
        f"<h1>{_h(report.name)}</h1>",
        f'<p class="meta">{_h(report.ruleset)} · {_h(report.progress)}</p>',
    ]
    if report.public:
        out.append(f'<p class="meta">{_h(_("What the players saw: nothing secret is in this report."))}</p>')
    elif any(entry.secret for entry in report.every_entry()):
        out.append(f'<p class="meta">{_h(_("{mark} marks what only the GM saw.", mark=SECRET_MARK))}</p>')
    out += [
        f"<h2>{_h(_('Combatants'))}</h2>",
        "<table>",
        f"<tr><th>{_h(_('Side'))}</th><th>{_h(_('Combatant'))}</th><th>{_h(_('Health'))}</th></tr>",
    ]
    out += [
        f"<tr><td>{_h(c.side)}</td><td>{_h(c.name)}</td><td>{_h(_health(c, report.health))}</td></tr>"
        for c in report.combatants
    ]
    out.append("</table>")
    for fight_round in report.rounds:
        out += ["<section>", f"<h2>{_h(_round_title(fight_round.number))}</h2>"]
        if fight_round.order:
            out += [f"<h3>{_h(_('Turn order'))}</h3>", "<ol>"]
            for slot in fight_round.order:
                label, names = _slot_text(slot)
                out.append(f"<li><b>{_h(label)}</b>: {_h(names)}</li>" if label else f"<li>{_h(names)}</li>")
            out.append("</ol>")
        if fight_round.entries:
            out += ["<ul>", *(_html_entry(entry) for entry in fight_round.entries), "</ul>"]
        else:
            out.append(f'<p class="empty">{_h(_("Nothing was logged."))}</p>')
        out.append("</section>")
    out += _html_summary(report)
    out += ["</body>", "</html>"]
    return "\n".join(out) + "\n"


def _html_summary(report: Report) -> list[str]:
    out = [f"<h2>{_h(_('Summary'))}</h2>"]
    if report.damage:
        out += [
            f"<h3>{_h(_('Damage and healing'))}</h3>",
            "<table>",
            f"<tr><th>{_h(_('Combatant'))}</th><th>{_h(_('Damage taken'))}</th><th>{_h(_('Healed'))}</th></tr>",
        ]
        out += [
            f'<tr><td>{_h(t.name)}</td><td class="number">{t.damage}</td><td class="number">{t.healing}</td></tr>'
            for t in report.damage
        ]
        out.append("</table>")
    lists = _summary_lists(report)
    for title, entries in lists:
        out += [f"<h3>{_h(title)}</h3>", "<ul>"]
        out += [f"<li>{_h(_round_title(entry.round))}: {_h(entry.text)}</li>" for entry in entries]
        out.append("</ul>")
    if not report.damage and not lists:
        out.append(f'<p class="empty">{_h(_("No damage, healing, falls, lost spells or morale checks yet."))}</p>')
    return out


# -- JSON ----------------------------------------------------------------------------------------------------
def json_text(report: Report) -> str:
    """The report as JSON: rounds → entries, each with its text in the active language, its message id and
    parameters, its dice with their faces and its facts."""
    data = {"format": "tui-combat report", "version": 1, **msgspec.to_builtins(report)}
    return json_harmless(msgspec.json.format(msgspec.json.encode(data), indent=2).decode()) + "\n"


def rendered(report: Report, form: Format) -> str:
    if form == "html":
        return html_page(report)
    if form == "json":
        return json_text(report)
    return markdown(report)


# -- files ---------------------------------------------------------------------------------------------------
def format_named(name: object) -> Format:
    """The format called ``name`` (md, html, json); md for anything else."""
    return next((form for form in FORMATS if form == name), "md")


def format_for(path: Path | None, default: Format = "md") -> Format:
    """The format a file's name asks for (.md, .html, .json), else ``default``."""
    suffix = path.suffix.lower() if path is not None else ""
    if suffix in (".html", ".htm"):
        return "html"
    if suffix == ".json":
        return "json"
    if suffix in (".md", ".markdown"):
        return "md"
    return default


def default_report_path(data_root: Path, name: str, form: Format, *, public: bool = False) -> Path:
    """``<data folder>/reports/<session name><.ext>`` (``<session name>-players<.ext>`` for the players' report,
    so that it never replaces the GM's)."""
    return data_root / REPORTS_FOLDER / f"{slug(name) or 'fight'}{'-players' if public else ''}{SUFFIXES[form]}"


def write_report(path: Path, text: str, *, make_folder: bool = False, overwrite: bool = True) -> Path:
    """Write ``text`` to ``path`` whole or not at all (a temporary file beside it, then renamed over it);
    ``make_folder``: create the folder it goes in when missing; ``overwrite``: replace a file already there
    (else it is refused). The report is private (0600: the GM's holds secrets), and a symbolic link is never
    written through nor replaced. Returns the absolute path written; raises :class:`ReportError` with a
    message for the GM."""
    path = Path(os.path.abspath(path.expanduser()))
    folder = path.parent
    if path.is_symlink():
        raise ReportError(
            _("Cannot write the report to {path}: it is a symbolic link; give the file itself.", path=path)
        )
    if path.is_dir():
        raise ReportError(_("Cannot write the report to {path}: it is a folder.", path=path))
    if not overwrite and os.path.lexists(path):
        raise ReportError(
            _("Cannot write the report to {path}: the file exists already (--force replaces it).", path=path)
        )
    try:
        if make_folder:
            from tui_combat.settings.config import make_private_folder

            make_private_folder(folder)
        elif not folder.is_dir():
            raise ReportError(
                _("Cannot write the report to {path}: the folder {folder} does not exist.", path=path, folder=folder)
            )
    except OSError as error:
        raise ReportError(
            _("Cannot write the report to {path}: {error}", path=path, error=error.strerror or error)
        ) from None
    temporary = folder / f".{path.name}.{os.urandom(6).hex()}.tmp"
    try:
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            os.fchmod(descriptor, 0o600)
            with os.fdopen(descriptor, "wb") as file:
                file.write(text.encode("utf-8"))
                file.flush()
                os.fsync(file.fileno())
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
        try:
            if overwrite:
                os.replace(temporary, path)
            else:  # the link is the check: a file made meanwhile is not replaced either
                try:
                    os.link(temporary, path, follow_symlinks=False)
                except FileExistsError:
                    raise ReportError(
                        _(
                            "Cannot write the report to {path}: the file exists already (--force replaces it).",
                            path=path,
                        )
                    ) from None
                finally:
                    temporary.unlink(missing_ok=True)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise
    except OSError as error:
        raise ReportError(
            _("Cannot write the report to {path}: {error}", path=path, error=error.strerror or error)
        ) from None
    return path
