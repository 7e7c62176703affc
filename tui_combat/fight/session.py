"""A session's life, without Textual: start one (empty, from an encounter file, a demo), resume one by its
key or its name, save it under a new name, rename, delete, list them. The app and the screens both use
this module.

One session per name: a new session whose name is taken gets the next free one ("New fight 2"), "save as"
under the session's own name saves in place, and under another session's name is refused. A session
started here and left before any real action leaves nothing behind (:func:`discard_if_empty`).

Every function that opens a session returns a :class:`~tui_combat.fight.store.Store` ready to be shown, or
raises :class:`SessionError` with a title and a message for the GM, never a traceback. The engine and the
store load on the first call, not when this module is imported, so the session list draws quickly.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from tui_combat.i18n import N_, _
from tui_combat.saves import session_folders
from tui_combat.saves.index import SessionInfo
from tui_combat.saves.session_folders import session_folder

if TYPE_CHECKING:
    from tui_combat.engine.actions import Action
    from tui_combat.engine.model import State
    from tui_combat.fight.store import Store

__all__ = [
    "DEMOS",
    "Demo",
    "SessionError",
    "SessionInfo",
    "check_encounter",
    "delete",
    "discard_if_empty",
    "existing_session_for_demo",
    "find_session",
    "free_name",
    "list_sessions",
    "new_empty",
    "new_from_file",
    "open_demo",
    "plugin_demos",
    "usual_ruleset",
    "fight_progress",
    "progress_label",
    "recover",
    "rename",
    "resume",
    "resume_command",
    "ruleset_label",
    "save_as",
]


class SessionError(Exception):
    """A session could not be opened, started or saved; ``title`` and ``str()`` are for the GM."""

    def __init__(self, title: str, message: str) -> None:
        super().__init__(message)
        self.title = title


class Demo(NamedTuple):
    file_name: str
    """In the packaged ``encounters`` folder; a plugin's: ``<ruleset id>/<its file's name>``."""
    label: str
    """Marked with ``N_``; translated when shown. A plugin's: its encounter's name."""
    ruleset: str
    path: Path | None = None
    """A plugin's encounter file (:attr:`~tui_combat.engine.contract.Ruleset.demo`); None for the app's own."""

    @property
    def file(self) -> Path:
        return self.path if self.path is not None else _ENCOUNTERS / self.file_name

    def shown(self) -> str:
        """What the session list calls it, in the GM's language: "Demo: Shoot-out at the ford" for a plugin's."""
        return _("Demo: {name}", name=_(self.label)) if self.path is not None else _(self.label)


DEMOS: tuple[Demo, ...] = (
    Demo("demo_adnd2e.toml", N_("Demo: trolls and orcs in the tunnel"), "adnd2e"),
    Demo("demo_trudvang.toml", N_("Demo: Fridgar at the ford"), "trudvang"),
    Demo("demo_dnd5e.toml", N_("Demo: goblin ambush on the forest road"), "dnd5e"),
    Demo("demo_ose.toml", N_("Demo: goblins at the mossy bridge"), "ose"),
    Demo("demo_players_option.toml", N_("Demo: wolves and gnolls on the old road"), "players_option"),
)


RULESET_LABELS: dict[str, str] = {
    "adnd2e": N_("AD&D 2e"),
    "players_option": N_("Player's Option"),
    "dnd5e": N_("D&D 5e"),
    "ose": N_("OSE / Dolmenwood"),
    "trudvang": N_("Trudvang"),
}
"""Short names of the built-in rulesets for the session list, which draws before any ruleset is loaded."""


def ruleset_label(ruleset_id: str) -> str:
    """What the session list calls a ruleset, translated: a plug-in's own name (which loads it), its id
    when it cannot be loaded."""
    if ruleset_id in RULESET_LABELS:
        return _(RULESET_LABELS[ruleset_id])
    if not ruleset_id:
        return ""
    from tui_combat.engine.errors import RuleError
    from tui_combat.engine.registry import get

    try:
        return _(get(ruleset_id).name)
    except RuleError:
        return ruleset_id


def fight_progress(phase: str, round_number: int) -> str:
    """Where a fight stands: "set-up", "surprise", "round 3", "over, round 5"."""
    if phase == "setup":
        return _("set-up")
    if phase == "surprise":
        return _("surprise")
    if phase == "over":
        return _("over, round {n}", n=round_number)
    return _("round {n}", n=round_number)


def list_sessions(data_root: Path, *, steps: bool = False) -> list[SessionInfo]:
    """Every saved session, newest first (:func:`tui_combat.saves.session_folders.list_sessions`). With ``steps``,
    a session with actions saved after its last snapshot is also read as opening reads it (replayed, in
    memory, read-only): damage found then marks it damaged, else it shows the step opening shows. What
    was found is kept in the data folder's index: a session is read again only once it was written."""
    return session_folders.list_sessions(data_root, steps=steps, shown=_shown)


