"""``tui-combat serve`` in a real headless browser: the page shows the turn order, follows the GM, and each
tab is its own view process.

The page draws the terminal with xterm.js on a canvas, so its text is not in the page's DOM. The test
reads xterm's own screen buffer over the Chrome DevTools Protocol: the page's terminal object is found
through the class its ``window.onresize`` handler closes over (``Runtime.queryObjects`` lists the
instances of that class), and each row of the buffer is read with ``translateToString``. That is the text
the page shows, row by row.

Needs Chromium (Debian's ``chromium`` package; ``.ci/run`` installs it); skipped, saying so, without it —
except under ``CI=true``, where a missing browser fails the test (CI must not pass with it unrun).
"""

from __future__ import annotations

import asyncio
import itertools
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.waiting import eventually
from tui_combat.engine import actions as a
from tui_combat.engine.dice import Roll
from tui_combat.fight import session
from tui_combat.fight.store import Store

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
WAIT_LIMIT = 90.0
"""A bound on waiting for the browser, the server and a view process to start: not a measure of speed."""
READ_TERMINAL = """
function () {
    const rows = [];
    for (const instance of this) {
        const terminal = instance.terminal;
        if (!terminal || !terminal.buffer) continue;
        const buffer = terminal.buffer.active;
        for (let row = 0; row < terminal.rows; row++) {
            const line = buffer.getLine(buffer.viewportY + row);
            rows.push(line ? line.translateToString(true) : "");
        }
    }
    return rows.join("\\n");
}
"""


def browser_path() -> str | None:
    chosen = os.environ.get("TUI_COMBAT_BROWSER")
    if chosen:
        return chosen
    return next((found for name in BROWSERS if (found := shutil.which(name))), None)


IN_CI = os.environ.get("CI", "").lower() == "true"
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        browser_path() is None and not IN_CI,
        reason="no Chromium browser here (looked for chromium, chromium-browser, google-chrome, $TUI_COMBAT_BROWSER): "
        ".ci/run installs Debian's chromium package",
    ),
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def stop(process: subprocess.Popen[Any]) -> None:
    """End ``process``: asked first, then its whole process group killed if it has not ended in 20 s."""
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def typed(total: int) -> Roll:
    return Roll(expr="1d10", total=total, physical=True)


@pytest.fixture
def fight(tmp_path: Path) -> Iterator[Store]:
    """The AD&D 2e demo in round 1, initiative typed (Party 7, Monsters 10): the party acts first. The GM's
    store stays open (it holds the session) while the browser watches."""
    data = tmp_path / "data"
    gm = session.open_demo(data, "demo_adnd2e.toml", seed=1)
    for action in (
        a.StartFight(),
        a.NextStep(),
        a.NextStep(),
        a.RollInitiative(rolls={"s1": typed(7), "s5": typed(10)}),
    ):
        gm.dispatch(action)
    yield gm
    gm.close()


class Server:
    def __init__(self, process: subprocess.Popen[str], port: int) -> None:
        self.process = process
        self.port = port
        self.url = ""
        """The address with its key, as the server printed it."""

    def views(self) -> list[int]:
        """The process ids of the view processes the server runs now (one per open tab)."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                command = (entry / "cmdline").read_bytes().split(b"\0")
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if b"view" in command and b"tui_combat" in command and self._descends(parent):
                found.append(int(entry.name))
        return found

    def _descends(self, pid: int) -> bool:
        """Whether ``pid`` is the server or one of its children (textual-serve starts a view through a shell)."""
        for _ in range(4):
            if pid == self.process.pid:
                return True
            try:
                pid = int((Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                return False
        return False


@pytest.fixture
def server(fight: Store, tmp_path: Path) -> Iterator[Server]:
    assert fight.folder is not None
    port = free_port()
    environment = {**os.environ, "TUI_COMBAT_CONFIG_DIR": str(tmp_path / "config")}
    process = subprocess.Popen(
        [sys.executable, "-m", "tui_combat", "--data-dir", str(tmp_path / "data"), "serve", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=environment,
        text=True,
        start_new_session=True,
    )
    try:
        yield Server(process, port)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(process.pid, signal.SIGKILL)  # whatever view process of this server is still there
        except ProcessLookupError:
            pass
        process.wait()


class Page:
    """One browser tab, spoken to over the DevTools protocol."""

    def __init__(self, target: str, socket_: aiohttp.ClientWebSocketResponse) -> None:
        self.target = target
        self.socket = socket_
        self.ids = itertools.count(1)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        number = next(self.ids)
        await self.socket.send_json({"id": number, "method": method, "params": params})
        while True:
            message = await asyncio.wait_for(self.socket.receive_json(), WAIT_LIMIT)
            if message.get("id") == number:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message["result"]
                return result

    async def evaluate(self, expression: str) -> Any:
        return (await self.call("Runtime.evaluate", expression=expression, returnByValue=True))["result"].get("value")

    async def terminal_text(self) -> str:
        """The rows of the page's terminal, as xterm.js holds them ("" while it has none)."""
        handler = (await self.call("Runtime.evaluate", expression="window.onresize"))["result"]
        if "objectId" not in handler:
            return ""
        found = await self.call("Runtime.getProperties", objectId=handler["objectId"], ownProperties=False)
        scopes = next(p for p in found["internalProperties"] if p["name"] == "[[Scopes]]")
        for scope in (
            await self.call("Runtime.getProperties", objectId=scopes["value"]["objectId"], ownProperties=True)
        )["result"]:
            if scope["value"].get("description") != "Closure":
                continue
            names = await self.call("Runtime.getProperties", objectId=scope["value"]["objectId"], ownProperties=True)
            for item in names["result"]:
                value = item["value"]
                if value.get("type") != "function" or not value.get("description", "").startswith("class"):
                    continue
                prototype = await self.call(
                    "Runtime.callFunctionOn",
                    objectId=value["objectId"],
                    functionDeclaration="function () { return this.prototype; }",
                )
                instances = await self.call("Runtime.queryObjects", prototypeObjectId=prototype["result"]["objectId"])
                text = await self.call(
                    "Runtime.callFunctionOn",
                    objectId=instances["objects"]["objectId"],
                    functionDeclaration=READ_TERMINAL,
                    returnByValue=True,
                )
                if text["result"].get("value"):
                    return str(text["result"]["value"])
        return ""

    async def until(self, *wanted: str) -> str:
        """Read the terminal until every one of ``wanted`` is on it."""
        last = [""]

        async def shows() -> str:
            last[0] = await self.terminal_text()
            return last[0] if all(word in last[0] for word in wanted) else ""

        return await eventually(
            shows, f"the page to show {wanted}", every=0.25, seconds=WAIT_LIMIT, describe=lambda: last[0]
        )


