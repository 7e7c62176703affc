"""The turn order: slots (everyone in a slot acts at once) with the combatants in each."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tui_combat.engine.log import render
from tui_combat.engine.model import Combatant, State
from tui_combat.i18n import _

STATUS_MARK = {"active": "", "down": " ✝", "fled": " ↪", "surrendered": " ⚐"}


def _line(combatant: Combatant, acting: bool) -> Text:
    text = Text("▶ " if acting else "  ", style="bold yellow" if acting else "")
    style = "dim" if combatant.status != "active" else ""
    text.append(combatant.name, style=style)
    text.append(f"  {combatant.hp}/{combatant.max_hp}{STATUS_MARK[combatant.status]}", style="dim" if style else "cyan")
    return text


class OrderList(OptionList):
    """Slot headers are disabled options; combatants are options whose id is the combatant id."""

    _turn: tuple[int, int, int, tuple[str, ...]] | None = None

    def show(self, state: State, in_resolve: bool) -> None:
        selected = self.highlighted_option.id if self.highlighted_option is not None else None
        options: list[Option] = []
        by_id = {combatant.id: combatant for combatant in state.combatants}  # one pass, not a search per line
        if state.order:
            listed: set[str] = set()
            for index, slot in enumerate(state.order):
                now = in_resolve and index == state.cursor
                header = Text(f"── {render(slot.label)} ", style="bold reverse" if now else "bold")
                options.append(Option(header, id=f"slot-{index}", disabled=True))
                for combatant_id in slot.combatants:
                    key = combatant_id if combatant_id not in listed else f"{combatant_id}#{index}"
                    listed.add(combatant_id)
                    options.append(Option(_line(by_id[combatant_id], now), id=key))
            idle = [c for c in state.combatants if c.id not in listed]
            if idle:
                options.append(Option(Text(f"── {_('not acting')} ", style="dim"), id="slot-idle", disabled=True))
                options.extend(Option(_line(c, False), id=c.id) for c in idle)
        else:
            for side in state.sides:
                options.append(Option(Text(f"── {side.name} ", style="bold"), id=f"side-{side.id}", disabled=True))
                options.extend(Option(_line(c, False), id=c.id) for c in state.combatants if c.side == side.id)
        self.set_options(options)
        target = selected
        turn = (state.round, state.step, state.cursor, state.acting_now()) if in_resolve else None
        if turn is not None and turn != self._turn and state.order:
            # The turn moved on: select who acts now. Otherwise keep the GM's selection.
            acting = state.order[state.cursor].combatants if state.cursor < len(state.order) else ()
            if acting and (selected is None or selected.split("#")[0] not in acting):
                target = acting[0]
        self._turn = turn
        self._highlight(target)

    def _highlight(self, option_id: str | None) -> None:
        if option_id is not None:
            for index in range(self.option_count):
                option = self.get_option_at_index(index)
                if option.id == option_id or (option.id or "").split("#")[0] == option_id:
                    self.highlighted = index
                    return
        for index in range(self.option_count):
            if not self.get_option_at_index(index).disabled:
                self.highlighted = index
                return

    def selected_combatant(self) -> str | None:
        option = self.highlighted_option
        if option is None or option.disabled or option.id is None:
            return None
        return option.id.split("#")[0]
