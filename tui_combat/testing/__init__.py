"""A public kit for testing with the app: plain async helpers around Textual's Pilot, for the app's own interface
tests and for a ruleset plugin's.

It is installed with tui-combat and needs nothing more (no test runner: the helpers are plain coroutines and context
managers); :mod:`tui_combat.testing.fixtures` adds pytest fixtures for those who use pytest (``pytest_plugins =
["tui_combat.testing.fixtures"]`` in a ``conftest.py``), and only then imports pytest. A test:

* runs where nothing of the developer's is read (:func:`app_environment`, or the fixture ``app_home``): config,
  data and cache folders of its own, English;
* makes the app on a data folder of its own (:func:`make_app`: dice seed 1 unless told, ``encounter=`` a file to
  start from, ``resume=`` a saved session) and runs it headless at 80×24 (``async with
  app.run_test(size=SIZE) as pilot``);
* goes from the set-up to round 1 (:func:`to_round_from_setup`: ``c`` to the surprise step, ``c`` to the round),
  presses keys (``await pilot.press("t")``), types into a form (``await pilot.press(*"K♠", "enter")``);
* waits — for a condition, never for time — for a screen (:func:`until_screen`), a form (:func:`until_form`), a
  form closed (:func:`until_closed`), a log line (:func:`until_log`), the damage prompt (:func:`until_prompt`), the
  footer's keys (:func:`footer_now`), or anything (:func:`until`);
* reads what the screen shows (:func:`visible_text`, :func:`turn_list_text`, :func:`card_text`,
  :func:`footer_text`, :func:`log_texts`, :func:`until_choice`, :func:`store`).

For the rules alone, through the engine (no app): :class:`Faces` (dice that show the faces a test chooses),
:func:`rolled`, :func:`typed` and :func:`die` (rolls built by hand), :func:`ids`, :func:`order_names` and
:func:`labels` (short readers of a state), :func:`registered` (a ruleset registered for one test, without an entry
point).

``docs/writing-a-ruleset.md`` ("Testing a ruleset") shows a whole test; the Savage Worlds example's own tests
(``examples/savage_worlds/tests``) use nothing else. An interface test runs with ``asyncio_mode = "auto"``
(pytest-asyncio) or under ``asyncio.run``. ``TUI_COMBAT_TEST_DEADLINE`` (seconds, default 60) stretches every wait
for a slow machine.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tui_combat.testing.environment import (
        app_environment,
        hermetic_environment,
        pinned_language,
    )
    from tui_combat.testing.pilot import (
        SEED,
        SIZE,
        amount_prompt,
        budget_text,
        card_text,
        choose,
        combatant_id,
        dialog_error,
        footer_now,
        footer_text,
        leave_damage,
        log_texts,
        make_app,
        open_demo,
        open_form,
        open_form_of,
        opened,
        prompt_error,
        prompt_line,
        select,
        selected,
        session_folders,
        store,
        to_round,
        to_round_from_setup,
        to_surprise,
        turn_list_text,
        type_initiative,
        until_choice,
        until_closed,
        until_footer,
        until_form,
        until_log,
        until_prompt,
        until_prompt_closed,
        until_round,
        until_sessions,
        until_setup,
        visible_text,
    )
    from tui_combat.testing.rules import Faces, die, ids, labels, order_names, registered, rolled, typed
    from tui_combat.testing.waiting import (
        DEFAULT_DEADLINE,
        NOT_YET,
        STEP,
        deadline,
        eventually,
        settled,
        until,
        until_screen,
        until_widget,
    )

_HOME = {
    name: module
    for module, names in (
        ("environment", ("app_environment", "hermetic_environment", "pinned_language")),
        ("rules", ("Faces", "die", "ids", "labels", "order_names", "registered", "rolled", "typed")),
        (
            "waiting",
            (
                "DEFAULT_DEADLINE",
                "NOT_YET",
                "STEP",
                "deadline",
                "eventually",
                "settled",
                "until",
                "until_screen",
                "until_widget",
            ),
        ),
    )
    for name in names
}
"""Where each name lives; the rest are :mod:`tui_combat.testing.pilot`'s. Read when first asked for (so that
importing the kit's environment, before a test run pins it, imports nothing of the app)."""


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{_HOME.get(name, 'pilot')}"), name)


__all__ = [
    "DEFAULT_DEADLINE",
    "Faces",
    "NOT_YET",
    "SEED",
    "SIZE",
    "STEP",
    "amount_prompt",
    "app_environment",
    "budget_text",
    "card_text",
    "choose",
    "combatant_id",
    "deadline",
    "dialog_error",
    "field_labels",
    "die",
    "eventually",
    "footer_now",
    "footer_text",
    "hermetic_environment",
    "ids",
    "labels",
    "leave_damage",
    "log_texts",
    "make_app",
    "open_demo",
    "open_form",
    "open_form_of",
    "opened",
    "order_names",
    "pinned_language",
    "prompt_error",
    "prompt_line",
    "registered",
    "rolled",
    "select",
    "selected",
    "session_folders",
    "settled",
    "store",
    "to_round",
    "to_round_from_setup",
    "to_surprise",
    "turn_list_text",
    "type_initiative",
    "typed",
    "until",
    "until_choice",
    "until_closed",
    "until_footer",
    "until_form",
    "until_log",
    "until_prompt",
    "until_prompt_closed",
    "until_round",
    "until_screen",
    "until_sessions",
    "until_setup",
    "until_widget",
    "visible_text",
]