class Browser:
    def __init__(self, http: aiohttp.ClientSession, port: int) -> None:
        self.http = http
        self.port = port

    async def open(self, url: str) -> Page:
        async with self.http.put(f"http://127.0.0.1:{self.port}/json/new?{url}") as response:
            target = await response.json(content_type=None)
        page = Page(target["id"], await self.http.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0))
        await page.call("Page.enable")
        return page

    async def close(self, page: Page) -> None:
        await page.socket.close()
        async with self.http.get(f"http://127.0.0.1:{self.port}/json/close/{page.target}") as response:
            await response.read()


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    path = browser_path()
    if path is None:
        pytest.fail(
            "no Chromium browser here (chromium, chromium-browser, google-chrome, $TUI_COMBAT_BROWSER): "
            "under CI=true the browser test must run"
        )
    profile = tempfile.mkdtemp(prefix="tui-combat-browser-")
    try:
        process = subprocess.Popen(
            [
                path,
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-extensions",
                "--disable-background-networking",
                "--window-size=1100,800",
                "--remote-debugging-port=0",
                f"--user-data-dir={profile}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            port_file = Path(profile) / "DevToolsActivePort"

            def port_written() -> bool:
                if process.poll() is not None:
                    pytest.fail(f"the browser {path} stopped at once (exit code {process.returncode})")
                return port_file.exists() and bool(port_file.read_text().strip())

            await eventually(port_written, "the browser's DevTools port", seconds=WAIT_LIMIT)
            port = int(port_file.read_text().split()[0])
            async with aiohttp.ClientSession() as http:
                yield Browser(http, port)
        finally:
            stop(process)
            try:
                os.killpg(process.pid, signal.SIGKILL)  # its helpers, which may still be writing to the profile
            except ProcessLookupError:
                pass
    finally:
        await eventually(lambda: removed(profile), "the browser's profile to be removed", seconds=WAIT_LIMIT)


def removed(folder: str) -> bool:
    """Remove ``folder``; False while something still writes into it (a browser's helper ending)."""
    shutil.rmtree(folder, ignore_errors=True)
    return not os.path.exists(folder)


async def wait_for_server(server: Server) -> str:
    """The page's address with its key, once the server answers on it."""
    from tests.ui.test_serve_safety import printed_address

    url = server.url = await printed_address(server.process)
    async with aiohttp.ClientSession() as http:

        async def answers() -> bool:
            assert server.process.poll() is None, "tui-combat serve stopped"
            try:
                async with http.get(url) as response:
                    return response.status == 200
            except aiohttp.ClientError:
                return False

        await eventually(answers, "tui-combat serve to answer", seconds=WAIT_LIMIT)
    return url


async def test_the_page_shows_the_turn_order_and_follows_the_gm(server: Server, browser: Browser, fight: Store) -> None:
    url = await wait_for_server(server)
    page = await browser.open(url)
    text = await page.until("Turn order", "▶ Raf")
    assert "Trolls and orcs in the tunnel" in text and "── 7" in text and "── 10" in text
    assert "Raf  38/38" in text and "Troll 1  unhurt" in text
    assert await page.evaluate("document.body.classList.contains('-first-byte')")  # the page drew what it got

    troll = next(c for c in fight.state.combatants if c.name == "Troll 1")
    fight.dispatch(a.Damage(combatant=troll.id, amount=20))  # the GM's copy: 16 of 36 HP left
    text = await page.until("Troll 1  bloodied", "Troll 1 takes 20 damage.")
    assert "16/36" not in text

    assert len(server.views()) == 1
    second = await browser.open(url)  # another tab: a view process of its own
    await second.until("Turn order", "Troll 1  bloodied")
    assert len(server.views()) == 2
    await browser.close(second)
    await eventually(
        lambda: len(server.views()) == 1,
        "the closed tab's view process to end",
        seconds=WAIT_LIMIT,
        describe=lambda: f"view processes: {server.views()}",
    )
    await browser.close(page)
