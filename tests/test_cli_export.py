"""``tui-combat export NAME``: the report of a saved fight on stdout or in a file, the players' form, and plain
messages with exit code 2 for an unknown session or a file that cannot be written."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_report import two_rounds
from tui_combat.fight import session
from tui_combat.saves.locations import sessions_dir

TROLLS = "Trolls and orcs in the tunnel"


def run(data: Path, *args: str, config: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("TEXTUAL")}
    env["LANG"] = env["LANGUAGE"] = "C.UTF-8"  # the messages below are the English ones
    env["TUI_COMBAT_CONFIG_DIR"] = str(config or data / "no-config")
    return subprocess.run(
        [sys.executable, "-m", "tui_combat", "--data-dir", str(data), *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
        check=False,
        env=env,
    )


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The AD&D demo after two rounds (tests/test_report.py), saved as the session ``trolls``."""
    root = tmp_path_factory.mktemp("export") / "data"
    store = two_rounds(sessions_dir(root) / "trolls")
    store.save_now()
    store.close()
    return root


def test_the_report_is_printed_by_the_name_list_shows(data: Path) -> None:
    result = run(data, "export", "trolls AND orcs in the tunnel")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"# {TROLLS}\n")
    assert "## Round 2" in result.stdout and "- Orc 1 takes 6 damage (1d8+1: [5] + 1 = 6): 0/5 HP." in result.stdout
    assert "🔒 Troll 2 smells the wizard" in result.stdout
    assert result.stderr == ""


def test_the_public_json_goes_to_a_file(data: Path, tmp_path: Path) -> None:
    target = tmp_path / "for-players.json"
    result = run(data, "export", "trolls", "--public", "--format", "json", "--output", str(target))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"Report written to {target}."
    report = json.loads(target.read_text(encoding="utf-8"))
    assert report["public"] is True and [r["number"] for r in report["rounds"]] == [0, 1, 2]
    text = target.read_text(encoding="utf-8")
    assert "smells the wizard" not in text and "first death" not in text and "0/5" not in text


def test_the_format_follows_the_file_name_and_the_gms_health_words(data: Path, tmp_path: Path) -> None:
    config = tmp_path / "config"
    config.mkdir()
    (config / "players-view.toml").write_text('[health.words]\nunhurt = "fresh"\n', encoding="utf-8")
    target = tmp_path / "report.html"
    result = run(data, "export", "trolls", "--public", "-o", str(target), config=config)
    assert result.returncode == 0, result.stderr
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<td>Troll 1</td><td>fresh</td>" in page


def test_the_session_may_be_open_in_the_app_meanwhile(data: Path) -> None:
    store = session.resume(data, "trolls")  # the GM's copy, holding the session's lock
    try:
        assert not store.read_only
        result = run(data, "export", "trolls", "--format", "json")
    finally:
        store.close()
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["round"] == 2


def test_an_unknown_session_is_refused_plainly(data: Path) -> None:
    result = run(data, "export", "goblins")
    assert result.returncode == 2
    assert result.stderr.strip() == "There is no saved session goblins." and result.stdout == ""


def test_a_file_that_cannot_be_written_is_refused_plainly(data: Path, tmp_path: Path) -> None:
    result = run(data, "export", "trolls", "--output", str(tmp_path / "missing" / "report.md"))
    assert result.returncode == 2
    assert "the folder" in result.stderr and "does not exist" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == "" and not (tmp_path / "missing").exists()


def test_an_unknown_format_is_refused_by_the_parser(data: Path) -> None:
    result = run(data, "export", "trolls", "--format", "pdf")
    assert result.returncode == 2 and "invalid choice" in result.stderr and result.stdout == ""


def test_a_report_file_is_private_never_overwritten_without_force_and_never_written_through_a_link(
    data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui_combat.__main__ import main

    target = tmp_path / "report.md"
    assert main(["--data-dir", str(data), "export", "trolls", "--output", str(target)]) == 0
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    target.write_text("the GM's notes", encoding="utf-8")
    assert main(["--data-dir", str(data), "export", "trolls", "--output", str(target)]) == 2
    assert "--force" in capsys.readouterr().err and target.read_text(encoding="utf-8") == "the GM's notes"
    target.chmod(0o644)
    assert main(["--data-dir", str(data), "export", "trolls", "--output", str(target), "--force"]) == 0
    assert target.read_text(encoding="utf-8").startswith(f"# {TROLLS}") and stat.S_IMODE(target.stat().st_mode) == 0o600
    elsewhere = tmp_path / "elsewhere.md"
    elsewhere.write_text("not a report", encoding="utf-8")
    link = tmp_path / "link.md"
    link.symlink_to(elsewhere)
    for force in ([], ["--force"]):
        assert main(["--data-dir", str(data), "export", "trolls", "--output", str(link), *force]) == 2
        assert "symbolic link" in capsys.readouterr().err
    assert link.is_symlink() and elsewhere.read_text(encoding="utf-8") == "not a report"


@pytest.fixture(scope="module")
def escaped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fight saved before control characters in names were refused: its name, a side's and two combatants'
    hold escape sequences (one retitles the terminal, one turns it red, one is the 8-bit CSI)."""
    from tests.ui.fights import saved_round
    from tui_combat.engine import actions as a
    from tui_combat.engine.apply import apply
    from tui_combat.fight.store import Store

    root = tmp_path_factory.mktemp("escaped") / "data"
    folder = saved_round(root, "ambush", ["Raf\x1b]0;owned\x07"], 2, monster_name="Orc\x1b[31m")
    state = apply(Store.resume(folder, read_only=True).state, a.SetName(name="Am\x9b2Jbush"))
    Store.create(state, sessions_dir(root) / "ambush-2").close()
    return root


@pytest.mark.parametrize("form", ["md", "html", "json"])
def test_a_report_on_stdout_holds_no_escape_of_a_name(escaped: Path, form: str) -> None:
    result = run(escaped, "export", "ambush", "--format", form)
    assert result.returncode == 0, result.stderr
    assert not any(char in result.stdout for char in "\x1b\x07\x9b"), result.stdout[:400]
    if form == "json":
        names = [c["name"] for c in json.loads(result.stdout)["combatants"]]
        assert "Raf\x1b]0;owned\x07" in names  # the data as it is, its escapes written as JSON escapes
    else:
        assert "Raf␛]0;owned␇" in result.stdout and "Orc␛[31m 1" in result.stdout


def test_the_session_list_holds_no_escape_of_a_name(escaped: Path) -> None:
    result = run(escaped, "list")
    assert result.returncode == 0, result.stderr
    assert "Am\ufffd2Jbush" in result.stdout and "\x9b" not in result.stdout
