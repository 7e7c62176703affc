"""The round's steps in one line, the current one highlighted."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tui_combat.i18n import _
from tui_combat.rulesets.base import StepDef


class PhaseBar(Static):
    def show(self, round_number: int, steps: tuple[StepDef, ...], current: int, extra: str = "") -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(_("Round {n}", n=round_number), style="bold")
        if extra:
            text.append(f" {extra}", style="bold yellow")
        text.append(" │ ", style="dim")
        for index, step in enumerate(steps):
            if index:
                text.append(" › ", style="dim")
            label = _(step.label) + (" 🔒" if step.secret else "")
            text.append(label, style="reverse bold" if index == current else "")
        self.update(text)
