"""A budget meter: what a combatant may still do this round, as bars."""

from __future__ import annotations

from rich.text import Text

from tui_combat.engine.contract import BudgetLine
from tui_combat.widgets.lines import TextLines

BAR_WIDTH = 10


def render_budget(lines: tuple[BudgetLine, ...], width: int = BAR_WIDTH) -> Text:
    text = Text()
    for index, line in enumerate(lines):
        if index:
            text.append("\n")
        total = max(line.total, 1)
        filled = round(width * max(line.left, 0) / total) if line.total else 0
        style = "green" if line.left * 2 > line.total else ("yellow" if line.left > 0 else "red")
        text.append(f"{line.label[:20]:<20} ")
        text.append("█" * filled, style=style)
        text.append("░" * (width - filled), style="dim")
        text.append(f" {line.left}/{line.total}")
    return text


class BudgetMeter(TextLines):
    def show_budget(self, lines: tuple[BudgetLine, ...]) -> None:
        self.show(render_budget(lines))
