"""The GM's keymap: which bindings there are on which screen, and whether the keys the GM gives them work.

Every binding of the app has an id (``round.next``, ``setup.add``, ``adnd2e.attack`` …); the GM moves one
to other keys by its id in ``[keys]`` of ``settings.toml``, and Textual's keymap (:meth:`App.set_keymap`)
does the rest. Before an entry is used it is checked here against every screen it lives on: the id must be
known, each key well formed, and no key may be taken twice on one screen (the app's own keys, the keys
that move around lists and fields, and the ruleset's keys on each ruleset's round screen count). An entry
that fails is reported with its line and left out, so that binding keeps its default keys.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
import sys
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from textual.binding import Binding, BindingsMap
from textual.dom import DOMNode
from textual.keys import Keys, key_to_character
from textual.screen import Screen

from tui_combat.engine.keys import FOCUS_KEYS, key_display
from tui_combat.i18n import _
from tui_combat.widgets.translated_bindings import merged_bindings

OTHER_APPS = frozenset({"tui_combat.screens.player_view"})
"""Screen modules of another app (the players' screen has no keymap of the GM's)."""
MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})
_NAMED_KEYS = frozenset(key.value.rpartition("+")[2] for key in Keys if not key.value.startswith("<"))


@dataclass(frozen=True)
class KeyBinding:
    binding_id: str
    keys: tuple[str, ...]
    """The app's own keys for it (normalized: ``question_mark``, not ``?``)."""
    description: str
    """What it does, in the GM's language."""


@dataclass(frozen=True)
class KeyScreen:
    name: str
    """The screen as the GM knows it ("the round (AD&D 2nd edition)")."""
    bindings: tuple[KeyBinding, ...]
    fixed: frozenset[str] = frozenset()
    """Keys of bindings without an id: nobody can move them, nor take their keys."""
    group: str = ""
    """The kind of screen, for a binding found on several of one kind ("the round"); "" is :attr:`name`."""


@dataclass(frozen=True)
class KeyProblem:
    binding_id: str
    reason: str
    """Why the entry cannot be used, in the GM's language (no file or line: the caller adds them)."""


@dataclass(frozen=True)
class KeymapCheck:
    keymap: dict[str, str]
    """The entries that can be used: binding id → keys, normalized, for :meth:`App.set_keymap`."""
    problems: list[KeyProblem] = field(default_factory=list)


@dataclass(frozen=True)
class KeyTable:
    """Every binding of the app: its own (on every screen) and each screen's."""

    app: KeyScreen
    screens: tuple[KeyScreen, ...]

    def bindings(self) -> dict[str, KeyBinding]:
        """Every binding by id, in the order the settings screen lists them (the app's last)."""
        found: dict[str, KeyBinding] = {}
        for screen in (*self.screens, self.app):
            for binding in screen.bindings:
                found.setdefault(binding.binding_id, binding)
        return found

    def places(self, binding_id: str) -> list[KeyScreen]:
        """The screens where ``binding_id`` runs (every one, for an app binding)."""
        if any(b.binding_id == binding_id for b in self.app.bindings):
            return list(self.screens)
        return [screen for screen in self.screens if any(b.binding_id == binding_id for b in screen.bindings)]

    def screen_name(self, binding_id: str) -> str:
        """Where ``binding_id`` runs, as the GM knows it: one screen, a kind of screen, or every screen."""
        if any(b.binding_id == binding_id for b in self.app.bindings):
            return self.app.name
        places = self.places(binding_id)
        if len(places) == 1:
            return places[0].name
        return ", ".join(dict.fromkeys(place.group or place.name for place in places))


# -- the app's bindings ------------------------------------------------------------------------------------
SCREEN_ORDER = (
    "SessionsScreen",
    "SetupScreen",
    "SurpriseScreen",
    "RoundScreen",
    "RewindScreen",
    "FormDialog",
    "ChoiceDialog",
    "ConfirmDialog",
    "HelpScreen",
    "SettingsScreen",
)
"""The order the settings screen lists the screens' keys in (any other screen comes after these)."""


def _screen_names() -> dict[str, str]:
    return {
        "SessionsScreen": _("the session list"),
        "SetupScreen": _("set-up"),
        "SurpriseScreen": _("surprise"),
        "RewindScreen": _("looking back at a fight"),
        "HelpScreen": _("help"),
        "FormDialog": _("forms"),
        "ChoiceDialog": _("choices"),
        "ConfirmDialog": _("questions"),
        "SettingsScreen": _("settings"),
    }


def _rank(cls: type[DOMNode]) -> int:
    return SCREEN_ORDER.index(cls.__name__) if cls.__name__ in SCREEN_ORDER else len(SCREEN_ORDER)


def _key_bindings(bindings: BindingsMap) -> tuple[tuple[KeyBinding, ...], frozenset[str]]:
    """The bindings with an id (their keys gathered) and the keys of those without one."""
    keys: dict[str, list[str]] = {}
    described: dict[str, str] = {}
    fixed: set[str] = set()
    for key, key_bindings in bindings.key_to_bindings.items():
        for binding in key_bindings:
            if binding.id is None:
                fixed.add(key)
                continue
            keys.setdefault(binding.id, []).append(key)
            described.setdefault(binding.id, _(binding.description))
    found = tuple(
        KeyBinding(binding_id, tuple(dict.fromkeys(found_keys)), described[binding_id])
        for binding_id, found_keys in keys.items()
    )
    return found, frozenset(fixed)


