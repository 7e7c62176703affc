"""A session's life, without Textual: start one (empty, from an encounter file, a demo), resume one by its
key, save it under a new name, list them. The app and the screens both use this module.

Every function that opens a session returns a :class:`~tui_combat.store.Store` ready to be shown, or
raises :class:`SessionError` with a title and a message for the GM, never a traceback. The engine and the
store load on the first call, not when this module is imported, so the session list draws quickly.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from tui_combat.i18n import N_, _
from tui_combat.saves.library import SessionInfo, list_sessions, new_session_folder, session_folder

if TYPE_CHECKING:
    from tui_combat.engine.model import State
    from tui_combat.store import Store

__all__ = [
    "DEMOS", "Demo", "SessionError", "SessionInfo", "check_encounter", "list_sessions", "new_empty", "new_from_file",
    "open_demo", "recover", "resume", "save_as",
]


class SessionError(Exception):
    """A session could not be opened, started or saved; ``title`` and ``str()`` are for the GM."""

    def __init__(self, title: str, message: str) -> None:
        super().__init__(message)
        self.title = title


class Demo(NamedTuple):
    file_name: str
    """In the packaged ``encounters`` folder."""
    label: str
    """Marked with ``N_``; translated when shown."""
    ruleset: str


DEMOS: tuple[Demo, ...] = (
    Demo("demo_adnd2e.toml", N_("Demo: trolls and orcs in the tunnel (AD&D 2e)"), "adnd2e"),
    Demo("demo_trudvang.toml", N_("Demo: Fridgar at the ford (Trudvang)"), "trudvang"),
    Demo("demo_dnd5e.toml", N_("Demo: goblin ambush on the forest road (D&D 5e)"), "dnd5e"),
    Demo("demo_ose.toml", N_("Demo: goblins at the mossy bridge (Dolmenwood)"), "ose"),
    Demo("demo_players_option.toml", N_("Demo: wolves and gnolls on the old road (Player's Option)"), "players_option"),
)


def _refusals() -> tuple[type[Exception], ...]:
    from tui_combat.engine.dice import DiceError
    from tui_combat.engine.errors import RuleError
    from tui_combat.saves.errors import SaveError

    return RuleError, SaveError, DiceError


def new_empty(data_root: Path, *, seed: int | None = None) -> Store:
    """A new fight in set-up with two empty sides, saved in a fresh folder."""
    from tui_combat.engine.actions import AddSide, SetName
    from tui_combat.store import Store, new_state

    name = _("New fight")
    try:
        store = Store.create(new_state(seed), new_session_folder(data_root, name))
        store.dispatch(SetName(name=name))
        store.dispatch(AddSide(name=_("Party"), is_party=True))
        store.dispatch(AddSide(name=_("Monsters"), is_party=False))
    except _refusals() as error:
        raise SessionError(_("Cannot start a new fight"), str(error)) from None
    return store


def new_from_file(data_root: Path, path: Path, *, seed: int | None = None) -> Store:
    """A new session built from an encounter file; every step of the build is in its journal."""
    from tui_combat.engine.encounter import load_encounter
    from tui_combat.store import store_from_encounter

    try:
        encounter = load_encounter(path)
        return store_from_encounter(encounter, new_session_folder(data_root, encounter.name), seed)
    except _refusals() as error:
        raise SessionError(_("Cannot start the encounter"), str(error)) from None


def open_demo(data_root: Path, file_name: str, *, seed: int | None = None) -> Store:
    """A new session of one of the packaged demo encounters (:data:`DEMOS`)."""
    from tui_combat.engine.encounter import ENCOUNTER_DIR

    if file_name not in {demo.file_name for demo in DEMOS}:
        raise SessionError(_("Cannot start the encounter"), _("There is no demo {name}.", name=file_name))
    return new_from_file(data_root, ENCOUNTER_DIR / file_name, seed=seed)


def _saved_folder(data_root: Path, key: str, title: str) -> Path:
    """The folder of the saved session ``key``: only a plain name inside the sessions folder, reached
    without following a symbolic link (:func:`~tui_combat.saves.library.session_folder`)."""
    from tui_combat.saves.errors import SaveError

    try:
        return session_folder(data_root, key)
    except SaveError as error:
        raise SessionError(title, str(error)) from None


def resume(data_root: Path, key: str, *, read_only: bool = False) -> Store:
    """The saved session ``key`` (its folder name, as :func:`list_sessions` gives it), where it was left.

    Opening only reads: a damaged session, one written by a newer version or one this version cannot
    replay is refused with a message saying why (and, when damaged, how to recover it); nothing on disk
    changes. When another copy of tui-combat has the session open (or ``read_only`` is asked), it opens
    read-only and says so in the store's warnings."""
    from tui_combat.store import Store

    folder = _saved_folder(data_root, key, _("Cannot open the session"))
    if not folder.is_dir():
        raise SessionError(_("Cannot open the session"), _("There is no saved session {name}.", name=key))
    try:
        return Store.resume(folder, read_only=read_only)
    except _refusals() as error:
        raise SessionError(_("Cannot open the session"), str(error)) from None


def recover(data_root: Path, key: str, *, up_to_line: int | None = None) -> Store:
    """Rebuild the damaged session ``key`` into a new session beside it (``KEY-recovered``), as far as its
    files can be read (and no further than line ``up_to_line`` of its journal); the damaged folder is only
    read. Returns the new session's store."""
    from tui_combat.store import recover as rebuild

    folder = _saved_folder(data_root, key, _("Cannot recover the session"))
    target = new_session_folder(data_root, f"{key}-recovered")
    try:
        return rebuild(folder, target, up_to_line=up_to_line)
    except _refusals() as error:
        raise SessionError(_("Cannot recover the session"), str(error)) from None


def save_as(store: Store, data_root: Path, name: str) -> str:
    """Write the whole session, history included, to a new folder named after ``name`` and go on there
    under that name. Returns the new key."""
    from tui_combat.engine.actions import SetName

    name = name.strip()
    if not name:
        raise SessionError(_("Cannot save"), _("A name cannot be empty."))
    folder = new_session_folder(data_root, name)
    try:
        store.save_as(folder)
        store.dispatch(SetName(name=name))
        store.save_now()  # the new snapshot carries the new name, for the session list
    except _refusals() as error:
        raise SessionError(_("Cannot save"), str(error)) from None
    return folder.name


def check_encounter(path: Path) -> State:
    """Build an encounter file in memory (nothing is saved): the fight it describes, or a
    :class:`SessionError` naming the file and the mistake."""
    from tui_combat.engine.encounter import encounter_actions, load_encounter
    from tui_combat.store import Store, new_state

    try:
        encounter = load_encounter(path)
        store = Store(new_state(0))
        for action in encounter_actions(encounter, store.state):
            store.dispatch(action)
    except _refusals() as error:
        message = str(error)
        raise SessionError(_("The encounter has a mistake"),
                           message if str(path) in message else f"{path}: {message}") from None
    return store.state
