"""Checking the GM's keymap against every screen's bindings: known ids, well-formed keys, no key taken twice
where an action runs (each ruleset's round screen with its own keys); and the registry's check of a
ruleset's keys sees the keys in force."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tui_combat.app import CombatApp
from tui_combat.engine import keys, registry
from tui_combat.engine.errors import RuleError
from tui_combat.screens.keymap import KeyTable, check_keymap, collect, key_refusal, well_formed


@pytest.fixture(scope="module")
def table() -> KeyTable:
    return collect(CombatApp)


@pytest.fixture(autouse=True)
def no_keymap_after() -> Iterator[None]:
    yield
    keys.use_keymap({})


def reasons(entries: dict[str, object], table: KeyTable) -> dict[str, str]:
    return {problem.binding_id: problem.reason for problem in check_keymap(entries, table).problems}


def test_every_screen_and_ruleset_is_there(table: KeyTable) -> None:
    bindings = table.bindings()
    for binding_id in (
        "sessions.new",
        "setup.add",
        "surprise.roll",
        "round.next",
        "round.undo",
        "dialog.cancel",
        "help.close",
        "settings.close",
        "app.help",
        "app.settings",
        "adnd2e.attack",
        "dnd5e.move",
        "trudvang.parry",
        "ose.morale",
        "players_option.check",
    ):
        assert binding_id in bindings, binding_id
    assert bindings["round.next"].keys == ("n", "space")
    assert "view.quit" not in bindings  # the players' screen is another app


def test_a_good_keymap_is_taken_whole(table: KeyTable) -> None:
    check = check_keymap(
        {"round.next": "y", "sessions.new": ["N", "ctrl+n"], "app.help": "?", "adnd2e.attack": "F5"}, table
    )
    # "?" is written as Textual names it; "F5" is no key (Textual's are lower case) and is refused.
    assert check.keymap == {"round.next": "y", "sessions.new": "N,ctrl+n", "app.help": "question_mark"}
    assert [problem.binding_id for problem in check.problems] == ["adnd2e.attack"]


def test_an_unknown_id_is_refused_with_the_nearest_name(table: KeyTable) -> None:
    assert reasons({"round.nxt": "y"}, table) == {
        "round.nxt": 'no action is called "round.nxt". Did you mean "round.next"?'
    }


@pytest.mark.parametrize("value", ["", "ctrl+", "ctrl+ctrl+x", "jj", "hyperspace", "j k", "nonsense+x"])
def test_a_malformed_key_is_refused(table: KeyTable, value: str) -> None:
    assert list(reasons({"round.next": value}, table)) == ["round.next"]


@pytest.mark.parametrize(
    "key", ["y", "Y", "ctrl+y", "f5", "space", "escape", "question_mark", "ctrl+shift+up", "alt+x", "ж"]
)
def test_well_formed_keys(key: str) -> None:
    assert well_formed(key)


def test_a_value_that_is_not_text_is_refused(table: KeyTable) -> None:
    assert reasons({"round.next": 5, "round.back": []}, table) == {
        "round.next": 'the keys of Next must be text, such as "j" or "ctrl+n".',
        "round.back": 'the keys of Back must be text, such as "j" or "ctrl+n".',
    }


def test_a_key_of_the_same_screen_is_refused(table: KeyTable) -> None:
    assert reasons({"round.next": "d"}, table) == {
        "round.next": "d for Next is already the key of Damage on the round (AD&D 2nd edition)."
    }


def test_a_rulesets_own_key_counts_on_its_round_screen(table: KeyTable) -> None:
    # j is free on the AD&D round screen but Trudvang's "act held".
    assert reasons({"round.next": "j"}, table) == {
        "round.next": "j for Next is already the key of Act held on the round (Trudvang Chronicles)."
    }
    # A key of the set-up screen is free on the round screen, and the other way round.
    assert check_keymap({"round.next": "f2", "setup.options": "n"}, table).problems == []


def test_an_app_key_is_taken_on_every_screen(table: KeyTable) -> None:
    assert reasons({"app.help": "e"}, table) == {
        "app.help": "e for Help is already the key of Rename on the session list."
    }
    assert reasons({"setup.add": "f1"}, table) == {"setup.add": "f1 for Add is already the key of Help on set-up."}


def test_keys_that_move_around_the_screen_and_the_apps_own_are_refused(table: KeyTable) -> None:
    assert reasons({"round.next": "down"}, table) == {
        "round.next": "↓ moves around the screen; it cannot be the key of Next."
    }
    assert list(reasons({"round.next": "ctrl+p"}, table)) == ["round.next"]


def test_two_entries_taking_one_key_refuse_the_later_one(table: KeyTable) -> None:
    check = check_keymap({"round.heal": "y", "round.status": "y"}, table)
    assert check.keymap == {"round.heal": "y"}
    assert [(p.binding_id, p.reason) for p in check.problems] == [
        ("round.status", "y for Status is already the key of Heal on the round (AD&D 2nd edition).")
    ]


def test_a_key_set_free_by_another_entry_can_be_taken(table: KeyTable) -> None:
    """Damage leaves d: Next may take it, whichever comes first in the file."""
    assert check_keymap({"round.next": "d", "round.damage": "y"}, table).keymap == {
        "round.next": "d",
        "round.damage": "y",
    }
    assert check_keymap({"round.damage": "y", "round.next": "d"}, table).problems == []
    # Damage refused (y then taken by Next) keeps d, so Next cannot have it after all.
    check = check_keymap({"round.next": "y", "round.damage": "y"}, table)
    assert check.keymap == {"round.next": "y"}


def test_the_settings_screen_asks_the_same(table: KeyTable) -> None:
    assert key_refusal("round.next", ("y",), {}, table) is None
    assert (
        key_refusal("round.next", ("d",), {}, table)
        == "d for Next is already the key of Damage on the round (AD&D 2nd edition)."
    )
    assert key_refusal("round.next", ("d",), {"round.damage": "y"}, table) is None
    assert key_refusal("round.next", ("y",), {"round.damage": "y"}, table) is not None


def test_the_registry_checks_a_rulesets_keys_against_the_keys_in_force() -> None:
    attack_spec = next(spec for spec in registry.get("adnd2e").actions if spec.name == "attack")
    assert attack_spec.key == "a"
    registry.check_catalogue(registry.get("adnd2e"))
    keys.use_keymap({"round.next": "a"})  # not checked here: the registry must catch it
    assert keys.reserved()["a"] == "round.next" and "n" not in keys.reserved()
    with pytest.raises(RuleError, match="the key a of Attack is already the app's key for Next"):
        registry.check_catalogue(registry.get("adnd2e"))
    keys.use_keymap({"adnd2e.attack": "d"})
    with pytest.raises(RuleError, match="the key d of Attack is already the app's key for Damage"):
        registry.check_catalogue(registry.get("adnd2e"))
    keys.use_keymap({"adnd2e.attack": "y"})
    registry.check_catalogue(registry.get("adnd2e"))


def test_hint_lines_name_the_key_in_force() -> None:
    assert keys.shown_key("round.next") == "n"
    assert keys.shown_key("round.leave") == "Esc"
    keys.use_keymap({"round.next": "y,n", "round.leave": "question_mark"})
    assert keys.shown_key("round.next") == "y"
    assert keys.shown_key("round.leave") == "?"
    assert keys.shown_key("adnd2e.attack", "a") == "a"
