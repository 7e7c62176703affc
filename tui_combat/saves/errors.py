from __future__ import annotations

import msgspec


class SaveError(Exception):
    """A save could not be read or written; the message names the file and says what to do."""


class FolderTaken(SaveError):
    """A new session was to be created in a folder that already holds one, or that another writer holds."""


class NewerVersionError(SaveError):
    """The session was written by a newer tui-combat; nothing was read into memory or changed on disk."""


class IncompatibleSession(SaveError):
    """The files read, but this tui-combat cannot make a fight of them: a session of an older version whose
    history no longer replays, or one of a ruleset that is not installed. Nothing was changed on disk."""


class DamageReport(msgspec.Struct, frozen=True, kw_only=True):
    """What is wrong with a session folder, and how much of it :func:`tui_combat.fight.store.recover` can rebuild."""

    folder: str
    problems: tuple[str, ...]
    """Each problem found, translated, naming its file (and line, when there is one)."""
    recoverable: bool
    source: str = ""
    """The file a recovery starts from: a snapshot, or a journal whose header holds the starting state."""
    actions: int = 0
    """How many journal entries after that start a recovery replays."""
    last_line: int = 0
    """The last line of ``journal.jsonl`` a recovery uses (0: none of it)."""


class DamagedSession(SaveError):
    """Opening found damage. Nothing was changed on disk; :attr:`report` says what can be recovered."""

    def __init__(self, message: str, report: DamageReport) -> None:
        super().__init__(message)
        self.report = report
