"""``tui-combat serve``: the players' view in web browsers, safe to leave running.

Built on textual-serve (each browser tab that opens the page gets its own read-only ``tui-combat view``
process, ended with the tab), with what it lacks for a server on a GM's computer:

* a **token**, random at each start, required on the page (``/?token=…``) and on its WebSocket
  (``/ws/TOKEN``): the address printed at start carries it, and nobody without it gets a view;
* the WebSocket's **Origin** must be the served address (or the ``--public-url``): a web page the GM opens
  elsewhere in his browser cannot open a view, even one that knows the port;
* at most ``max_viewers`` views at once (16 by default); the next tab is told so, and nothing is started
  for it;
* the loopback address unless told otherwise, with a warning when bound elsewhere.
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

__all__ = ["LARGE_FONT", "LOOPBACK", "MAX_VIEWERS", "allowed_origins", "bind_warning", "new_token", "players_server", "serve", "view_command"]

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


def players_server(command: str, *, host: str, port: int, token: str, public_url: str | None = None,
                   max_viewers: int = MAX_VIEWERS, large: bool = False, title: str = "") -> Any:
    """A textual-serve server for ``command`` (one process per tab) with the token, the Origin check and
    the cap on viewers. (Typed loosely: textual-serve and aiohttp are imported only here, when serving.)"""
    import aiohttp_jinja2
    import jinja2
    from aiohttp import web
    from textual_serve.app_service import AppService
    from textual_serve.server import Server, to_int

    origins = allowed_origins(host, port, public_url)
    base = _base_url(host, port, public_url)

    def token_ok(given: str) -> bool:
        return hmac.compare_digest(given.encode(), token.encode())

    class PlayersServer(Server):
        viewers = 0

        async def _make_app(self) -> web.Application:
            application = web.Application()
            aiohttp_jinja2.setup(application, loader=jinja2.FileSystemLoader(self.templates_path))
            application.add_routes([
                web.get("/", self.players_index, name="index"),
                web.get("/ws/{token}", self.players_websocket, name="websocket"),
                web.static("/static", self.statics_path, name="static"),
            ])
            application.on_startup.append(self.on_startup)
            return application

        async def on_startup(self, application: web.Application) -> None:
            print(_("The players' view: open {url} (or give it to the players as a link; it holds this start's "
                    "key). Ctrl+C stops.", url=f"{base}/?token={token}"), flush=True)

        async def players_index(self, request: web.Request) -> web.StreamResponse:
            if not token_ok(request.query.get("token", "")):
                return web.Response(status=403, text=_("This page needs the address tui-combat serve printed when "
                                                       "it started (the link with its key).") + "\n")
            if large and "fontsize" not in request.query:
                raise web.HTTPFound(f"/?token={token}&fontsize={LARGE_FONT}")
            scheme = "wss" if base.startswith("https") else "ws"
            context = {
                "font_size": to_int(request.query.get("fontsize", "16"), 16),
                "app_websocket_url": f"{scheme}:{base.split(':', 1)[1]}/ws/{token}",
                "config": {"static": {"url": f"{base}/static/"}},
                "application": {"name": self.title},
            }
            response: web.StreamResponse = aiohttp_jinja2.render_template("app_index.html", request, context)
            response.headers["Referrer-Policy"] = "no-referrer"  # the token is in the page's address
            return response

        async def players_websocket(self, request: web.Request) -> web.StreamResponse:
            if not token_ok(request.match_info.get("token", "")):
                return web.Response(status=403, text=_("Wrong or missing key.") + "\n")
            if request.headers.get("Origin", "").casefold() not in origins:
                return web.Response(status=403, text=_("This view opens only from its own page.") + "\n")
            if PlayersServer.viewers >= max_viewers:
                websocket = web.WebSocketResponse()
                await websocket.prepare(request)
                await websocket.send_bytes(("\r\n  " + _("Too many viewers: this server shows the fight to {n} at once. "
                                                       "Close another tab, then reload this page.", n=max_viewers)
                                            + "\r\n").encode())
                await websocket.close()
                return websocket
            PlayersServer.viewers += 1
            try:
                return await self.view(request)
            finally:
                PlayersServer.viewers -= 1

        async def view(self, request: web.Request) -> web.StreamResponse:
            """What textual-serve does for a tab: a view process of its own, fed by the page's keys and size."""
            websocket = web.WebSocketResponse(heartbeat=15)
            width = to_int(request.query.get("width", "80"), 80)
            height = to_int(request.query.get("height", "24"), 24)
            app_service: AppService | None = None

            async def close() -> None:
                await websocket.close()

            try:
                await websocket.prepare(request)
                app_service = AppService(self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                         close=close, download_manager=self.download_manager, debug=self.debug)
                await app_service.start(width, height)
                await self._process_messages(websocket, app_service)
            except asyncio.CancelledError:
                await websocket.close()
            finally:
                if app_service is not None:
                    await app_service.stop()
            return websocket

    server = PlayersServer(command, host=host, port=port, title=title or _("tui-combat — the players' view"),
                           public_url=public_url)
    return server


def bind_warning(host: str, port: int) -> str:
    """What the GM is told when the server listens beyond this computer ("" on the loopback)."""
    if host in LOOPBACK:
        return ""
    return _("Warning: listening on {host}, not this computer only: anyone who can reach port {port} and has the "
             "link with its key sees the players' view (never a secret, but the whole fight), over plain HTTP. "
             "On a network you do not trust, put it behind a reverse proxy with TLS (docs/players-screen.md).",
             host=host, port=port)


def serve(data_root: Path, name: str | None = None, *, host: str = "127.0.0.1", port: int = 8000,
          public_url: str | None = None, large: bool = False, language: str | None = None,
          max_viewers: int = MAX_VIEWERS) -> int:
    """Serve the players' view until interrupted (Ctrl+C)."""
    if max_viewers < 1:
        print(_("--max-viewers: at least 1."), file=sys.stderr)
        return 2
    warning = bind_warning(host, port)
    if warning:
        print(warning, file=sys.stderr, flush=True)
    if host in ("0.0.0.0", "::") and not public_url:
        print(_("Listening on every address: give --public-url http://ADDRESS:{port} (this computer's address on "
                "the network), or the browsers cannot open the views.", port=port), file=sys.stderr, flush=True)
    server = players_server(view_command(data_root, name, large=large, language=language), host=host, port=port,
                            token=new_token(), public_url=public_url, max_viewers=max_viewers, large=large)
    server.serve()
    return 0

