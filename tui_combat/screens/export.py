"""The fight report from inside the app: a form that asks the format, whether it is for the players, and the
file, then writes the report (:mod:`tui_combat.fight.report`) and says where it went.

The file offered is ``<data folder>/reports/<session name>.<ext>`` (``<session name>-players.<ext>`` for the
players): always writable, the same place for every fight, and a second export of the same fight replaces the
first. It follows the format and the players' tick unless the GM typed another name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.screen import Screen

from tui_combat.engine.contract import FieldSpec
from tui_combat.engine.public import HealthScale
from tui_combat.i18n import N_, _
from tui_combat.screens.dialogs import FormDialog
from tui_combat.screens.host import Host

__all__ = ["FORMAT_CHOICES", "export_dialog", "players_health_scale", "report_path"]

FORMAT_CHOICES: tuple[tuple[str, str], ...] = (
    ("md", N_("Markdown: for a wiki or a chat")),
    ("html", N_("Web page (HTML)")),
    ("json", N_("JSON: data for other programs")),
)


def report_path(typed: str, form: str, data_root: Path, name: str, *, public: bool = False) -> Path:
    """The file a report goes to: the default one for ``form`` (and for the players when ``public``) when the
    field holds one of the defaults (or nothing); what the GM typed otherwise, with the format's extension
    added when it has none."""
    from tui_combat.fight.report import FORMATS, SUFFIXES, default_report_path, format_named

    text = typed.strip()
    chosen = format_named(form)
    defaults = {str(default_report_path(data_root, name, f, public=p)) for f in FORMATS for p in (False, True)}
    if not text or text in defaults:
        return default_report_path(data_root, name, chosen, public=public)
    path = Path(text).expanduser()
    return path if path.suffix else path.with_name(path.name + SUFFIXES[chosen])


def players_health_scale() -> tuple[HealthScale, str]:
    """The words and thresholds for health the players' screen uses, read from where that screen reads them,
    and what is wrong with them ("" when nothing; the defaults are used then)."""
    from tui_combat.screens.player_view import load_settings
    from tui_combat.settings.config import health_settings_path

    return load_settings(health_settings_path())


def export_dialog(screen: Screen[Any], host: Host) -> None:
    """Ask how to export the open fight and write its report; the GM is told where it went."""
    from tui_combat.fight.report import (
        ReportError,
        default_report_path,
        format_named,
        rendered,
        store_report,
        write_report,
    )

    store = host.store
    if store is None:
        return
    name = store.state.name
    fields = [
        FieldSpec(key="format", label=N_("Format"), kind="choice", default="md", choices=FORMAT_CHOICES),
        FieldSpec(key="public", label=N_("For the players"), kind="bool", default=False),
        FieldSpec(
            key="path", label=N_("File"), kind="str", default=str(default_report_path(host.data_root, name, "md"))
        ),
    ]

    def submit(values: dict[str, Any]) -> str | None:
        current = host.store
        if current is None:
            return _("No fight is open.")
        form = format_named(values["format"])
        public = bool(values["public"])
        path = report_path(str(values["path"]), form, host.data_root, name, public=public)
        scale = players_health_scale()[0] if public else None
        try:
            text = rendered(store_report(current, public=public, scale=scale), form)
            written = write_report(path, text, make_folder=True)
        except ReportError as error:
            return str(error)
        host.notify(
            _("Players' report written to {path}.", path=written)
            if public
            else _("Report written to {path}.", path=written),
            title=_("Fight report"),
            markup=False,
            timeout=10,
        )
        return None

    screen.app.push_screen(
        FormDialog(
            _("Fight report"),
            fields,
            submit=submit,
            note=_(
                "Rounds, turn order, every roll, damage and healing, who fell. "
                "For the players: only what their screen shows."
            ),
        )
    )
