"""Reading the ``.po`` catalogs shipped beside this module, and compiling them to ``.mo`` data for the
standard library's :class:`gettext.GNUTranslations`.

Only the ``.po`` files are kept in the source tree and the wheel: a compiled ``.mo`` is build output and
would go stale the moment someone edits a ``.po``. Compiling at build time would need a setuptools hook
that an editable install (``pip install -e .``) never runs, so the catalogs are compiled at first use
instead, into the user's cache folder, under a name keyed by the hash of the ``.po`` text: an edited
catalog gets a new file, an unchanged one is read back in about a millisecond (parsing the ``.po`` costs
some tens of milliseconds, which would show on every start). A cache that cannot be written is not an
error: the catalog is then compiled in memory on every start.

The compiler is :mod:`tui_combat.i18n.po`, imported only on a cache miss, so a start with a warm cache
imports little more than :mod:`gettext`.
"""

from __future__ import annotations

import hashlib
import io
import os
from gettext import GNUTranslations
from pathlib import Path

__all__ = ["CACHE_ENV_VAR", "CATALOG_DIR", "cache_dir", "compiled", "po_path", "translations"]

CATALOG_DIR = Path(__file__).resolve().parent
CACHE_ENV_VAR = "TUI_COMBAT_CACHE_DIR"


def po_path(language: str) -> Path:
    return CATALOG_DIR / f"{language}.po"


def cache_dir() -> Path:
    """Where compiled catalogs are kept: ``$TUI_COMBAT_CACHE_DIR`` or the platform's cache folder."""
    from_env = os.environ.get(CACHE_ENV_VAR)
    if from_env:
        return Path(from_env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("tui-combat", appauthor=False))


def compiled(language: str, po_file: Path | None = None) -> bytes:
    """The ``.mo`` data of a language's catalog, from the cache when the ``.po`` has not changed."""
    source = po_file or po_path(language)
    text = source.read_bytes()
    digest = hashlib.sha256(text).hexdigest()[:20]
    cached = cache_dir() / "i18n" / f"{language}-{digest}.mo"
    try:
        return cached.read_bytes()
    except OSError:
        pass
    from tui_combat.i18n.po import compile_mo, parse_po

    data = compile_mo(parse_po(text.decode("utf-8"), str(source)))
    try:
        import tempfile

        cached.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=cached.parent, prefix=cached.name, suffix=".tmp", delete=False) as handle:
            handle.write(data)
        os.replace(handle.name, cached)
    except OSError:
        pass  # a read-only or full cache: the catalog is compiled again next time
    return data


def translations(language: str, po_file: Path | None = None) -> GNUTranslations:
    return GNUTranslations(io.BytesIO(compiled(language, po_file)))
