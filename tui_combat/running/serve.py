"""``tui-combat serve``: the players' view in web browsers, safe to leave running.

A plain aiohttp application of our own around textual-serve's ``AppService`` and its page (each browser tab
that opens the page gets its own read-only ``tui-combat view`` process, ended with the tab), with what a
server on a GM's computer needs, in our own handlers:

* a **token**, random at each start, required on the page (``/?token=…``) and on its WebSocket
  (``/ws/TOKEN``): the address printed at start carries it, and nobody without it gets a view;
* the WebSocket's **Origin** must be the served address (or the ``--public-url``): a web page the GM opens
  elsewhere in his browser cannot open a view, even one that knows the port;
* at most ``max_viewers`` views at once (16 by default); the next tab is told so, and nothing is started
  for it;
* the loopback address unless told otherwise, with a warning when bound elsewhere;
* no access log (its lines would hold the page's address, and the key with it).
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import shlex
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tui_combat.i18n import _

__all__ = [
    "LARGE_FONT",
    "LOOPBACK",
    "MAX_VIEWERS",
    "allowed_origins",
    "bind_warning",
    "new_token",
    "players_application",
    "serve",
    "view_command",
]

LARGE_FONT = 32
"""Letter size (px) of the page ``serve --large`` gives a browser that asks for no other."""
LOOPBACK = ("127.0.0.1", "::1", "localhost")
MAX_VIEWERS = 16
"""Views at once, by default: a table's players and a TV, with room to spare (each view is a process)."""


def new_token() -> str:
    return secrets.token_urlsafe(18)


def view_command(data_root: Path, name: str | None, *, large: bool = False, language: str | None = None) -> str:
    """The shell command that runs one players' view (what ``serve`` starts for each browser tab)."""
    words = [sys.executable, "-m", "tui_combat", "--data-dir", str(data_root)]
    if language:
        words += ["--lang", language]
    words.append("view")
    if name:
        words.append(name)
    if large:
        words.append("--large")
    return shlex.join(words)


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".casefold()


def allowed_origins(host: str, port: int, public_url: str | None) -> frozenset[str]:
    """The pages allowed to open a view: the served address (by any loopback name when it is the loopback),
    and the public address browsers reach it at."""
    hosts = {host}
    if host in LOOPBACK:
        hosts |= set(LOOPBACK)
    found = {_origin(f"http://{f'[{name}]' if ':' in name else name}:{port}") for name in hosts}
    if public_url:
        found.add(_origin(public_url))
    return frozenset(found)


def _base_url(host: str, port: int, public_url: str | None) -> str:
    if public_url:
        return public_url.rstrip("/")
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"


