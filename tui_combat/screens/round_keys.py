"""The round screen's class for a ruleset: the generic screen with the ruleset's own actions bound too."""

from __future__ import annotations

from functools import lru_cache
from typing import TypeVar

from textual.binding import Binding
from textual.screen import Screen

from tui_combat.engine.contract import AnyRuleset
from tui_combat.engine.keys import ruleset_binding_id

S = TypeVar("S", bound=Screen[None])


@lru_cache(maxsize=64)
def with_bindings(screen_class: type[S], ruleset_id: str, bindings: tuple[Binding, ...]) -> type[S]:
    """A subclass of ``screen_class`` binding ``bindings``, made once for each ruleset and its actions (it
    keeps the class's name, so that the stylesheet and the snapshots know it)."""
    return type(
        screen_class.__name__,
        (screen_class,),
        {
            "BINDINGS": list(bindings),
            "ruleset_keys_of": ruleset_id,
            "__module__": screen_class.__module__,
            "__qualname__": screen_class.__qualname__,
        },
    )


def ruleset_bindings(ruleset: AnyRuleset) -> list[Binding]:
    """The ruleset's own actions as round-screen bindings, from its static catalogue: ids
    ``<ruleset>.<action>`` (the GM's keymap moves them by those), descriptions as message ids (the registry
    refused any key that collides with a generic one when it loaded the ruleset)."""
    return [
        Binding(
            spec.key,
            f"ruleset({spec.name!r})",
            spec.label,
            show=spec.footer,
            id=ruleset_binding_id(ruleset.id, spec.name),
        )
        for spec in ruleset.actions
    ]
