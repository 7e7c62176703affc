"""Private files, no symbolic link followed inside the data folder, and only plain session names resumed."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.saves.helpers import damage_round, fingerprint, small_fight
from tui_combat.__main__ import main
from tui_combat.engine import actions as a
from tui_combat.fight.store import Store
from tui_combat.saves.errors import SaveError
from tui_combat.saves.schema import JOURNAL, SNAPSHOT
from tui_combat.saves.session_folders import SYMLINK, list_sessions, session_folder


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The most permissive umask: whatever is private is so because the code set it."""
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


def modes(folder: Path) -> dict[str, int]:
    return {str(path.relative_to(folder)): stat.S_IMODE(path.lstat().st_mode) for path in [folder, *folder.rglob("*")]}


def test_files_are_0600_and_folders_0700_whatever_the_umask(tmp_path: Path, open_umask: None) -> None:
    root = tmp_path / "data"
    folder = root / "sessions" / "fight"
    store = small_fight(folder)
    store.save_now()  # rotation: a previous snapshot and journal, a re-created journal
    damage_round(store, 2)
    store.close()
    assert stat.S_IMODE(root.stat().st_mode) == 0o700
    assert stat.S_IMODE((root / "sessions").stat().st_mode) == 0o700
    found = modes(folder)
    assert len(found) >= 5
    for name, mode in found.items():
        assert mode == (0o700 if (folder / name).is_dir() else 0o600), (name, oct(mode))


def test_a_session_saved_with_open_permissions_is_made_private_when_next_written(tmp_path: Path) -> None:
    folder = tmp_path / "fight"
    small_fight(folder).close()
    folder.chmod(0o755)
    (folder / JOURNAL).chmod(0o644)
    before = fingerprint(folder)
    store = Store.resume(folder)
    assert fingerprint(folder) == before  # opening is reading, even of permissions
    store.dispatch(a.Note(text="now written"))
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE((folder / JOURNAL).stat().st_mode) == 0o600
    store.close()


def test_a_symlinked_session_is_refused_and_its_target_untouched(tmp_path: Path) -> None:
    root = tmp_path / "data"
    elsewhere = tmp_path / "elsewhere"
    small_fight(elsewhere).close()
    (root / "sessions").mkdir(parents=True)
    link = root / "sessions" / "linked"
    link.symlink_to(elsewhere, target_is_directory=True)
    before = fingerprint(elsewhere)

    with pytest.raises(SaveError, match="symbolic link"):
        Store.resume(link)
    with pytest.raises(SaveError, match="symbolic link"):
        session_folder(root, "linked")
    created = Store.create(Store.resume(elsewhere, read_only=True).state, link)
    assert created.unsaved and "symbolic link" in created.save_problem
    (info,) = list_sessions(root)
    assert info.key == "linked" and info.problem == SYMLINK
    assert main(["--data-dir", str(root), "resume", "linked"]) == 2
    assert fingerprint(elsewhere) == before


@pytest.mark.parametrize("name", [SNAPSHOT, JOURNAL])
def test_a_symlinked_file_in_a_session_is_refused_and_its_target_untouched(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "fight"
    small_fight(folder).close()
    outside = tmp_path / "outside.txt"
    outside.write_bytes((folder / name).read_bytes())
    (folder / name).unlink()
    (folder / name).symlink_to(outside)
    before = outside.read_bytes()
    with pytest.raises(SaveError, match="symbolic link"):
        Store.resume(folder)
    assert outside.read_bytes() == before


def test_a_symlinked_sessions_folder_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "data"
    root.mkdir()
    real = tmp_path / "real-sessions"
    small_fight(real / "fight").close()
    (root / "sessions").symlink_to(real, target_is_directory=True)
    with pytest.raises(SaveError, match="symbolic link"):
        session_folder(root, "fight")


@pytest.mark.parametrize("name", ["../x", "../../etc", "/tmp/x", "a/b", "..", ".", "", "a\\b", "x\0y"])
def test_only_a_plain_name_inside_the_sessions_folder_is_resumed(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    root = tmp_path / "data"
    small_fight(tmp_path / "x").close()  # what "../x" would reach from the data folder
    before = fingerprint(tmp_path / "x")
    with pytest.raises(SaveError, match="not the name of a saved session"):
        session_folder(root, name)
    if "\0" not in name:  # argv cannot carry a NUL
        assert main(["--data-dir", str(root), "resume", name]) == 2
        assert main(["--data-dir", str(root), "recover", name]) == 2
        assert "not the name of a saved session" in capsys.readouterr().err
    assert fingerprint(tmp_path / "x") == before


def test_a_plain_name_is_accepted(tmp_path: Path) -> None:
    root = tmp_path / "data"
    assert session_folder(root, "бой-в-туннеле") == root / "sessions" / "бой-в-туннеле"
