"""What the round screen asks at its foot, over the footer: an amount (damage, healing) in a one-line
prompt drawn on the footer's row, and what a combatant does in a form (:class:`FormPanel`). While one is open
it has the keys; when the form closes the turn list has the focus again (the prompt never takes it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual import events

from tui_combat.engine.contract import FieldSpec
from tui_combat.screens.form_panel import FormPanel
from tui_combat.widgets.amount_prompt import AmountPrompt, Completion
from tui_combat.widgets.footer import KeyFooter
from tui_combat.widgets.order_list import OrderList
from tui_combat.widgets.redraw import RoundLog


class AskedAtTheFoot:
    """Mixed into the round screen, which makes the widgets named here and yields them."""

    amount_prompt: AmountPrompt
    form_panel: FormPanel
    add_panel: FormPanel
    order_list: OrderList
    round_log: RoundLog
    key_footer: KeyFooter
    # The screen's own, typed here for the mixin.
    set_focus: Any
    call_after_refresh: Any
    is_current: Any

    def _prompt(
        self,
        title: str,
        submit: Callable[[str], str | None],
        *,
        placeholder: str = "",
        keys: str = "",
        note: str = "",
        completion: Completion | None = None,
        typed_keys: str = "",
    ) -> None:
        """The prompt on the footer's row; a refusal stays in it, with what was typed. The turn list keeps the
        focus meanwhile (the prompt takes the keys first). A note or a refusal above the prompt's line covers
        the foot of the list: the selected row is kept in sight above it. ``completion`` completes words as
        they are typed (a damage's type)."""
        prompt = self.amount_prompt

        def closed() -> None:
            self.round_log.keep_above(0)
            self.order_list.uncovered()

        prompt.ask(
            title,
            submit,
            closed,
            placeholder,
            keys=keys,
            note=note,
            typed_keys=typed_keys,
            completion=completion,
            resized=lambda: self._selected_above(prompt),
        )

    def _form(
        self,
        title: str,
        fields: tuple[FieldSpec, ...] | list[FieldSpec],
        values: dict[str, Any] | None,
        then: Callable[[dict[str, Any] | None], None] | None = None,
        *,
        panel: FormPanel | None = None,
        **options: Any,
    ) -> None:
        """A form over the footer (see :class:`FormPanel`, which takes ``options`` as a
        :class:`FormDialog` does); ``then`` is given what it was closed with, the values or None. What a
        combatant does is asked in ``form_panel``; the add form, of other fields, has ``add_panel``: each
        keeps its rows made from one time to the next."""
        panel = self.form_panel if panel is None else panel
        closed = self._give_foot()

        def after(values: dict[str, Any] | None) -> None:
            closed()
            if then is not None:
                then(values)

        panel.ask(title, fields, values, after, **options)
        self.call_after_refresh(self._selected_above, panel)

    def ask_prompt(self, title: str, submit: Callable[[str], str | None], **options: Any) -> None:
        """:meth:`_prompt`, for the round's flows kept in modules of their own (a save owed)."""
        self._prompt(title, submit, **options)

    def ask_form(
        self,
        title: str,
        fields: tuple[FieldSpec, ...] | list[FieldSpec],
        values: dict[str, Any] | None,
        then: Callable[[dict[str, Any] | None], None] | None = None,
        **options: Any,
    ) -> None:
        """:meth:`_form`, for the round's flows kept in modules of their own (a saving throw)."""
        self._form(title, fields, values, then, **options)

    def foot_free(self) -> bool:
        """Nothing is asked at the foot of the screen, and no dialog lies over it: the screen may ask something."""
        return not (self.amount_prompt.is_open or self.form_panel.is_open or self.add_panel.is_open) and bool(
            self.is_current
        )

    def _selected_above(self, panel: FormPanel | AmountPrompt) -> None:
        """The selected combatant's row kept in sight above the form or the prompt's note or refusal, once it
        has its height; and the newest lines of the log above that note or refusal. (Not above a form: the log would
        scroll in a frame of its own after the form's, some 15 ms later, at every form opened in a long fight.)"""
        order, log = self.order_list, self.round_log
        if panel.is_open and panel.region:
            order.keep_above(order.scrollable_content_region.bottom - panel.region.y)
            if isinstance(panel, AmountPrompt) and log.display and log.region:
                log.keep_above(log.scrollable_content_region.bottom - panel.region.y)

    def _give_foot(self) -> Callable[[], None]:
        """The footer's line given to a form, which lies over it on a layer of its own while it is
        open (nothing under it moves, and the footer's keys are neither hidden nor shown again); what is
        called when it closes: the keys back, and the focus on the turn list, which keeps its look
        meanwhile."""
        footer = self.key_footer
        order = self.order_list

        def closed() -> None:
            self.round_log.keep_above(0)
            self.set_focus(order, scroll_visible=False)
            footer.show_row()  # (after the focus: the keys shown are the list's)
            order.answered()

        footer.covered = True
        order.answering()
        return closed

    def hold_key(self, event: events.Key) -> bool:
        """The open prompt takes the keys first; those typed while the form's rows are made wait for them (the
        app asks)."""
        return self.amount_prompt.take_key(event) or self.form_panel.hold_key(event) or self.add_panel.hold_key(event)

    def take_paste(self, text: str) -> bool:
        """Text pasted while the prompt is open is typed in it (the app asks)."""
        return self.amount_prompt.take_paste(text)
