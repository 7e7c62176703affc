"""Where the user's own files live (house-rule data, settings; ``~/.config/tui-combat`` on Linux), and the
settings file itself.

``TUI_COMBAT_CONFIG_DIR`` overrides the platform's folder (tests, portable installs).

``settings.toml`` holds the GM's choices::

    language = "ru"            # the interface's language (read when the app starts)
    theme = "gruvbox"          # one of Textual's themes

    [keys]                     # the GM's keymap, by binding id: "round.next" = "j"
    "round.next" = "j"

    [health]                   # how the players' screen words the health of those outside the party
    wounded_below = 100
    bloodied_at = 50
    [health.words]
    bloodied = "reeling"

:func:`read_settings` never raises (a file that cannot be read is a problem to report, and the defaults
apply); :func:`write_settings` replaces the file in one step and keeps every key it was not asked to
change, unknown ones included, with the GM's comments, blank lines and key order (written with tomlkit,
which edits a TOML document in place).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CONFIG_ENV_VAR = "TUI_COMBAT_CONFIG_DIR"
APP_NAME = "tui-combat"
SETTINGS_FILE = "settings.toml"
PLAYERS_VIEW_FILE = "players-view.toml"
"""The players' screen's own settings file of earlier versions (its ``[health]`` table), still read when
``settings.toml`` has no ``[health]``."""


def config_dir() -> Path:
    from_env = os.environ.get(CONFIG_ENV_VAR)
    if from_env:
        return Path(from_env).expanduser()
    import platformdirs

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))


def make_private_folder(path: Path) -> None:
    """Create ``path`` and its missing parents 0700 whatever the umask (the settings, the house rules and the
    reports are the GM's alone); folders that exist are left as they are."""
    missing: list[Path] = []
    current = path
    while not os.path.lexists(current) and current.parent != current:
        missing.append(current)
        current = current.parent
    for folder in reversed(missing):
        try:
            os.mkdir(folder, 0o700)
        except FileExistsError:
            continue
        os.chmod(folder, 0o700)


def house_rules_dir() -> Path:
    """Ruleset data files placed here (``adnd2e.toml`` …) override the built-in tables, key by key."""
    return config_dir() / "rulesets"


def settings_path() -> Path:
    return config_dir() / SETTINGS_FILE


# -- reading --------------------------------------------------------------------------------------------
def N_(message: str) -> str:
    """Marks a message for the catalogs; it is translated where it is shown (this module sits below
    :mod:`tui_combat.i18n`, which reads the language from the settings file)."""
    return message


class SettingsProblem(Exception):
    """What is wrong with the settings file: a message id and its parameters, translated when shown
    (``_(problem.message, **problem.params)``)."""

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message.format(**params))
        self.message = message
        self.params = params


@dataclass(frozen=True)
class Settings:
    """The settings file as read: its whole document (so that saving keeps what this version does not
    know), its text (for the line of an entry) and what was wrong with it (None when nothing)."""

    path: Path
    document: dict[str, Any] = field(default_factory=dict)
    text: str = ""
    problem: SettingsProblem | None = None

    @property
    def language(self) -> str | None:
        value = self.document.get("language")
        return value if isinstance(value, str) else None

    @property
    def theme(self) -> object:
        """What the file says for ``theme`` (checked against the themes the app has when it is applied)."""
        return self.document.get("theme")

    @property
    def keys(self) -> dict[str, object]:
        """The ``[keys]`` table, as written (each entry is checked when the app starts)."""
        table = self.document.get("keys")
        return dict(table) if isinstance(table, dict) else {}

    @property
    def health(self) -> dict[str, Any] | None:
        table = self.document.get("health")
        return dict(table) if isinstance(table, dict) else None


def read_settings(path: Path | None = None) -> Settings:
    """The settings in ``path`` (the user's ``settings.toml`` by default); a missing file is no settings,
    an unreadable one is reported in :attr:`Settings.problem`."""
    path = path if path is not None else settings_path()
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Settings(path)
    except OSError as error:
        return Settings(
            path, problem=SettingsProblem(N_("Cannot read {path}: {error}"), path=path, error=error.strerror or error)
        )
    except UnicodeDecodeError:
        return Settings(path, problem=SettingsProblem(N_("{path} is not UTF-8 text."), path=path))
    import tomllib  # here: a GM without a settings file does not wait for the TOML reader at start

    from tui_combat.settings import toml_read

    try:
        document = toml_read.loads(text)
    except tomllib.TOMLDecodeError as error:
        return Settings(path, problem=SettingsProblem(N_("{path} is not valid TOML: {error}"), path=path, error=error))
    return Settings(path, document, text)


def health_settings_path() -> Path:
    """The file whose ``[health]`` table the players' screen reads: ``settings.toml`` when it has one,
    else the older ``players-view.toml``."""
    settings = read_settings()
    if settings.health is not None or not (config_dir() / PLAYERS_VIEW_FILE).exists():
        return settings.path
    return config_dir() / PLAYERS_VIEW_FILE


# -- writing --------------------------------------------------------------------------------------------
def _update(table: Any, key: str, value: Any) -> None:
    """``table[key]`` made ``value`` in place: a table given as a mapping keeps its comments and the order of
    the keys it had (those not given go, new ones come last); a value that is the same is left as written."""
    old = table.get(key)
    if isinstance(value, Mapping) and isinstance(old, dict):
        for gone in [name for name in old if name not in value]:
            del old[gone]
        for name, item in value.items():
            _update(old, name, item)
        return
    if old is not None and not isinstance(old, dict):
        plain = old.unwrap() if hasattr(old, "unwrap") else old
        if type(plain) is type(value) and plain == value:
            return
    import tomlkit

    item = tomlkit.item(value)
    trivia = getattr(old, "trivia", None)
    if trivia is not None and trivia.comment and not isinstance(value, Mapping):  # a comment after the value stays
        item.trivia.comment_ws, item.trivia.comment = trivia.comment_ws, trivia.comment
    table[key] = item


def write_settings(changes: Mapping[str, Any], path: Path | None = None) -> Path:
    """Write ``changes`` (top-level keys; None removes one) into the settings file, over what it holds now:
    every other key stays as it is. The file is replaced in one step (a temporary file, then a rename), so
    it is never half-written. Raises :class:`OSError` when it cannot be written, :class:`SettingsProblem`
    when the file holds text that is not TOML (it is left alone rather than overwritten)."""
    path = path if path is not None else settings_path()
    current = read_settings(path)
    if current.problem is not None:
        raise current.problem
    import tempfile

    import tomlkit

    document = tomlkit.parse(current.text) if current.text else tomlkit.document()
    for key, value in changes.items():
        if value is None:
            if key in document:
                del document[key]
        else:
            _update(document, key, value)
    text = tomlkit.dumps(document)

    make_private_folder(path.parent)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path