def indexed_sessions(data_root: Path) -> list[SessionInfo] | None:
    """The session list as the index last saw it (:func:`tui_combat.saves.session_folders.indexed_sessions`),
    None when only reading the sessions tells it; :func:`list_sessions` with ``steps`` is the list as it is."""
    return session_folders.indexed_sessions(data_root)


def _shown(folder: Path, info: SessionInfo) -> SessionInfo:
    # A damaged session whose files' heads name no rules (one saved through the engine, whose first snapshot
    # holds an empty fight) is read as opening reads it: its name and rules as far as they can be read, or that
    # nothing of it can be.
    unknown = info.problem == session_folders.RECOVERABLE and not info.ruleset
    return _as_opened(folder, info) if info.after_snapshot or unknown else session_folders.with_step_label(folder, info)


def _as_opened(folder: Path, info: SessionInfo) -> SessionInfo:
    import msgspec

    from tui_combat.engine.registry import get
    from tui_combat.fight.store import Store
    from tui_combat.saves.errors import DamagedSession, SaveError

    try:
        store = Store.resume(folder, read_only=True, damaged_read_only=bool(info.problem))
    except DamagedSession as damage:
        return msgspec.structs.replace(
            info,
            problem=session_folders.RECOVERABLE if damage.report.recoverable else session_folders.DAMAGED,
            recoverable=damage.report.recoverable,
            phase="",
            step=-1,
            step_label="",
        )
    except SaveError:
        return info
    except Exception:  # the rules are plugins: the list shows what it read without them
        return info
    try:
        state = store.state
        if store.damaged:
            return msgspec.structs.replace(info, name=state.name or info.name, ruleset=state.ruleset, round=state.round)
        step, label = -1, ""
        if state.phase == "round":
            found = get(state.ruleset).steps(state)
            step = state.step
            label = found[step].label if 0 <= step < len(found) else ""
        return msgspec.structs.replace(info, phase=state.phase, round=state.round, step=step, step_label=label)
    except Exception:  # a ruleset's steps that fail: the list keeps what it read
        return info
    finally:
        store.close()


def progress_label(info: SessionInfo) -> str:
    """Where the fight stands, for the list: "set-up", "surprise", "round 3 · Initiative" (the step when
    :func:`list_sessions` was asked for ``steps`` and the step is known), "round 3", "over"."""
    if info.phase == "round" and info.step_label:
        return _("round {n} · {step}", n=info.round, step=_(info.step_label))
    if info.phase == "round" and not info.round:
        return ""
    return fight_progress(info.phase, info.round)


_fresh: weakref.WeakKeyDictionary[Store, State] = weakref.WeakKeyDictionary()
"""Sessions started here, with the state they were started in: one left in that state is discarded."""
_NUMBERED_NAME = re.compile(r"^(.*\S)\s+(\d+)$")


def _taken(data_root: Path, name: str, *, but: str = "") -> SessionInfo | None:
    """The saved session (other than the one in folder ``but``) called ``name``, case aside."""
    key = name.strip().casefold()
    return next(
        (info for info in list_sessions(data_root) if info.key != but and info.name.strip().casefold() == key), None
    )