def _own_screen_classes() -> list[type[Screen[Any]]]:
    """Every screen class of the app's modules (each module imported), in the order they were made."""
    import tui_combat.screens as package

    for info in pkgutil.iter_modules(package.__path__):
        name = f"{package.__name__}.{info.name}"
        if name not in OTHER_APPS:
            try:
                importlib.import_module(name)
            except Exception:  # a screen that cannot be imported has no keys to check; the app reports it when used
                continue
    found: list[type[Screen[Any]]] = []
    pending: list[type[Screen[Any]]] = list(Screen.__subclasses__())
    while pending:
        cls = pending.pop(0)
        pending += cls.__subclasses__()
        module = sys.modules.get(cls.__module__)
        if (
            cls.__module__.startswith(package.__name__ + ".")
            and cls.__module__ not in OTHER_APPS
            and getattr(module, cls.__name__, None) is cls
            and cls not in found
        ):
            found.append(cls)
    return found


def _round_screens(round_class: type[DOMNode]) -> list[KeyScreen]:
    """One round screen per ruleset: the generic bindings and the ruleset's own."""
    from tui_combat.engine import registry
    from tui_combat.engine.errors import RuleError
    from tui_combat.screens.round_keys import ruleset_bindings

    generic, fixed = _key_bindings(merged_bindings(round_class))
    screens: list[KeyScreen] = []
    for ruleset_id in registry.available():
        try:
            ruleset = registry.get(ruleset_id)
        except RuleError:  # a plugin that does not load has no round screen
            continue
        own, _fixed = _key_bindings(BindingsMap(ruleset_bindings(ruleset)))
        screens.append(
            KeyScreen(_("the round ({ruleset})", ruleset=_(ruleset.name)), generic + own, fixed, group=_("the round"))
        )
    return screens


def collect(app_class: type[DOMNode]) -> KeyTable:
    """Every binding of ``app_class`` and of the app's screens (every screen module is imported, and every
    ruleset loaded: only when the GM has a keymap, or opens the settings)."""
    from tui_combat.screens.round import RoundScreen

    app_bindings, app_fixed = _key_bindings(merged_bindings(app_class))
    names = _screen_names()
    screens: list[KeyScreen] = []
    for cls in sorted(_own_screen_classes(), key=_rank):
        if cls is RoundScreen:
            screens += _round_screens(cls)
            continue
        bindings, fixed = _key_bindings(merged_bindings(cls))
        if bindings:
            screens.append(KeyScreen(names.get(cls.__name__, _("another screen")), bindings, fixed))
    return KeyTable(KeyScreen(_("every screen"), app_bindings, app_fixed), tuple(screens))


# -- keys ------------------------------------------------------------------------------------------------
SPLIT_CHARACTERS = {",": "comma", " ": "space"}
"""Characters a binding's key cannot be written as (it splits keys at commas, and strips spaces)."""


@lru_cache(maxsize=256)
def key_name(character: str) -> str:
    """How Textual names the key of ``character`` in its bindings and keymaps ("?" → "question_mark"):
    as a binding written with it is named."""
    if character in SPLIT_CHARACTERS:
        return SPLIT_CHARACTERS[character]
    return next(iter(BindingsMap([Binding(character, "noop")]).key_to_bindings))


def normalized_keys(keys: str) -> tuple[str, ...]:
    """``"?, J"`` → ``("question_mark", "J")``: as Textual names keys in its bindings and keymaps."""
    return tuple(key_name(key) if len(key) == 1 else key for key in (part.strip() for part in keys.split(",")))


def well_formed(key: str) -> bool:
    """A key Textual can report: a character or a key's name, after modifiers (``ctrl+shift+up``)."""
    *modifiers, base = key.split("+")
    if not base or len(set(modifiers)) != len(modifiers) or not set(modifiers) <= MODIFIERS:
        return False
    if len(base) == 1:
        return base.isprintable() and not base.isspace()
    return base in _NAMED_KEYS or key_to_character(base) is not None


def _not_a_key(keys: Iterable[str]) -> str:
    """What is wrong with the first of ``keys`` that is no key ("" when they all are)."""
    for key in keys:
        if not well_formed(key):
            return _(
                '"{key}" is not a key (keys are written like j, J, ctrl+j, f5, space, escape, question_mark).', key=key
            )
    return ""


def keys_shown(keys: Iterable[str]) -> str:
    return ", ".join(key_display(key) for key in keys)


def entry_keys(value: object) -> tuple[str, ...] | None:
    """The keys of a keymap entry: ``"j"``, ``"j,ctrl+n"`` or ``["j", "ctrl+n"]``; None when it is neither."""
    if isinstance(value, str):
        return normalized_keys(value)
    if isinstance(value, list) and value and all(isinstance(item, str) for item in value):
        return tuple(key for item in value for key in normalized_keys(item))
    return None


