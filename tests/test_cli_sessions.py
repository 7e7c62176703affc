"""The command line and sessions: ``resume`` by the name ``list`` shows, clear errors for unknown and
ambiguous names, and no screen without a terminal (the commands that need none still work)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.common import DEMO
from tui_combat.engine import actions as a
from tui_combat.fight import session
from tui_combat.fight.store import Store, new_state
from tui_combat.saves.schema import JOURNAL

TROLLS = "Trolls and orcs in the tunnel"
NO_TERMINAL = "only in a terminal"
GUARD = 60
"""Seconds after which a command is taken to hang (the bug was a command spinning for ever)."""


def run(data: Path, *args: str, stdin: int | None = subprocess.DEVNULL) -> subprocess.CompletedProcess[str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("TEXTUAL")}
    env["LANG"] = env["LANGUAGE"] = "C.UTF-8"  # the messages below are the English ones
    return subprocess.run(
        [sys.executable, "-m", "tui_combat", "--data-dir", str(data), *args],
        stdin=stdin,
        capture_output=True,
        text=True,
        timeout=GUARD,
        check=False,
        env=env,
    )


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """One saved session: the AD&D demo, started and saved in the first step of round 1."""
    root = tmp_path / "data"
    store = session.open_demo(root, "demo_adnd2e.toml", seed=1)
    store.dispatch(a.StartFight())
    store.save_now()
    store.close()
    return root


@pytest.mark.parametrize(
    "args",
    [[], ["resume", "trolls AND orcs in the tunnel"], ["new", str(DEMO)], ["view"]],
    ids=["sessions", "resume", "new", "view"],
)
def test_without_a_terminal_the_screens_are_refused_at_once(data: Path, args: list[str]) -> None:
    result = run(data, *args)
    assert result.returncode == 2
    assert NO_TERMINAL in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""
    assert sorted(child.name for child in (data / "sessions").iterdir()) == ["trolls-and-orcs-in-the-tunnel"]


def test_a_terminal_on_stdin_alone_is_not_enough(data: Path) -> None:
    keyboard, terminal = os.openpty()
    try:
        result = run(data, "resume", TROLLS, stdin=terminal)  # the output is a pipe
    finally:
        os.close(keyboard)
        os.close(terminal)
    assert result.returncode == 2 and NO_TERMINAL in result.stderr


def test_an_unknown_name_is_an_error_whatever_the_terminal(data: Path) -> None:
    result = run(data, "resume", "goblins")
    assert result.returncode == 2
    assert result.stderr.strip() == "There is no saved session goblins."


def test_a_name_two_sessions_share_lists_them(data: Path) -> None:
    for key in ("ford", "ford-2"):  # as an older version could leave them
        store = Store.create(new_state(1, ruleset="adnd2e"), data / "sessions" / key)
        store.dispatch(a.SetName(name="Ford"))
        store.save_now()
        store.close()
    result = run(data, "resume", "FORD ")
    assert result.returncode == 2
    assert "Several saved sessions are called FORD" in result.stderr
    assert "\n  ford\tFord\t" in result.stderr and "\n  ford-2\tFord\t" in result.stderr


def test_the_commands_that_need_no_terminal_work_without_one(data: Path, tmp_path: Path) -> None:
    listed = run(data, "list")
    assert listed.returncode == 0, listed.stderr
    key, name, ruleset, progress, _saved = listed.stdout.rstrip("\n").split("\t")
    # AD&D 2e opens its round with the monsters' secret intentions.
    assert (key, name, ruleset, progress) == ("trolls-and-orcs-in-the-tunnel", TROLLS, "AD&D 2e", "round 1 · Monsters")

    assert run(data, "check", str(DEMO)).returncode == 0
    rolled = run(data, "roll", "2d6")
    assert rolled.returncode == 0 and rolled.stdout.startswith("2d6: [")

    with (data / "sessions" / key / JOURNAL).open("ab") as journal:
        journal.write(b"garbage\n")
    recovered = run(data, "recover", "TROLLS and orcs in the tunnel")  # by the listed name
    assert recovered.returncode == 0, recovered.stderr
    assert "trolls-and-orcs-in-the-tunnel-recovered" in recovered.stdout


def test_check_and_new_report_every_mistake_and_new_leaves_nothing(data: Path, tmp_path: Path) -> None:
    encounter = tmp_path / "ford.toml"
    encounter.write_text(
        'name = "Ford"\nruleset = "adnd"\n[[sides]]\nname = "A"\n[[sides.combatants]]\nname = "Raf"\nhpp = 3\n',
        encoding="utf-8",
    )
    for command in ("check", "new"):
        result = run(data, command, str(encounter))
        assert result.returncode == 2
        lines = result.stderr.strip().splitlines()
        assert lines[0].startswith(f'{encounter}, line 2: unknown ruleset "adnd" (did you mean "adnd2e"?)')
        assert lines[1] == f'{encounter}, line 5: side A, Raf: "hp" is missing.'
        assert lines[2].startswith(f'{encounter}, line 7: side A, Raf: unknown field "hpp"')
        assert len(lines) == 3
    assert sorted(child.name for child in (data / "sessions").iterdir()) == ["trolls-and-orcs-in-the-tunnel"]


@pytest.mark.skipif(not hasattr(os, "forkpty"), reason="needs a pseudo-terminal")
def test_in_a_terminal_resume_opens_the_session_by_its_listed_name(data: Path) -> None:
    from tests.ui.test_resume import Terminal

    env = {key: value for key, value in os.environ.items() if not key.startswith("TEXTUAL")}
    env.update(TERM="xterm-256color", LANG="C.UTF-8", LANGUAGE="C.UTF-8")
    terminal = Terminal(
        [sys.executable, "-m", "tui_combat", "--data-dir", str(data), "resume", "trolls and ORCS in the tunnel"], env
    )
    try:
        terminal.wait_for("the round screen", lambda: "Troll 1" in terminal.text() and "Round 1" in terminal.text())
        terminal.send("\x11")  # ctrl+q
        deadline = time.monotonic() + GUARD
        while terminal.alive() and time.monotonic() < deadline:
            terminal.read()
        status = terminal.status
    finally:
        terminal.kill()
    assert status is not None and os.waitstatus_to_exitcode(status) == 0


@pytest.mark.parametrize("name", ["n" * 256, "é" * 130, "x" * 10_000_000], ids=["256 bytes", "130 é", "10 MB"])
def test_a_name_too_long_for_a_folder_is_refused_with_a_message_by_every_command(
    data: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui_combat.__main__ import main

    for command in (["resume", name], ["view", name], ["export", name], ["recover", name], ["serve", name]):
        assert main(["--data-dir", str(data), *command]) == 2, command[0]
        error = capsys.readouterr().err
        assert "too long" in error and "Traceback" not in error and len(error) < 400, command[0]


def test_a_long_session_name_gives_a_folder_name_that_fits(tmp_path: Path) -> None:
    from tui_combat.saves.session_folders import new_session_folder

    for name in ("é" * 130, "𝔄" * 100, "a" * 300):
        folder = new_session_folder(tmp_path, name)
        assert len(folder.name.encode()) <= 120 and folder.is_dir()
        recovered = new_session_folder(tmp_path, f"{folder.name}-recovered")
        assert recovered.is_dir()


def test_a_symlinked_sessions_folder_is_refused_with_one_message_by_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui_combat.__main__ import main

    elsewhere = tmp_path / "elsewhere"
    store = session.new_empty(elsewhere, seed=1)
    key = store.folder.folder.name if store.folder is not None else ""
    store.close()
    root = tmp_path / "data"
    root.mkdir()
    (root / "sessions").symlink_to(elsewhere / "sessions")
    message = f"{root / 'sessions'} is a symbolic link"
    for command in (["list"], ["resume", key], ["view", key], ["export", key], ["recover", key], ["serve", key]):
        assert main(["--data-dir", str(root), *command]) == 2, command[0]
        assert message in capsys.readouterr().err, command[0]
    with pytest.raises(session.SessionError, match="symbolic link"):
        session.new_empty(root, seed=2)
    assert sorted(path.name for path in (elsewhere / "sessions").iterdir()) == [key]  # nothing made through the link


@pytest.mark.parametrize("command", [["roll", "1000d6"], ["list"], ["--help"]])
def test_output_to_a_closed_pipe_ends_quietly(data: Path, command: list[str]) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("TEXTUAL")}
    with subprocess.Popen(
        [sys.executable, "-m", "tui_combat", "--data-dir", str(data), *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=env,
    ) as process:
        assert process.stdout is not None and process.stderr is not None
        process.stdout.close()  # the reader is gone before anything is written, as after `| head -c 0`
        error = process.stderr.read().decode()
        assert process.wait(timeout=GUARD) in (0, 2) and "Traceback" not in error and "BrokenPipe" not in error, error


def test_a_data_folder_that_is_a_symbolic_link_is_followed_by_every_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The GM may keep the data folder on another disk: the link to it is followed, by every command alike."""
    from tui_combat.__main__ import main

    real = tmp_path / "real"
    store = session.new_empty(real, seed=1)
    key = store.folder.folder.name if store.folder is not None else ""
    store.close()
    root = tmp_path / "data"
    root.symlink_to(real)
    assert main(["--data-dir", str(root), "list"]) == 0
    assert capsys.readouterr().out.startswith(f"{key}\t")
    assert main(["--data-dir", str(root), "export", key]) == 0
    capsys.readouterr()
    opened = session.resume(root, key)
    assert not opened.read_only
    opened.close()
    created = session.new_empty(root, seed=2)
    assert created.folder is not None and created.folder.folder.parent == root / "sessions"
    created.close()
    assert len(list((real / "sessions").iterdir())) == 2