def free_name(data_root: Path, name: str) -> str:
    """``name`` when no saved session has it, else the first of "name 2", "name 3" … that is free."""
    names = {info.name.strip().casefold() for info in list_sessions(data_root)}
    if name.casefold() not in names:
        return name
    number = 2
    while f"{name} {number}".casefold() in names:
        number += 1
    return f"{name} {number}"


def _refusals() -> tuple[type[Exception], ...]:
    from tui_combat.engine.dice import DiceError
    from tui_combat.engine.errors import RuleError
    from tui_combat.saves.errors import SaveError

    return RuleError, SaveError, DiceError


def _start(
    data_root: Path, name: str, ruleset: str, seed: int | None, build: Callable[[State], list[Action]], title: str
) -> Store:
    """A new session called ``name`` under ``ruleset`` in a fresh folder, built by the actions ``build`` gives
    (each in its journal). When the build fails the folder is removed: a session that did not start leaves
    nothing."""
    import msgspec

    from tui_combat.fight.store import Store, new_state
    from tui_combat.saves.errors import SaveError
    from tui_combat.saves.session_folders import remove_new_folder

    folder = new_session_folder(data_root, name, title)
    # The first snapshot carries the name and the ruleset already: the session list (and the next free name,
    # and a demo opened again) sees them.
    try:
        store = Store.create(msgspec.structs.replace(new_state(seed, ruleset), name=name), folder)
    except SaveError as error:  # the folder is someone else's: nothing was written
        raise SessionError(title, str(error)) from None
    try:
        for action in build(store.state):
            store.dispatch(action)
    except BaseException as error:
        store.close()
        remove_new_folder(folder)
        if isinstance(error, _refusals()):
            raise SessionError(title, str(error)) from None
        raise
    _fresh[store] = store.state
    return store


def new_session_folder(data_root: Path, name: str, title: str) -> Path:
    """A fresh folder for a session called ``name``; :class:`SessionError` (with ``title``) when there is none
    to be had (the sessions folder is a symbolic link)."""
    from tui_combat.saves import session_folders
    from tui_combat.saves.errors import SaveError

    try:
        return session_folders.new_session_folder(data_root, name)
    except SaveError as error:
        raise SessionError(title, str(error)) from None


def new_empty(data_root: Path, *, seed: int | None = None, ruleset: str = "") -> Store:
    """A new fight in set-up with two empty sides, saved in a fresh folder ("New fight", or the next free
    name: "New fight 2" …), under ``ruleset`` or, when none is given, :func:`usual_ruleset`'s."""
    from tui_combat.engine.actions import AddSide, SetName, SetRuleset

    name = free_name(data_root, _("New fight"))
    chosen = ruleset or usual_ruleset(data_root)
    return _start(
        data_root,
        name,
        chosen,
        seed,
        lambda state: [
            SetName(name=name),
            SetRuleset(ruleset=chosen),
            AddSide(name=_("Party"), is_party=True),
            AddSide(name=_("Monsters"), is_party=False),
        ],
        _("Cannot start a new fight"),
    )


def usual_ruleset(data_root: Path, sessions: Iterable[SessionInfo] | None = None) -> str:
    """The ruleset a new fight starts under: that of the GM's most recently saved fight whose ruleset is
    installed, else the first installed one (the set-up's ruleset key changes it)."""
    from tui_combat.engine import registry

    installed = registry.available()
    listed = list_sessions(data_root) if sessions is None else sessions
    for info in sorted(listed, key=lambda info: info.saved_at, reverse=True):
        if info.ruleset in installed:
            return info.ruleset
    return installed[0]


def new_from_file(data_root: Path, path: Path, *, seed: int | None = None, translated: bool = False) -> Store:
    """A new session built from an encounter file; every step of the build is in its journal. A packaged
    demo is ``translated``: its names and notes are taken in the GM's language. The file is checked
    through and the fight built in memory first: a file with mistakes is refused with every one of them,
    and nothing is written. The session takes the encounter's name, or the next free one."""
    import msgspec

    from tui_combat.engine.encounter import built, encounter_actions, load_encounter, localized

    title = _("Cannot start the encounter")
    try:
        encounter = load_encounter(path)
        if translated:
            encounter = localized(encounter)
        built(encounter, path)
    except _refusals() as error:
        raise SessionError(title, str(error)) from None
    encounter = msgspec.structs.replace(encounter, name=free_name(data_root, encounter.name))
    return _start(
        data_root, encounter.name, encounter.ruleset, seed, lambda state: encounter_actions(encounter, state), title
    )


