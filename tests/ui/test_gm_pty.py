"""The GM's app on a pseudo-terminal that is hung up (the SSH connection dropped, ``kill -HUP``) or asked to
stop (``kill``): it saves the fight as q does (the journal compacted into a snapshot) and leaves without a
traceback, giving the terminal its normal screen back."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.ui.fights import saved_round
from tests.ui.test_view_pty import READ_LIMIT_SECONDS, Terminal, in_a_pty
from tui_combat.engine import actions as a
from tui_combat.fight.store import Store


@contextmanager
def gm_in_a_pty(data: Path, config: Path, key: str) -> Iterator[Terminal]:
    with in_a_pty(["--data-dir", str(data), "resume", key], config, LANGUAGE="en") as terminal:
        yield terminal


def journal_lines(folder: Path) -> int:
    return len((folder / "journal.jsonl").read_bytes().splitlines())


def until_stopped(pid: int) -> None:
    deadline = time.monotonic() + READ_LIMIT_SECONDS
    while Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "T":
        assert time.monotonic() < deadline, "the app never stopped"
        time.sleep(0.01)


def damage_in_the_journal(tmp_path: Path) -> tuple[Path, Path]:
    """A fight in its round whose first combatant took 3 damage since its snapshot; (data folder, its folder)."""
    data = tmp_path / "data"
    folder = saved_round(data, "ambush", ["Raf"], 2)
    store = Store.resume(folder)
    store.dispatch(a.Damage(combatant=store.state.combatants[0].id, amount=3))
    store.close()
    assert journal_lines(folder) > 1  # the damage is in the journal, after the snapshot
    return data, folder


@pytest.mark.parametrize("stop", [signal.SIGHUP, signal.SIGTERM])
def test_a_hang_up_or_a_stop_saves_the_fight_and_leaves(tmp_path: Path, stop: signal.Signals) -> None:
    data, folder = damage_in_the_journal(tmp_path)
    with gm_in_a_pty(data, tmp_path / "config", "ambush") as terminal:
        terminal.read_until(b"Round", b"Orc 2")
        terminal.process.send_signal(stop)
        terminal.drain()
        assert terminal.process.wait(timeout=READ_LIMIT_SECONDS) == 0
    assert b"Traceback" not in terminal.output
    assert b"\x1b[?1049l" in terminal.output  # the terminal's normal screen is given back
    assert journal_lines(folder) == 1  # saved as on quit: the snapshot holds the damage, the journal is empty
    assert Store.resume(folder, read_only=True).state.combatants[0].hp == 17


def test_the_connection_dropping_saves_the_fight(tmp_path: Path) -> None:
    data, folder = damage_in_the_journal(tmp_path)
    with gm_in_a_pty(data, tmp_path / "config", "ambush") as terminal:
        terminal.read_until(b"Round", b"Orc 2")
        os.close(terminal.master)  # sshd closes the pty: the kernel hangs the session up
        assert terminal.process.wait(timeout=READ_LIMIT_SECONDS) == 0
    assert journal_lines(folder) == 1
    assert Store.resume(folder, read_only=True).state.combatants[0].hp == 17


def test_a_stray_continue_signal_changes_nothing(tmp_path: Path) -> None:
    """The kernel sends SIGCONT with every hang-up (and ``kill -CONT`` may come at any time): only the end of a
    Ctrl+Z may start the terminal's application mode again. Started twice, the app entered the alternate
    screen again, took the raw terminal for the one to give back on quitting, and could hang on leaving."""
    data, _folder = damage_in_the_journal(tmp_path)
    with gm_in_a_pty(data, tmp_path / "config", "ambush") as terminal:
        terminal.read_until(b"Round", b"Orc 2")
        terminal.process.send_signal(signal.SIGCONT)
        os.write(terminal.master, b"n")  # a key after the signal is still answered, once
        terminal.read_until(b"Orc 2")
        os.write(terminal.master, b"q")
        terminal.drain()  # read as it leaves: a terminal nobody reads would hold up its last frames
        assert terminal.process.wait(timeout=READ_LIMIT_SECONDS) == 0
    assert terminal.output.count(b"\x1b[?1049h") == 1  # the alternate screen entered once, when the app started
    assert b"Traceback" not in terminal.output


def test_a_stop_and_a_continue_give_the_terminal_back_and_take_it_again(tmp_path: Path) -> None:
    """Job control (``kill -TSTP``, then ``fg``): the shell gets its normal screen while the app is stopped, and
    the app takes the terminal again when continued, answering keys as before."""
    data, _folder = damage_in_the_journal(tmp_path)
    with gm_in_a_pty(data, tmp_path / "config", "ambush") as terminal:
        terminal.read_until(b"Round", b"Orc 2")
        terminal.process.send_signal(signal.SIGTSTP)
        terminal.read_until(b"\x1b[?1049l")  # the normal screen given back as it stops
        until_stopped(terminal.process.pid)
        terminal.process.send_signal(signal.SIGCONT)
        terminal.read_until(b"\x1b[?1049h", b"Orc 2")  # taken again, and drawn
        os.write(terminal.master, b"q")
        terminal.drain()
        assert terminal.process.wait(timeout=READ_LIMIT_SECONDS) == 0
    assert b"Traceback" not in terminal.output
