"""Key descriptions in the GM's language of the moment, not of the moment a module was imported.

A class's ``BINDINGS`` are written with :func:`~tui_combat.i18n.N_` (English message ids) and stay so; what a
screen shows of them is translated as it is read (:class:`TranslatedBindings`, :func:`described`), so the footer,
help, the palette and the settings show the language active then.
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any

from textual.binding import ActiveBinding, Binding, BindingsMap
from textual.dom import DOMNode

from tui_combat.engine.keys import keymap as keys_in_force
from tui_combat.i18n import _


def class_bindings(cls: type[DOMNode]) -> BindingsMap:
    """The bindings of a screen, widget or app class with those of its bases, each key taking the bindings of
    the class nearest to it that binds it (as Textual merges them; none of the classes read here leaves out its
    bases' bindings)."""
    keys: dict[str, list[Binding]] = {}
    for base in reversed(cls.__mro__):
        if issubclass(base, DOMNode):
            keys.update(BindingsMap(base.__dict__.get("BINDINGS", [])).key_to_bindings)
    return BindingsMap.from_keys(keys)


@lru_cache(maxsize=128)
def merged_bindings(cls: type[DOMNode]) -> BindingsMap:
    """:func:`class_bindings`, made once per class: read it, never change it. These are a node's bindings, its
    keys before the GM's keymap moves any."""
    return class_bindings(cls)


@lru_cache(maxsize=4096)
def _with_words(binding: Binding, description: str, tooltip: str, group: str | None) -> Binding:
    return replace(
        binding,
        description=description,
        tooltip=tooltip,
        group=replace(binding.group, description=group) if binding.group is not None and group is not None else None,
    )


def translated_binding(binding: Binding) -> Binding:
    """``binding`` with its description, tooltip and group's description in the active language."""
    description, tooltip = _(binding.description), _(binding.tooltip)
    group = _(binding.group.description) if binding.group is not None else None
    if (
        description == binding.description
        and tooltip == binding.tooltip
        and (binding.group is None or group == binding.group.description)
    ):
        return binding
    return _with_words(binding, description, tooltip, group)


def translated_bindings(bindings: BindingsMap) -> BindingsMap:
    return BindingsMap.from_keys(
        {
            key: [translated_binding(binding) for binding in key_bindings]
            for key, key_bindings in bindings.key_to_bindings.items()
        }
    )


def described(node: DOMNode) -> BindingsMap:
    """``node``'s bindings (those of its class) in the active language, their keys before the GM's keymap."""
    return translated_bindings(merged_bindings(type(node)))


def keymapped(node: DOMNode) -> BindingsMap:
    """``node``'s bindings with the keys they have now: the GM's keymap (Textual's, by binding id) applied."""
    bindings = described(node)
    keymap = keys_in_force()  # (the GM's keymap, given to Textual's set_keymap as it is recorded)
    if keymap:
        bindings.apply_keymap(keymap)
    return bindings


class TranslatedBindings:
    """Put first among the bases of a screen whose ``BINDINGS`` (and those of its widgets and the app) have
    English descriptions: the keys it shows (``active_bindings``: the footer's) are in the active language."""

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        active: dict[str, ActiveBinding] = super().active_bindings  # type: ignore[misc]
        shown: dict[str, ActiveBinding] = {}
        for key, (node, binding, enabled, tooltip) in active.items():
            translated = translated_binding(binding)
            shown[key] = ActiveBinding(
                node, translated, enabled, translated.tooltip if tooltip == binding.tooltip else tooltip
            )
        return shown


class KeysInWrittenOrder:
    """Put first among the bases of a screen with a footer: its keys in the order its bindings are written,
    whatever keys the GM's keymap moved them to. (Textual moves a binding to its new key by taking it out and
    putting it back last: "j Next" went to the end of the footer.)"""

    app: Any

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        active: dict[str, ActiveBinding] = super().active_bindings  # type: ignore[misc]
        if not keys_in_force():  # nothing moved (the GM's keymap, given to Textual's set_keymap as recorded)
            return active
        nodes: dict[DOMNode, tuple[int, dict[str, int]]] = {}  # node → (its rank, each binding's place in it)

        def written(item: tuple[str, ActiveBinding]) -> tuple[int, int]:
            node, binding = item[1].node, item[1].binding
            if node not in nodes:
                places: dict[str, int] = {}
                for bindings in merged_bindings(type(node)).key_to_bindings.values():
                    for each in bindings:
                        places.setdefault(each.id or each.action, len(places))
                nodes[node] = (len(nodes), places)
            rank, places = nodes[node]
            return rank, places.get(binding.id or binding.action, len(places))

        return dict(sorted(active.items(), key=written))