def plugin_demos() -> tuple[Demo, ...]:
    """The demos of the installed plugins (their ruleset's :attr:`~tui_combat.engine.contract.Ruleset.demo`), in
    the order the registry lists them, labelled "Demo: <the encounter's name>"; a plugin that cannot be loaded, or
    whose demo cannot be read, offers none. Loads every installed plugin: asked once the list is on the screen."""
    import tomllib

    from tui_combat.engine import registry
    from tui_combat.engine.errors import RuleError

    found: list[Demo] = []
    for ruleset_id in registry.available():
        if ruleset_id in RULESET_LABELS:
            continue
        try:
            path = registry.get(ruleset_id).demo
            if path is None:
                continue
            name = str(tomllib.loads(path.read_text(encoding="utf-8"))["name"])
        except (RuleError, OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError):
            continue
        found.append(Demo(f"{ruleset_id}/{path.name}", name, ruleset_id, path))
    return tuple(found)


def open_demo(data_root: Path, file_name: str, *, seed: int | None = None) -> Store:
    """A new session of one of the demo encounters (:data:`DEMOS`, or an installed plugin's: :func:`plugin_demos`);
    when a session of it is saved already (:func:`existing_session_for_demo`), this one is "… 2"."""
    demo = _demo(file_name)
    if demo is None:
        raise SessionError(_("Cannot start the encounter"), _("There is no demo {name}.", name=file_name))
    return new_from_file(data_root, demo.file, seed=seed, translated=True)


def _demo(file_name: str) -> Demo | None:
    found = next((demo for demo in DEMOS if demo.file_name == file_name), None)
    if found is None and "/" in file_name:
        found = next((demo for demo in plugin_demos() if demo.file_name == file_name), None)
    return found


def _saved_folder(data_root: Path, key: str, title: str) -> Path:
    """The folder of the saved session ``key``: only a plain name inside the sessions folder, reached
    without following a symbolic link (:func:`~tui_combat.saves.session_folders.session_folder`)."""
    from tui_combat.saves.errors import SaveError

    try:
        return session_folder(data_root, key)
    except SaveError as error:
        raise SessionError(title, str(error)) from None


def resume(data_root: Path, key: str, *, read_only: bool = False) -> Store:
    """The saved session ``key`` (its folder name, as :func:`list_sessions` gives it), where it was left.

    Opening only reads: a damaged session opens read-only as far as it can be read, saying what is wrong
    and how to recover it (one that cannot be rebuilt at all, one written by a newer version or one this
    version cannot replay is refused with a message saying why); nothing on disk changes. When another copy of
    tui-combat has the session open (or ``read_only`` is asked), it opens read-only and says so in the store's
    warnings."""
    from tui_combat.fight.store import Store

    folder = _saved_folder(data_root, key, _("Cannot open the session"))
    if not folder.is_dir():
        raise SessionError(_("Cannot open the session"), _("There is no saved session {name}.", name=key))
    try:
        store = Store.resume(folder, read_only=read_only, damaged_read_only=not read_only)
    except _refusals() as error:
        raise SessionError(_("Cannot open the session"), str(error)) from None
    if not store.state.ruleset:  # saved through the engine before its rules were chosen: no screen shows it
        store.close()
        raise SessionError(
            _("Cannot open the session"), _("{path} holds no fight yet: no ruleset was chosen in it.", path=folder)
        )
    return store


