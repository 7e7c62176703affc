"""Ruleset plugins: found by id, loaded once, checked when loaded.

Every ruleset, the built-in ones too, is found through the entry-point group ``tui_combat.rulesets``: the
built-ins are listed in ``pyproject.toml``, a third-party package adds its own in its own. The engine names no
ruleset; the installed distributions are read once, the first time a ruleset is asked for that the app has not
told the registry of (:func:`know`: the app names its own, whose entry points win their names anyway, so that
opening a fight of a built-in ruleset does not read every installed distribution's metadata).
"""

from __future__ import annotations

import importlib

from tui_combat.engine.contract import AnyRuleset, Ruleset
from tui_combat.engine.errors import RuleError
from tui_combat.engine.keys import KEY_LABELS, effective, reserved, ruleset_binding_id
from tui_combat.engine.model import State
from tui_combat.i18n import _, add_catalogs, language, play_catalogs

ENTRY_POINT_GROUP = "tui_combat.rulesets"

_OWN_DISTRIBUTION = "tui-combat"
_loaded: dict[str, AnyRuleset] = {}
_failed: dict[str, str] = {}
"""Why each plugin whose own code failed could not be loaded: asked again, it is not imported a second time (a
refusal of ours, a key taken or a house rule mistaken, is asked again: the GM may have changed it since)."""


class PluginFailure(RuleError):
    """A plugin's own code raised while it was loaded or prepared."""


_discovered: dict[str, str] | None = None
_known: dict[str, str] = {}
"""Targets the app told the registry of (:func:`know`), found without reading the installed distributions."""


def know(targets: dict[str, str]) -> None:
    """The app's own rulesets (id → ``module:attribute``, as its entry points list them): asked for, they are
    loaded without discovering the installed plugins first (importing ``importlib.metadata`` and reading every
    distribution's entry points took about a tenth of the app's start). Their entry points win their names over
    a plugin's anyway (see :func:`_discover`)."""
    _known.update(targets)


def check_catalogue(ruleset: AnyRuleset) -> None:
    """Refuse a catalogue whose key is one of the app's or another action's: the keys in force, with the
    GM's keymap (:mod:`tui_combat.engine.keys`) over the app's and the ruleset's own."""
    taken = reserved()
    seen: dict[str, str] = {}
    names: set[str] = set()
    for spec in ruleset.actions:
        if spec.name in names:
            raise RuleError(
                _(
                    "Ruleset {ruleset}: the action {action} is listed twice.",
                    ruleset=_(ruleset.name),
                    action=_(spec.label),
                )
            )
        names.add(spec.name)
        for key in effective(ruleset_binding_id(ruleset.id, spec.name), spec.key).split(","):
            if key in taken:
                raise RuleError(
                    _(
                        "Ruleset {ruleset}: the key {key} of {action} is already the app's key for {other}.",
                        ruleset=_(ruleset.name),
                        key=key,
                        action=_(spec.label),
                        other=_(KEY_LABELS.get(taken[key], taken[key])),
                    )
                )
            if key in seen:
                raise RuleError(
                    _(
                        "Ruleset {ruleset}: the key {key} is used by both {action} and {other}.",
                        ruleset=_(ruleset.name),
                        key=key,
                        action=_(spec.label),
                        other=_(seen[key]),
                    )
                )
            seen[key] = spec.label


def _load_target(target: str) -> AnyRuleset:
    """The ruleset ``target`` names, checked and prepared. Whatever a plugin raises on the way (its module that
    does not compile, its ``prepare()`` that fails) is a :class:`RuleError` naming the plugin, the error and where
    it was raised: the rest of the app goes on without that ruleset."""
    module_name, _sep, attribute = target.partition(":")
    try:
        module = importlib.import_module(module_name)
        ruleset = getattr(module, attribute)
        if not isinstance(ruleset, Ruleset):
            raise RuleError(_("Ruleset plugin {target} is not a Ruleset.", target=target))
        check_catalogue(ruleset)
        ruleset.prepare()
        _read_catalogs(ruleset, target)
    except RuleError:
        raise
    except Exception as error:  # a plugin is anyone's code
        raise PluginFailure(
            _("The ruleset plugin {target} could not be loaded: {error}", target=target, error=failure(error))
        ) from None
    return ruleset