# -- checking a keymap -----------------------------------------------------------------------------------
def check_keymap(entries: Mapping[str, object], table: KeyTable) -> KeymapCheck:
    """The entries of ``entries`` (binding id → keys, in the file's order) that can be used, and why each
    other one cannot. A key two entries both take is refused to the later one."""
    known = table.bindings()
    problems: list[KeyProblem] = []
    candidates: dict[str, tuple[str, ...]] = {}
    for binding_id, value in entries.items():
        binding = known.get(binding_id)
        if binding is None:
            close = difflib.get_close_matches(binding_id, list(known), n=1)
            reason = _('no action is called "{id}".', id=binding_id)
            if close:
                reason += " " + _('Did you mean "{id}"?', id=close[0])
            problems.append(KeyProblem(binding_id, reason))
            continue
        keys = entry_keys(value)
        if keys is None:
            problems.append(
                KeyProblem(
                    binding_id,
                    _('the keys of {action} must be text, such as "j" or "ctrl+n".', action=binding.description),
                )
            )
            continue
        bad = _not_a_key(keys)
        if bad:
            problems.append(KeyProblem(binding_id, bad))
            continue
        candidates[binding_id] = tuple(dict.fromkeys(keys))
    while True:
        clash = _first_clash(candidates, table, known)
        if clash is None:
            return KeymapCheck({binding_id: ",".join(keys) for binding_id, keys in candidates.items()}, problems)
        del candidates[clash.binding_id]
        problems.append(clash)


def key_refusal(binding_id: str, keys: tuple[str, ...], keymap: Mapping[str, str], table: KeyTable) -> str | None:
    """Why ``binding_id`` cannot take ``keys`` with ``keymap`` in force (None when it can)."""
    bad = _not_a_key(keys)
    if bad:
        return bad
    candidates = {other: normalized_keys(other_keys) for other, other_keys in keymap.items() if other != binding_id}
    candidates[binding_id] = keys
    known = table.bindings()
    for key in keys:
        clash = _clash(binding_id, key, candidates, table, known)
        if clash is not None:
            return clash[1]
    return None


def _first_clash(
    candidates: dict[str, tuple[str, ...]], table: KeyTable, known: dict[str, KeyBinding]
) -> KeyProblem | None:
    """The first entry (in the file's order) that takes a key already taken where it runs; of two entries
    that both take the same key anew, the later one."""
    order = list(candidates)
    for binding_id in order:
        for key in candidates[binding_id]:
            clash = _clash(binding_id, key, candidates, table, known)
            if clash is None:
                continue
            other, reason = clash
            if (
                other in candidates
                and order.index(other) > order.index(binding_id)
                and key in candidates[other]
                and key not in known[other].keys
            ):
                from_other = _clash(other, key, candidates, table, known)
                return KeyProblem(other, from_other[1] if from_other else reason)
            return KeyProblem(binding_id, reason)
    return None


def _holders(
    key: str, screen: KeyScreen, app: KeyScreen, candidates: Mapping[str, tuple[str, ...]]
) -> list[tuple[str, bool]]:
    """(binding id, whether the key is new to it) for each binding that runs on ``key`` on ``screen``."""
    found: dict[str, bool] = {}
    for binding in (*screen.bindings, *app.bindings):
        keys = candidates.get(binding.binding_id, binding.keys)
        if key in keys:
            found.setdefault(binding.binding_id, key not in binding.keys)
    return list(found.items())


def _clash(
    binding_id: str,
    key: str,
    candidates: Mapping[str, tuple[str, ...]],
    table: KeyTable,
    known: Mapping[str, KeyBinding],
) -> tuple[str, str] | None:
    """(the binding that holds ``key`` too, "" for one of the keys nobody may take; and why) when
    ``binding_id`` cannot have ``key``; None when it can. A key two bindings held already by default is no
    clash of the GM's."""
    binding = known[binding_id]
    new = key not in binding.keys
    action = binding.description
    if new and key in FOCUS_KEYS:
        return "", _(
            "{key} moves around the screen; it cannot be the key of {action}.", key=key_display(key), action=action
        )
    for screen in table.places(binding_id) or [table.app]:
        if new and (key in screen.fixed or key in table.app.fixed):
            return "", _(
                "{key} is already one of the app's own keys on {screen}; it cannot be the key of {action}.",
                key=key_display(key),
                screen=screen.name,
                action=action,
            )
        for other, other_new in _holders(key, screen, table.app, candidates):
            if other != binding_id and (new or other_new):
                return other, _(
                    "{key} for {action} is already the key of {other} on {screen}.",
                    key=key_display(key),
                    action=action,
                    other=known[other].description,
                    screen=screen.name,
                )
    return None


def defaults_kept(binding_id: str, table: KeyTable) -> str:
    """ "Next keeps n, space." for a refused entry of a known binding; "" for an unknown one."""
    binding = table.bindings().get(binding_id)
    if binding is None:
        return ""
    return _("{action} keeps {keys}.", action=binding.description, keys=keys_shown(binding.keys))