def recover(data_root: Path, key: str, *, up_to_line: int | None = None) -> Store:
    """Rebuild the damaged session ``key`` into a new session beside it (``KEY-recovered``), as far as its
    files can be read (and no further than line ``up_to_line`` of its journal); the damaged folder is only
    read. Returns the new session's store."""
    from tui_combat.fight.store import recover as rebuild
    from tui_combat.saves.session_folders import remove_new_folder

    title = _("Cannot recover the session")
    folder = _saved_folder(data_root, key, title)
    if not folder.is_dir():
        raise SessionError(title, _("There is no saved session {name}.", name=key))
    target = new_session_folder(data_root, f"{key}-recovered", title)
    try:
        return rebuild(folder, target, up_to_line=up_to_line)
    except BaseException as error:
        remove_new_folder(target)  # made here, for this recovery only: a recovery that fails leaves nothing
        if isinstance(error, _refusals()):
            raise SessionError(title, str(error)) from None
        raise


def save_as(store: Store, data_root: Path, name: str) -> str:
    """Save the session under ``name``. Under its own name (case aside) it is saved in place (a new
    spelling of the name is taken); under a new name the whole session, history included, is written to a
    new folder named after it, and goes on there. The name of another saved session is refused: one
    session per name. Returns the session's key (its folder name)."""
    from tui_combat.engine.actions import SetName

    name = _typed_name(name, _("Cannot save"))
    own_key = store.folder.folder.name if store.folder is not None else ""
    if own_key and name.casefold() == store.state.name.strip().casefold():
        if store.read_only:
            raise SessionError(
                _("Cannot save"), _("{reason} Give another name to save a copy of it.", reason=store.read_only_reason)
            )
        try:
            if name != store.state.name:
                store.dispatch(SetName(name=name))
            store.save_now()
        except _refusals() as error:
            raise SessionError(_("Cannot save"), str(error)) from None
        return own_key
    other = _taken(data_root, name, but=own_key)
    if other is not None:
        raise SessionError(
            _("Cannot save"),
            _(
                "There is already a session called {name}: choose another name, or delete that session first.",
                name=other.name,
            ),
        )
    folder = new_session_folder(data_root, name, _("Cannot save"))
    try:
        store.save_as(folder)
        store.dispatch(SetName(name=name))
        store.save_now()  # the new snapshot carries the new name, for the session list
    except _refusals() as error:
        raise SessionError(_("Cannot save"), str(error)) from None
    return folder.name


def _typed_name(name: str, title: str) -> str:
    """A session's name as the GM typed it, stripped; :class:`SessionError` (with ``title``) when it is empty or
    holds a control character (checked before anything is made: a folder, a copy)."""
    from tui_combat.engine.text import control_problem

    name = name.strip()
    if not name:
        raise SessionError(title, _("A name cannot be empty."))
    problem = control_problem(name)
    if problem is not None:
        raise SessionError(title, problem)
    return name


def resume_command(data_root: Path, key: str, name: str, data_dir: str | None = None) -> str:
    """The command a GM types to resume the session ``key`` called ``name``: by its name when that finds it
    (and can be typed), else by its key; with ``--data-dir`` when the data folder was given so."""
    import shlex

    from tui_combat.engine.text import first_control

    try:
        found = find_session(data_root, name) if name.strip() and first_control(name) is None else None
    except SessionError:  # another session of that name
        found = None
    words = [
        "tui-combat",
        *(["--data-dir", data_dir] if data_dir else []),
        "resume",
        name if found is not None and found.key == key else key,
    ]
    return " ".join(shlex.quote(word) for word in words)


def check_encounter(path: Path) -> State:
    """Check an encounter file through and build it in memory (nothing is saved): the fight it describes,
    or a :class:`SessionError` with every mistake, one line each (``FILE:LINE: whose: what``)."""
    from tui_combat.engine.encounter import built, load_encounter

    try:
        return built(load_encounter(path), path)
    except _refusals() as error:
        message = str(error)
        raise SessionError(
            _("The encounter has a mistake"), message if str(path) in message else f"{path}: {message}"
        ) from None


