"""The private names of Textual, Rich and textual-serve the package relies on (see ``tests/private_names.py``):
none outside ``tui_combat/textual_ext/``, and as many there as the README's architecture notes say."""

from __future__ import annotations

import re
from pathlib import Path

from tests.private_names import QUARANTINE, SOURCE, private_uses, surfaces

README = SOURCE.parent / "README.md"

STILL_OUTSIDE: frozenset[str] = frozenset()
"""Surfaces still used outside the quarantine while they are being moved: the list only ever shrinks."""


def test_the_scan_finds_every_kind_of_use(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from textual._compositor import Compositor\n"
        "from textual.keys import _character_to_key\n"
        "from textual.widgets import RichLog, Static\n"
        "class Log(RichLog):\n"
        "    def _size_updated(self, *a): return super()._size_updated(*a)\n"
        "    def later(self): return self._start_line, self._mine\n"
        "class Ours:\n"
        "    def __init__(self): self._mine = 1\n"
        "def meta(style): return style._meta, getattr(style, '_set_attributes')\n",
        encoding="utf-8",
    )
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location("sample_private", sample)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["sample_private"] = module
    try:
        spec.loader.exec_module(module)
        found = surfaces(private_uses({"sample_private": sample}))
    finally:
        del sys.modules["sample_private"]
    assert found == [
        "rich.style.Style | textual.style.Style._meta",
        "rich.style.Style._set_attributes",
        "textual._compositor.Compositor",
        "textual.keys._character_to_key",
        "textual.scroll_view.ScrollView._size_updated",
        "textual.widgets._rich_log.RichLog._start_line",
    ]


def test_no_private_name_is_used_outside_the_quarantine() -> None:
    outside = [use for use in private_uses() if not use.path.startswith(f"tui_combat/{QUARANTINE}/")]
    new = [
        str(use)
        for use in outside
        if not any(f"{owner}.{use.name}" in STILL_OUTSIDE for owner in use.owner.split(" | "))
    ]
    assert new == [], "private names used outside tui_combat/textual_ext/:\n" + "\n".join(new)


def test_the_readme_counts_the_private_surfaces() -> None:
    count = len(surfaces(private_uses()))
    said = re.search(r"(\d+) private surfaces", README.read_text(encoding="utf-8"))
    assert said is not None, "the README's architecture notes say how many private surfaces are left"
    assert int(said.group(1)) == count, f"the README says {said.group(1)}, the scan finds {count}:\n" + "\n".join(
        surfaces(private_uses())
    )
