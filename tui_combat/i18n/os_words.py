"""The operating system's words for a failed file operation, in the GM's language: Python gives them in
English whatever the locale ("No such file or directory")."""

from __future__ import annotations

import errno

from tui_combat.i18n import N_, _

OS_WORDS: dict[int, str] = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EROFS: N_("Read-only file system"),
}


def os_error_text(error: OSError) -> str:
    """Why a file could not be read or written, in the GM's language when the reason is a common one."""
    words = OS_WORDS.get(error.errno or 0)
    return _(words) if words is not None else (error.strerror or str(error))