# -- one session per name -------------------------------------------------------------------------------
def find_session(data_root: Path, name: str, *, title: str | None = None) -> SessionInfo | None:
    """The saved session ``name`` means: its folder name, or its name as listed (case aside); None when
    there is none. When several have that name and exactly one of them is not damaged, that one; else
    :class:`SessionError` lists them."""
    title = title or _("Cannot open the session")
    sessions = list_sessions(data_root)
    wanted = name.strip().casefold()
    for info in sessions:
        if info.key == name:
            return info
    for matches in (
        [info for info in sessions if info.name.strip().casefold() == wanted],
        [info for info in sessions if info.key.casefold() == wanted],
    ):
        sound = [info for info in matches if not info.problem]
        if len(matches) == 1 or len(sound) == 1:
            return matches[0] if len(matches) == 1 else sound[0]
        if matches:
            from tui_combat.saves.session_folders import format_time

            listed = "\n".join(f"  {info.key}\t{info.name}\t{format_time(info.saved_at)}" for info in matches)
            raise SessionError(
                title,
                _(
                    "Several saved sessions are called {name}; give the folder name of one:\n{sessions}",
                    name=name,
                    sessions=listed,
                ),
            )
    return None


def existing_session_for_demo(data_root: Path, file_name: str) -> SessionInfo | None:
    """The newest saved session that opening the demo ``file_name`` again would repeat: one of the demo's
    ruleset, named as the demo (in the GM's language or in English, "… 2" too), not damaged; None when
    there is none. The session list asks first: resume it (:func:`resume` with its ``key``) or start
    another (:func:`open_demo`, which names it "… 2")."""
    import tomllib

    demo = _demo(file_name)
    if demo is None:
        return None
    try:
        english = str(tomllib.loads(demo.file.read_text(encoding="utf-8"))["name"])
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError):
        return None
    names = {english.casefold(), _(english).casefold()}
    for info in list_sessions(data_root):
        listed = info.name.strip()
        numbered = _NUMBERED_NAME.match(listed)
        named = listed.casefold() in names or (numbered is not None and numbered.group(1).casefold() in names)
        if named and info.ruleset == demo.ruleset and not info.problem:
            return info
    return None


_ENCOUNTERS = Path(__file__).resolve().parents[1] / "encounters"


def discard_if_empty(store: Store) -> bool:
    """Remove the session ``store`` holds when it was started here (new, from a file, a demo) and nothing
    was done in it since (or all of it undone): leaving it leaves nothing behind. Closes the store and
    returns True then; else changes nothing and returns False (the caller saves and closes as usual)."""
    from tui_combat.saves.session_folders import remove_new_folder

    started = _fresh.get(store)
    if started is None or store.folder is None or store.read_only:
        return False
    if store.state is not started and store.state != started:
        return False
    folder = store.folder.folder
    store.close()
    remove_new_folder(folder)
    del _fresh[store]
    return True


def rename(data_root: Path, key: str, name: str) -> str:
    """Rename the saved session ``key``: the name it is listed under and, when the folder that name makes is
    free, its folder. Refused when the name is empty or another session's, or while another copy of
    tui-combat has the session open. Returns the session's key afterwards."""
    from tui_combat.engine.actions import SetName
    from tui_combat.saves.session_folders import move_session_folder

    title = _("Cannot rename the session")
    name = _typed_name(name, title)
    other = _taken(data_root, name, but=key)
    if other is not None:
        raise SessionError(title, _("There is already a session called {name}.", name=other.name))
    try:
        store = resume(data_root, key)
    except SessionError as error:
        raise SessionError(title, str(error)) from None
    try:
        if store.read_only:
            raise SessionError(title, store.read_only_reason)
        if store.state.name != name:
            store.dispatch(SetName(name=name))
        store.save_now()
        return move_session_folder(data_root, key, name)  # while the lock is held
    except _refusals() as error:
        raise SessionError(title, str(error)) from None
    finally:
        store.close()


def delete(data_root: Path, key: str) -> None:
    """Remove the saved session ``key`` for good (its folder and everything in it). Refused while another
    copy of tui-combat has it open."""
    from tui_combat.saves.errors import SaveError
    from tui_combat.saves.session_folders import delete_session_folder

    try:
        delete_session_folder(data_root, key)
    except SaveError as error:
        raise SessionError(_("Cannot delete the session"), str(error)) from None
