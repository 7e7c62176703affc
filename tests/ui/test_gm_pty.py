"""The GM's app on a pseudo-terminal that is hung up (the SSH connection dropped, ``kill -HUP``) or asked to
stop (``kill``): it saves the fight as q does (the journal compacted into a snapshot) and leaves without a
traceback, giving the terminal its normal screen back."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.ui.fights import saved_round
from tests.ui.test_view_pty import READ_LIMIT_SECONDS, Terminal, become_the_terminals_session, set_size
from tui_combat.engine import actions as a
from tui_combat.store import Store


@contextmanager
def gm_in_a_pty(data: Path, config: Path, key: str) -> Iterator[Terminal]:
    master, slave = os.openpty()
    set_size(slave, 24, 80)
    environment = {name: value for name, value in os.environ.items() if not name.startswith(("TEXTUAL", "PYTEST"))}
    environment.update({"TERM": "xterm-256color", "TUI_COMBAT_CONFIG_DIR": str(config), "LANG": "C.UTF-8",
                        "LANGUAGE": "en"})
    environment.pop("COLUMNS", None)
    environment.pop("LINES", None)
    process = subprocess.Popen([sys.executable, "-m", "tui_combat", "--data-dir", str(data), "resume", key],
                               stdin=slave, stdout=slave, stderr=slave, env=environment, start_new_session=True,
                               preexec_fn=become_the_terminals_session, close_fds=True)
    os.close(slave)
    terminal = Terminal(master, process)
    try:
        yield terminal
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        try:
            os.close(master)
        except OSError:
            pass


def journal_lines(folder: Path) -> int:
    return len((folder / "journal.jsonl").read_bytes().splitlines())


@pytest.mark.parametrize("stop", [signal.SIGHUP, signal.SIGTERM])
def test_a_hang_up_or_a_stop_saves_the_fight_and_leaves(tmp_path: Path, stop: signal.Signals) -> None:
    data = tmp_path / "data"
    folder = saved_round(data, "ambush", ["Raf"], 2)
    store = Store.resume(folder)
    store.dispatch(a.Damage(combatant=store.state.combatants[0].id, amount=3))
    store.close()
    assert journal_lines(folder) > 1  # the damage is in the journal, after the snapshot
    with gm_in_a_pty(data, tmp_path / "config", "ambush") as terminal:
        terminal.read_until(b"Round", b"Orc 2")
        terminal.process.send_signal(stop)
        assert terminal.process.wait(timeout=READ_LIMIT_SECONDS) == 0
        terminal.drain()
    assert b"Traceback" not in terminal.output
    assert b"\x1b[?1049l" in terminal.output  # the terminal's normal screen is given back
    assert journal_lines(folder) == 1  # saved as on quit: the snapshot holds the damage, the journal is empty
    assert Store.resume(folder, read_only=True).state.combatants[0].hp == 17


def test_the_connection_dropping_saves_the_fight(tmp_path: Path) -> None:
    data = tmp_path / "data"
    folder = saved_round(data, "ambush", ["Raf"], 2)
    store = Store.resume(folder)
    store.dispatch(a.Damage(combatant=store.state.combatants[0].id, amount=3))
    store.close()
    with gm_in_a_pty(data, tmp_path / "config", "ambush") as terminal:
        terminal.read_until(b"Round", b"Orc 2")
        os.close(terminal.master)  # sshd closes the pty: the kernel hangs the session up
        assert terminal.process.wait(timeout=READ_LIMIT_SECONDS) == 0
    assert journal_lines(folder) == 1
    assert Store.resume(folder, read_only=True).state.combatants[0].hp == 17
