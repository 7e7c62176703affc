"""What the round screen's flows kept in modules of their own (an area, a saving throw, the damage prompt, what the
screen asks by itself) need of the screen, as a protocol: they never import the round screen, which imports them.

:class:`~tui_combat.screens.round.RoundScreen` satisfies it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from textual.app import App
from textual.geometry import Size
from textual.notifications import SeverityLevel

if TYPE_CHECKING:
    from tui_combat.engine.contract import ActionSpec, AnyRuleset, FieldSpec
    from tui_combat.engine.model import State
    from tui_combat.engine.saves import SpecialAbility
    from tui_combat.fight.store import Store
    from tui_combat.screens.host import Host

__all__ = ["KeepsTheDc", "KnowsAbilities", "RoundView"]


class KeepsTheDc(Protocol):
    last_dc: int
    """The DC last given to a saving throw or an area (the next form starts with it)."""


class KnowsAbilities(Protocol):
    def abilities_of(self, combatant_id: str | None) -> tuple[SpecialAbility, ...]: ...


class RoundView(Protocol):
    @property
    def app(self) -> App[Any]: ...

    @property
    def size(self) -> Size: ...

    @property
    def host(self) -> Host: ...

    @property
    def store(self) -> Store: ...

    @property
    def state(self) -> State: ...

    @property
    def ruleset(self) -> AnyRuleset: ...

    @property
    def asks(self) -> KeepsTheDc: ...

    @property
    def area(self) -> KnowsAbilities: ...

    def selected(self) -> str | None: ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...

    def ask_prompt(self, title: str, submit: Callable[[str], str | None], **options: Any) -> None: ...

    def ask_form(
        self,
        title: str,
        fields: tuple[FieldSpec, ...] | list[FieldSpec],
        values: dict[str, Any] | None,
        then: Callable[[dict[str, Any] | None], None] | None = None,
        **options: Any,
    ) -> None: ...

    def foot_free(self) -> bool: ...

    def action_spec(self, name: str) -> ActionSpec | None: ...

    def ruleset_form(self, spec: ActionSpec, combatant_id: str | None, *, out_of_turn: bool = False) -> None: ...
