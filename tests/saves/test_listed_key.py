"""``tui-combat resume KEY`` finds the session by its key without reading every session's files, and finds
exactly what the list would have found."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.saves.helpers import small_fight
from tui_combat import __main__ as cli
from tui_combat.saves import session_folders
from tui_combat.saves.schema import JOURNAL, SNAPSHOT
from tui_combat.saves.session_folders import is_listed_key, list_sessions


@pytest.fixture
def root(tmp_path: Path) -> Path:
    root = tmp_path / "data"
    small_fight(root / "sessions" / "fight").close()
    store = small_fight(root / "sessions" / "other")
    store.close()
    return root


def test_a_listed_key_is_known_without_the_list(root: Path) -> None:
    assert [info.key for info in list_sessions(root) if info.key == "fight"] == ["fight"]
    assert is_listed_key(root, "fight")


@pytest.mark.parametrize(
    "name", ["Fight", "fight ", "nothing", "", ".", "..", "../data/sessions/fight", "sessions/fight"]
)
def test_anything_but_a_key_as_listed_is_left_to_the_list(root: Path, name: str) -> None:
    assert not is_listed_key(root, name)


def test_a_folder_without_a_session_file_or_a_link_is_left_to_the_list(root: Path, tmp_path: Path) -> None:
    (root / "sessions" / "empty").mkdir()
    (root / "sessions" / "linked").symlink_to(root / "sessions" / "fight")
    (root / "sessions" / "plain-file").write_text("x")
    assert (
        not is_listed_key(root, "empty") and not is_listed_key(root, "linked") and not is_listed_key(root, "plain-file")
    )
    only_a_journal = root / "sessions" / "journal-only"
    only_a_journal.mkdir()
    (only_a_journal / JOURNAL).write_bytes(b"")
    assert is_listed_key(root, "journal-only")  # listed (as damaged): resume then says what is wrong
    assert "journal-only" in {info.key for info in list_sessions(root)}


def test_resume_by_key_reads_no_session_file_before_the_app_starts(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read: list[str] = []

    def no_list(*args: object, **kwargs: object) -> list[session_folders.SessionInfo]:
        read.append("list")
        return []

    monkeypatch.setattr(session_folders, "list_sessions", no_list)
    monkeypatch.setattr("tui_combat.fight.session.list_sessions", no_list)
    assert cli._session_key(root, "fight") == "fight"
    assert read == []
    (root / "sessions" / "fight" / SNAPSHOT).unlink()
    os.unlink(root / "sessions" / "fight" / JOURNAL)
    cli._session_key(root, "fight")  # no session file left: the list decides (here: there is none)
    assert read == ["list"]