class Viewers:
    """How many views are open now, against the cap."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open = 0


def players_application(
    command: str,
    *,
    host: str,
    port: int,
    token: str,
    public_url: str | None = None,
    max_viewers: int = MAX_VIEWERS,
    large: bool = False,
    title: str = "",
) -> Any:
    """The players' server: an aiohttp application of our own, with the token, the Origin check and the cap
    on viewers in its handlers, that runs ``command`` for each tab through textual-serve's ``AppService`` and
    serves textual-serve's page and scripts. (Typed loosely: aiohttp and textual-serve are imported only
    here, when serving.)"""
    import aiohttp_jinja2
    import jinja2
    import textual_serve
    from aiohttp import web

    served = Path(textual_serve.__file__).parent  # its page (templates/) and its scripts (static/)
    origins = allowed_origins(host, port, public_url)
    base = _base_url(host, port, public_url)
    viewers = Viewers(max_viewers)
    page_title = title or _("tui-combat — the players' view")

    def token_ok(given: str) -> bool:
        return hmac.compare_digest(given.encode(), token.encode())

    async def on_startup(application: web.Application) -> None:
        print(
            _(
                "The players' view: open {url} (or give it to the players as a link; it holds this start's "
                "key). Ctrl+C stops.",
                url=f"{base}/?token={token}",
            ),
            flush=True,
        )

    async def index(request: web.Request) -> web.StreamResponse:
        if not token_ok(request.query.get("token", "")):
            return web.Response(
                status=403,
                text=_("This page needs the address tui-combat serve printed when it started (the link with its key).")
                + "\n",
            )
        if large and "fontsize" not in request.query:
            raise web.HTTPFound(f"/?token={token}&fontsize={LARGE_FONT}")
        scheme = "wss" if base.startswith("https") else "ws"
        context = {
            "font_size": _number(request.query.get("fontsize", ""), 16),
            "app_websocket_url": f"{scheme}:{base.split(':', 1)[1]}/ws/{token}",
            "config": {"static": {"url": f"{base}/static/"}},
            "application": {"name": page_title},
        }
        response: web.StreamResponse = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.headers["Referrer-Policy"] = "no-referrer"  # the token is in the page's address
        return response

    async def websocket(request: web.Request) -> web.StreamResponse:
        if not token_ok(request.match_info.get("token", "")):
            return web.Response(status=403, text=_("Wrong or missing key.") + "\n")
        if request.headers.get("Origin", "").casefold() not in origins:
            return web.Response(status=403, text=_("This view opens only from its own page.") + "\n")
        if viewers.open >= viewers.cap:
            refusal = web.WebSocketResponse()
            await refusal.prepare(request)
            await refusal.send_bytes(
                (
                    "\r\n  "
                    + _(
                        "Too many viewers: this server shows the fight to {n} at once. "
                        "Close another tab, then reload this page.",
                        n=viewers.cap,
                    )
                    + "\r\n"
                ).encode()
            )
            await refusal.close()
            return refusal
        viewers.open += 1
        try:
            opened: web.StreamResponse = await view(request, command)
            return opened
        finally:
            viewers.open -= 1

    application = web.Application()
    aiohttp_jinja2.setup(application, loader=jinja2.FileSystemLoader(served / "templates"))
    application.add_routes(
        [
            web.get("/", index, name="index"),
            web.get("/ws/{token}", websocket, name="websocket"),
            web.static("/static", served / "static", name="static"),
        ]
    )
    application.on_startup.append(on_startup)
    return application


def _number(text: str, default: int) -> int:
    try:
        return int(text)
    except ValueError:
        return default


async def view(request: Any, command: str) -> Any:
    """One tab's view: a process of its own through textual-serve's ``AppService``, fed the page's keys, size
    and focus as the page sends them (JSON messages: ``["stdin", text]``, ``["resize", {"width", "height"}]``,
    ``["ping", data]``, ``["blur"]``, ``["focus"]``), its output sent back to the page."""
    from aiohttp import WSMsgType, web
    from textual_serve.app_service import AppService
    from textual_serve.download_manager import DownloadManager

    socket = web.WebSocketResponse(heartbeat=15)
    service: AppService | None = None

    async def close() -> None:
        await socket.close()

    try:
        await socket.prepare(request)
        service = AppService(
            command,
            write_bytes=socket.send_bytes,
            write_str=socket.send_str,
            close=close,
            download_manager=DownloadManager(),
        )
        await service.start(_number(request.query.get("width", ""), 80), _number(request.query.get("height", ""), 24))
        async for message in socket:
            if message.type != WSMsgType.TEXT:
                continue
            envelope = message.json()
            if not isinstance(envelope, list) or not envelope:
                continue
            kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            if kind == "stdin" and isinstance(data, str):
                await service.send_bytes(data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                await service.set_terminal_size(
                    _number(str(data.get("width")), 80), _number(str(data.get("height")), 24)
                )
            elif kind == "ping":
                await socket.send_json(["pong", data])
            elif kind == "blur":
                await service.blur()
            elif kind == "focus":
                await service.focus()
    except asyncio.CancelledError:
        await socket.close()
    finally:
        if service is not None:
            await service.stop()
    return socket


def bind_warning(host: str, port: int) -> str:
    """What the GM is told when the server listens beyond this computer ("" on the loopback)."""
    if host in LOOPBACK:
        return ""
    return _(
        "Warning: listening on {host}, not this computer only: anyone who can reach port {port} and has the "
        "link with its key sees the players' view (never a secret, but the whole fight), over plain HTTP. "
        "On a network you do not trust, put it behind a reverse proxy with TLS (docs/players-screen.md).",
        host=host,
        port=port,
    )


def serve(
    data_root: Path,
    name: str | None = None,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    public_url: str | None = None,
    large: bool = False,
    language: str | None = None,
    max_viewers: int = MAX_VIEWERS,
) -> int:
    """Serve the players' view until interrupted (Ctrl+C)."""
    if max_viewers < 1:
        print(_("--max-viewers: at least 1."), file=sys.stderr)
        return 2
    warning = bind_warning(host, port)
    if warning:
        print(warning, file=sys.stderr, flush=True)
    if host in ("0.0.0.0", "::") and not public_url:
        print(
            _(
                "Listening on every address: give --public-url http://ADDRESS:{port} (this computer's address on "
                "the network), or the browsers cannot open the views.",
                port=port,
            ),
            file=sys.stderr,
            flush=True,
        )
    from aiohttp import web

    application = players_application(
        view_command(data_root, name, large=large, language=language),
        host=host,
        port=port,
        token=new_token(),
        public_url=public_url,
        max_viewers=max_viewers,
        large=large,
    )
    # No access log: each line would hold the page's address, and with it the key.
    web.run_app(application, host=host, port=port, access_log=None, print=None)
    return 0