def failure(error: Exception) -> str:
    """An exception as a message names it: its kind, the file and line it was raised at (the line that does not
    compile, for a syntax error), and what it says."""
    import traceback

    kind = type(error).__name__
    if isinstance(error, SyntaxError) and error.filename:
        return _(
            "{error} at {file}, line {line}: {message}",
            error=kind,
            file=error.filename,
            line=error.lineno,
            message=error.msg,
        )
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return f"{kind}: {error}"
    return _(
        "{error} at {file}, line {line}: {message}",
        error=kind,
        file=frames[-1].filename,
        line=frames[-1].lineno,
        message=str(error) or kind,
    )


def _read_catalogs(ruleset: AnyRuleset, target: str) -> None:
    """The plugin's own catalogs added to the app's translations (see :func:`add_catalogs`): a broken one of
    the language in use is reported with its file, once."""
    if ruleset.catalogs is None:
        return
    from tui_combat.i18n.po import CatalogError

    try:
        add_catalogs(ruleset.catalogs)
    except (OSError, CatalogError, UnicodeDecodeError) as error:
        raise RuleError(
            _(
                "Ruleset plugin {target}: its catalog {path} cannot be read: {error}",
                target=target,
                path=ruleset.catalogs / f"{language()}.po",
                error=error,
            )
        ) from None


def _discover() -> dict[str, str]:
    global _discovered
    if _discovered is None:
        from importlib.metadata import entry_points  # slow to import: only when listing plugins

        entries = list(entry_points(group=ENTRY_POINT_GROUP))
        # The app's own rulesets first, then the plugins; the first distribution on the path wins a name.
        entries.sort(
            key=lambda entry: entry.dist is None or entry.dist.name.lower().replace("_", "-") != _OWN_DISTRIBUTION
        )
        found: dict[str, str] = {}
        for entry in entries:
            found.setdefault(entry.name, entry.value)
        _discovered = found
    return _discovered


def forget() -> None:
    """Drop what was loaded and discovered (after installing a plugin, and in tests)."""
    global _discovered
    _loaded.clear()
    _failed.clear()
    _known.clear()
    _discovered = None


def get(ruleset_id: str) -> AnyRuleset:
    """The ruleset registered under ``ruleset_id``; :class:`RuleError` if there is none."""
    ruleset = _loaded.get(ruleset_id)
    if ruleset is not None:
        return ruleset
    if ruleset_id in _failed:
        raise RuleError(_failed[ruleset_id])
    target = _known.get(ruleset_id) or _discover().get(ruleset_id)
    if target is None:
        raise RuleError(_('Unknown ruleset "{id}".', id=ruleset_id))
    try:
        ruleset = _load_target(target)
    except PluginFailure as error:
        _failed[ruleset_id] = str(error)
        raise
    _loaded[ruleset_id] = ruleset
    return ruleset


def available() -> list[str]:
    """Ids of every registered ruleset, built-ins first."""
    return list(_discover())


def in_play(ruleset_id: str) -> None:
    """The ruleset of the fight shown now (its id; "" for none): its own catalogs are looked up before the app's,
    so that a message it shares with the app reads as it translates it (:func:`tui_combat.i18n.play_catalogs`).
    The app calls it as a session opens and when the set-up changes the ruleset; a script rendering a plugin's
    fight may too. One that cannot be loaded puts none in play."""
    try:
        catalogs = get(ruleset_id).catalogs if ruleset_id else None
    except RuleError:
        catalogs = None
    play_catalogs(catalogs)


def restore(state: State) -> State:
    """A state read from a file, with the ruleset's own Structs back in place of plain mappings (a fight
    whose set-up has not named its ruleset yet holds none of them)."""
    if not state.ruleset:
        return state
    return get(state.ruleset).restore(state)


def register(ruleset: AnyRuleset) -> None:
    """Make ``ruleset`` available under its id without an entry point (tests, embedding); checked like any."""
    try:
        check_catalogue(ruleset)
        ruleset.prepare()
        _read_catalogs(ruleset, type(ruleset).__module__)
    except RuleError:
        raise
    except Exception as error:
        raise PluginFailure(
            _(
                "The ruleset plugin {target} could not be loaded: {error}",
                target=type(ruleset).__module__,
                error=failure(error),
            )
        ) from None
    _loaded[ruleset.id] = ruleset
