"""Being told when a session folder changes, so that the players' view reads an action the moment the GM's
copy saves it rather than at its next look at the files (half of :data:`~tui_combat.saves.follow.POLL_SECONDS`
later, on average).

Linux tells through inotify (reached through the C library with ``ctypes``: nothing to install). Where there
is no inotify (macOS, Windows, a C library without it, a system out of watches) :meth:`FolderWatch.open`
gives None and the view only looks every ``POLL_SECONDS``, as it always does besides.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys
from pathlib import Path

__all__ = ["FolderWatch"]

IN_MODIFY = 0x002
IN_ATTRIB = 0x004
IN_CLOSE_WRITE = 0x008
IN_MOVED_FROM = 0x040
IN_MOVED_TO = 0x080
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_DELETE_SELF = 0x400
IN_MOVE_SELF = 0x800
IN_IGNORED = 0x8000
EVENT = struct.Struct("iIII")
"""An event as inotify gives it: the watch, what happened, a cookie and the length of the name after it."""
CHANGES = (
    IN_MODIFY
    | IN_ATTRIB
    | IN_CLOSE_WRITE
    | IN_MOVED_FROM
    | IN_MOVED_TO
    | IN_CREATE
    | IN_DELETE
    | IN_DELETE_SELF
    | IN_MOVE_SELF
)
"""Whatever writing a session does in its folder: an append to the journal, a snapshot renamed into place,
a file deleted, the folder itself removed or renamed."""


class FolderWatch:
    """One inotify descriptor watching at most one folder. Its :attr:`fileno` becomes readable when the folder
    changes; :meth:`drain` empties it."""

    def __init__(self, libc: ctypes.CDLL, fileno: int) -> None:
        self._libc = libc
        self.fileno = fileno
        self.folder: Path | None = None
        self._descriptor = -1

    @classmethod
    def open(cls) -> FolderWatch | None:
        """A watch, or None where the system cannot tell (the caller then only polls)."""
        if not sys.platform.startswith("linux"):
            return None
        try:
            libc = ctypes.CDLL(None, use_errno=True)  # the C library the interpreter runs on
            init = libc.inotify_init1
        except (OSError, AttributeError):
            return None
        init.argtypes = [ctypes.c_int]
        libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
        libc.inotify_rm_watch.argtypes = [ctypes.c_int, ctypes.c_int]
        fileno = int(init(os.O_NONBLOCK | os.O_CLOEXEC))
        return cls(libc, fileno) if fileno >= 0 else None

    def watch(self, folder: Path | None) -> bool:
        """Watch ``folder`` (and no other); False when it cannot be watched (it is gone, no watch is left)."""
        if folder == self.folder and self._descriptor >= 0:
            return True
        if self._descriptor >= 0:
            self._libc.inotify_rm_watch(self.fileno, self._descriptor)  # fails harmlessly if the folder is gone
        self.folder, self._descriptor = folder, -1
        if folder is None:
            return False
        self._descriptor = int(self._libc.inotify_add_watch(self.fileno, os.fsencode(folder), CHANGES))
        return self._descriptor >= 0

    def drain(self) -> bool:
        """Read every event waiting; whether any was about the folder watched now (those of a folder watched
        before are dropped). A watch that the folder's removal ended is forgotten, so that :meth:`watch` adds
        it again when a folder of that name comes back."""
        told = False
        while True:
            try:
                events = os.read(self.fileno, 65536)
            except BlockingIOError:
                return told
            except InterruptedError:
                continue
            except OSError:
                return told
            if not events:
                return told
            offset = 0
            while offset + EVENT.size <= len(events):
                descriptor, mask, _cookie, length = EVENT.unpack_from(events, offset)
                offset += EVENT.size + length
                if descriptor != self._descriptor or self._descriptor < 0:
                    continue
                told = True
                if mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF):
                    self._descriptor = -1

    def close(self) -> None:
        if self.fileno >= 0:
            os.close(self.fileno)
            self.fileno = -1
