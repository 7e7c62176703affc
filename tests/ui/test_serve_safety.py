"""``tui-combat serve`` is safe to leave running: nobody gets the page or a view without the key printed at
start, no other web page can open a view, and the number of views at once is bounded.

Loopback only. The cap is tried on the server itself, in this process, with a view command that costs
nothing (``head -c 1``: it waits for the first byte, the "quit" the server sends when the tab goes), so
that seventeen tabs do not start seventeen views; the real ``tui-combat serve`` is started once, as the GM
would, for the key and the Origin.
"""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from tests.ui.test_serve_browser import free_port, stop
from tests.waiting import eventually
from tui_combat.running.serve import allowed_origins, bind_warning, players_application, serve

WAIT_LIMIT = 60.0
"""A bound on waiting for the server to start: not a measure of speed."""
TOKEN = "key-for-this-test"


@pytest.fixture
async def cheap_server() -> AsyncIterator[str]:
    """The players' server on the loopback, at most 16 viewers, each view a process that does nothing."""
    port = free_port()
    application = players_application("head -c 1 > /dev/null", host="127.0.0.1", port=port, token=TOKEN, max_viewers=16)
    runner = web.AppRunner(application)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", port).start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        await runner.cleanup()


async def refused(http: aiohttp.ClientSession, url: str, **headers: str) -> int:
    with pytest.raises(aiohttp.WSServerHandshakeError) as error:
        await http.ws_connect(url, headers=headers)
    return error.value.status


async def test_the_seventeenth_viewer_is_told_there_are_too_many(cheap_server: str) -> None:
    origin = f"http://{cheap_server}"
    async with aiohttp.ClientSession() as http:
        sockets = [
            await http.ws_connect(f"ws://{cheap_server}/ws/{TOKEN}", headers={"Origin": origin}) for _ in range(16)
        ]
        try:
            extra = await http.ws_connect(f"ws://{cheap_server}/ws/{TOKEN}", headers={"Origin": origin})
            message = await asyncio.wait_for(extra.receive(), WAIT_LIMIT)
            assert message.type == aiohttp.WSMsgType.BINARY
            assert "Too many viewers: this server shows the fight to 16 at once." in message.data.decode()
            assert (await asyncio.wait_for(extra.receive(), WAIT_LIMIT)).type in (
                aiohttp.WSMsgType.CLOSE,
                aiohttp.WSMsgType.CLOSED,
            )
            await extra.close()
            await sockets.pop().close()  # one tab closed: there is room again
            again: Any = None
            for _ in range(int(WAIT_LIMIT / 0.1)):
                again = await http.ws_connect(f"ws://{cheap_server}/ws/{TOKEN}", headers={"Origin": origin})
                try:
                    first = await asyncio.wait_for(again.receive(), 0.3)
                except TimeoutError:
                    break  # a view: it says nothing until the process does
                assert "Too many viewers" in first.data.decode()
                await again.close()
                await asyncio.sleep(0.1)
            else:
                raise AssertionError("no room came back after a tab closed")
            sockets.append(again)
        finally:
            for socket in sockets:
                await socket.close()


async def test_the_page_and_the_socket_need_the_key_and_the_socket_its_own_page(cheap_server: str) -> None:
    origin = f"http://{cheap_server}"
    async with aiohttp.ClientSession() as http:
        for query in ("", "?token=", "?token=guess"):
            async with http.get(f"http://{cheap_server}/{query}") as response:
                assert response.status == 403
                assert "needs the address tui-combat serve printed" in await response.text()
        async with http.get(f"http://{cheap_server}/?token={TOKEN}") as response:
            assert response.status == 200
            assert f'data-session-websocket-url="ws://{cheap_server}/ws/{TOKEN}"' in await response.text()
        assert await refused(http, f"ws://{cheap_server}/ws/guess", Origin=origin) == 403
        assert await refused(http, f"ws://{cheap_server}/ws/{TOKEN}", Origin="http://evil.example") == 403
        assert await refused(http, f"ws://{cheap_server}/ws/{TOKEN}") == 403  # no Origin: not a page of ours
        socket = await http.ws_connect(f"ws://{cheap_server}/ws/{TOKEN}", headers={"Origin": origin})
        await socket.close()


