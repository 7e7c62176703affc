"""Key sequences shared by the interface tests, and short readers of what the screen shows: the app's public
testing kit's (:mod:`tui_combat.testing`), which the tests reach through here, and the demo's side ids."""

from __future__ import annotations

from tui_combat.testing.pilot import (
    SEED,
    SIZE,
    amount_prompt,
    budget_text,
    choose,
    combatant_id,
    dialog_error,
    footer_now,
    footer_text,
    leave_damage,
    log_texts,
    open_demo,
    open_form,
    open_form_of,
    prompt_error,
    prompt_line,
    select,
    selected,
    session_folders,
    store,
    to_round,
    to_round_from_setup,
    to_surprise,
    type_initiative,
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

PARTY = "s1"
MONSTERS = "s5"
"""The AD&D 2e demo's party and monsters, by side id."""

__all__ = [
    "MONSTERS", "PARTY", "SEED", "SIZE", "amount_prompt", "budget_text", "choose", "combatant_id", "dialog_error",
    "footer_now", "footer_text", "leave_damage", "log_texts", "open_demo", "open_form", "open_form_of", "prompt_error",
    "prompt_line", "select", "selected", "session_folders", "store", "to_round", "to_round_from_setup", "to_surprise",
    "type_initiative", "until_closed", "until_footer", "until_form", "until_log", "until_prompt", "until_prompt_closed",
    "until_round", "until_sessions", "until_setup", "visible_text",
]
