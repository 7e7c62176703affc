"""A session folder opened once and reached only through that handle.

Every file is opened relative to the folder's descriptor with ``O_NOFOLLOW``, so neither the folder
nor a file in it can be swapped for a symbolic link that sends a read or a write elsewhere. Files are
created 0600 and folders 0700, set explicitly (the umask is not trusted to do it).

Whole files are replaced atomically: a temp file in the same folder → write → fsync → rename → fsync
the folder. A crash leaves the old file or the new one, plus at worst a temp file that
:meth:`Folder.remove_temp_files` clears the next time the session is opened for writing.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path

from tui_combat.i18n import _
from tui_combat.saves.errors import SaveError

FILE_MODE = 0o600
FOLDER_MODE = 0o700
TEMP_SUFFIX = ".tmp"
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC


def explain(error: OSError) -> str:
    return error.strerror or str(error)


def _random_hex() -> str:
    """12 random hex digits for a temporary file's name (what ``secrets.token_hex(6)`` gives, without
    importing ``secrets``, ``hmac`` and ``hashlib`` at start-up)."""
    return os.urandom(6).hex()


def is_temp_name(name: str) -> bool:
    return name.startswith(".") and name.endswith(TEMP_SUFFIX)


def make_private_folders(path: Path) -> None:
    """Create ``path`` and any missing parents, each 0700 whatever the umask; existing ones are left alone."""
    missing: list[Path] = []
    current = path
    while not os.path.lexists(current):
        missing.append(current)
        if current.parent == current:
            break
        current = current.parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, FOLDER_MODE)
        except FileExistsError:
            continue
        os.chmod(folder, FOLDER_MODE)


def _refusal(path: Path, error: OSError) -> SaveError:
    if error.errno in (errno.ELOOP, errno.ENOTDIR) and os.path.islink(path):
        return SaveError(
            _("{path} is a symbolic link: tui-combat does not follow links inside its data folder.", path=path)
        )
    if error.errno == errno.ENOENT:
        return SaveError(_("{path} does not exist.", path=path))
    if error.errno == errno.ENOTDIR:
        return SaveError(_("{path} is not a folder.", path=path))
    return SaveError(_("Cannot open {path}: {error}", path=path, error=explain(error)))


class Folder:
    """An open directory; file names given to its methods are single names inside it."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self.fd = fd

    @classmethod
    def open(cls, path: Path, *, create: bool = False) -> Folder:
        """Open ``path`` (creating it 0700 when asked); a symbolic link is refused. Raises :class:`SaveError`."""
        if create:
            try:
                make_private_folders(path)
            except OSError as error:
                raise SaveError(_("Cannot write {path}: {error}", path=path, error=explain(error))) from None
        try:
            return cls(path, os.open(path, _DIR_FLAGS))
        except OSError as error:
            raise _refusal(path, error) from None

    def subfolder(self, name: str, *, create: bool) -> Folder:
        """A folder inside this one (created 0700 when asked and missing). Raises :class:`OSError`."""
        if create:
            try:
                os.mkdir(name, FOLDER_MODE, dir_fd=self.fd)
                os.chmod(name, FOLDER_MODE, dir_fd=self.fd, follow_symlinks=False)
            except FileExistsError:
                pass
        try:
            return Folder(self.path / name, os.open(name, _DIR_FLAGS, dir_fd=self.fd))
        except OSError as error:
            raise _refusal(self.path / name, error) from None

    def make_private(self) -> None:
        try:
            os.fchmod(self.fd, FOLDER_MODE)
        except OSError:
            pass

    def close(self) -> None:
        if self.fd >= 0:
            try:
                os.close(self.fd)  # also releases the lock, if this handle held it
            except OSError:
                pass
            self.fd = -1

    # -- the writer's lock -------------------------------------------------------------------------
    def try_lock(self) -> bool:
        """Take the one-writer lock on this folder; False when another handle (any process) holds it."""
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        except OSError:
            return True  # a file system without flock: nothing to coordinate with, as before locks existed
        return True

    # -- reading -----------------------------------------------------------------------------------
    def read(self, name: str) -> bytes | None:
        """The whole file, or None when it does not exist. Raises :class:`OSError` (``ELOOP`` for a link)."""
        try:
            fd = os.open(name, _READ_FLAGS, dir_fd=self.fd)
        except FileNotFoundError:
            return None
        try:
            # One read of the size it has (one copy in memory, not chunks and their join), then on until
            # the end in case it grew meanwhile.
            chunks: list[bytes] = [os.read(fd, max(os.fstat(fd).st_size, 0) + 1)]
            while chunks[-1]:
                chunks.append(os.read(fd, 1 << 20))
            return chunks[0] if len(chunks) <= 2 else b"".join(chunks)
        finally:
            os.close(fd)

    def read_first_line(self, name: str, limit: int = 1 << 20) -> bytes | None:
        """The file's first line (without its newline, at most ``limit`` bytes), or None when it does not exist."""
        try:
            fd = os.open(name, _READ_FLAGS, dir_fd=self.fd)
        except FileNotFoundError:
            return None
        try:
            chunks: list[bytes] = []
            size = 0
            while size < limit:
                chunk = os.read(fd, 65536)
                if not chunk:
                    break
                end = chunk.find(b"\n")
                if end >= 0:
                    chunks.append(chunk[:end])
                    break
                chunks.append(chunk)
                size += len(chunk)
            return b"".join(chunks)[:limit]
        finally:
            os.close(fd)

    def read_tail(self, name: str, size: int) -> bytes | None:
        """The last ``size`` bytes of the file, or None when it does not exist."""
        try:
            fd = os.open(name, _READ_FLAGS, dir_fd=self.fd)
        except FileNotFoundError:
            return None
        try:
            end = os.lseek(fd, 0, os.SEEK_END)
            os.lseek(fd, max(end - size, 0), os.SEEK_SET)
            return os.read(fd, size)
        finally:
            os.close(fd)

    def mtime(self, name: str) -> float:
        try:
            return os.stat(name, dir_fd=self.fd, follow_symlinks=False).st_mtime
        except OSError:
            return 0.0

    def exists(self, name: str) -> bool:
        try:
            os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except OSError:
            return False
        return True

    def names(self) -> list[str]:
        return os.listdir(self.fd)

    # -- writing -----------------------------------------------------------------------------------
    def _create_temp(self, name: str) -> tuple[str, int]:
        while True:
            temp = f".{name}.{_random_hex()}{TEMP_SUFFIX}"
            try:
                fd = os.open(
                    temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE, dir_fd=self.fd
                )
            except FileExistsError:
                continue
            os.fchmod(fd, FILE_MODE)
            return temp, fd

    def write_atomic(self, name: str, data: bytes) -> None:
        """Replace ``name`` with ``data`` so that a crash leaves the old file or the new one. Raises
        :class:`OSError`."""
        temp, fd = self._create_temp(name)
        try:
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view) :]
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(temp, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException:
            self.remove(temp)
            raise
        self.sync()

    def keep_copy(self, name: str, copy: str) -> None:
        """Make ``copy`` hold what ``name`` holds now (atomically; a hard link when the file system allows it)."""
        if not self.exists(name):
            return
        temp = f".{copy}.{_random_hex()}{TEMP_SUFFIX}"
        try:
            os.link(name, temp, src_dir_fd=self.fd, dst_dir_fd=self.fd, follow_symlinks=False)
        except OSError:
            data = self.read(name)
            if data is not None:
                self.write_atomic(copy, data)
            return
        try:
            os.replace(temp, copy, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException:
            self.remove(temp)
            raise
        self.sync()

    def open_append(self, name: str) -> int:
        fd = os.open(
            name, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, FILE_MODE, dir_fd=self.fd
        )
        try:
            os.fchmod(fd, FILE_MODE)
        except OSError:
            os.close(fd)
            raise
        return fd

    def truncate(self, name: str, length: int) -> None:
        fd = os.open(name, os.O_WRONLY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=self.fd)
        try:
            os.ftruncate(fd, length)
            os.fsync(fd)
        finally:
            os.close(fd)

    def remove(self, name: str) -> None:
        try:
            os.unlink(name, dir_fd=self.fd)
        except OSError:
            pass

    def remove_temp_files(self) -> int:
        """Delete what interrupted atomic writes left behind; returns how many."""
        removed = 0
        try:
            names = self.names()
        except OSError:
            return 0
        for name in names:
            if is_temp_name(name):
                self.remove(name)
                removed += 1
        return removed

    def sync(self) -> None:
        try:
            os.fsync(self.fd)
        except OSError:
            pass
