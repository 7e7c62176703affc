"""The round's steps in one line, the current one highlighted."""

from __future__ import annotations

from rich.text import Text

from tui_combat.engine.contract import StepDef
from tui_combat.i18n import _
from tui_combat.widgets.glyphs import glyph
from tui_combat.widgets.lines import TextLines


class PhaseBar(TextLines):
    """One line; a new turn redraws the cells that changed ("▶ 7" → "▶ 3"), not the whole procedure."""

    _shown: tuple[int, tuple[StepDef, ...], int, str] | None = None

    def show_step(self, round_number: int, steps: tuple[StepDef, ...], current: int, extra: str = "") -> None:
        self._shown = (round_number, steps, current, extra)
        self.show(self._text(self.size.width or 80))

    def on_resize(self) -> None:
        if self._shown is not None:
            self.show(self._text(self.size.width))

    def _text(self, width: int) -> Text:
        """The whole procedure when it fits; else from the step before the current one, with "…"."""
        round_number, steps, current, extra = self._shown or (0, (), 0, "")
        first = 0
        while True:
            text = Text(no_wrap=True, overflow="ellipsis")
            text.append(_("Round {n}", n=round_number), style="bold")
            if extra:
                text.append(f" {extra}", style="bold yellow")
            text.append(" │ ", style="dim")
            if first:
                text.append("… ", style="dim")
            for index in range(first, len(steps)):
                step = steps[index]
                if index > first:
                    text.append(" › ", style="dim")
                label = _(step.label) + (f" {glyph('🔒')}" if step.secret else "")
                text.append(label, style="reverse bold" if index == current else "")
            if text.cell_len <= width - 2 or first >= current:
                return text
            first += 1