def test_the_origins_allowed_are_the_served_address_and_the_public_one() -> None:
    assert allowed_origins("127.0.0.1", 8000, None) == {
        "http://127.0.0.1:8000",
        "http://localhost:8000",
        "http://[::1]:8000",
    }
    assert allowed_origins("0.0.0.0", 8000, "https://Table.example/") == {
        "http://0.0.0.0:8000",
        "https://table.example",
    }


PRINTED_LATER: dict[int, tuple[list[str], threading.Thread]] = {}
"""What each server (by process id) printed after its address, read on so that the pipe never fills."""


async def printed_address(process: subprocess.Popen[str]) -> str:
    """The page's address with its key, from what the server prints as it starts (what it prints after is
    kept in :data:`PRINTED_LATER`)."""
    assert process.stdout is not None
    stdout = process.stdout
    for _ in range(20):
        line = await asyncio.wait_for(asyncio.to_thread(stdout.readline), WAIT_LIMIT)
        if not line:
            raise AssertionError(f"tui-combat serve printed no address and stopped (exit code {process.poll()})")
        found = re.search(r"http://\S+\?token=[\w-]+", line)
        if found:
            later: list[str] = []
            reader = threading.Thread(target=lambda: later.extend(stdout), daemon=True)
            reader.start()
            PRINTED_LATER[process.pid] = (later, reader)
            return found.group(0)
    raise AssertionError("tui-combat serve printed no address with a key")


@pytest.fixture
def real_server(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], int]]:
    port = free_port()
    environment = {**os.environ, "TUI_COMBAT_CONFIG_DIR": str(tmp_path / "config")}
    process = subprocess.Popen(
        [sys.executable, "-m", "tui_combat", "--data-dir", str(tmp_path / "data"), "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=environment,
        text=True,
        start_new_session=True,
    )
    try:
        yield process, port
    finally:
        stop(process)


async def accepts(port: int) -> bool:
    """Whether something listens on ``port`` of this computer."""
    try:
        _reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        return False
    writer.close()
    await writer.wait_closed()
    return True


async def test_tui_combat_serve_prints_the_address_with_its_key_and_refuses_without(
    real_server: tuple[subprocess.Popen[str], int],
) -> None:
    process, port = real_server
    found = re.search(rf"http://127\.0\.0\.1:{port}/\?token=([\w-]+)", await printed_address(process))
    assert found
    token = found.group(1)
    assert len(token) >= 20
    await eventually(lambda: accepts(port), f"the server to listen on {port}")  # it may print first
    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{port}/") as response:
            assert response.status == 403
        async with http.get(found.group(0)) as response:
            assert response.status == 200 and "textual-terminal" in await response.text()
        assert await refused(http, f"ws://127.0.0.1:{port}/ws/{token}x", Origin=f"http://127.0.0.1:{port}") == 403
        assert await refused(http, f"ws://127.0.0.1:{port}/ws/{token}", Origin="http://attacker.example") == 403
    stop(process)  # all it printed, to the end
    later, reader = PRINTED_LATER.pop(process.pid)
    reader.join(WAIT_LIMIT)
    assert not reader.is_alive()
    assert not [line for line in later if token in line], later  # no access log line with the key


def test_a_server_bound_beyond_this_computer_warns_and_a_cap_below_one_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert bind_warning("127.0.0.1", 8000) == "" and bind_warning("localhost", 8000) == ""
    assert bind_warning("0.0.0.0", 8000).startswith("Warning: listening on 0.0.0.0, not this computer only")
    assert "reverse proxy with TLS" in bind_warning("192.168.1.20", 8000)
    assert serve(tmp_path, max_viewers=0) == 2  # refused before anything is bound
    assert "--max-viewers: at least 1." in capsys.readouterr().err
