"""The players' view made again only where the fight changed (:class:`~tui_combat.engine.public.PublicViews`):
after every action of random fights in every ruleset, through the store with undo and redo, what it gives is what
:func:`~tui_combat.engine.public.public_view` makes from nothing; and a turn moving on in a mass battle asks the
rules about nobody."""

from __future__ import annotations

from pathlib import Path
from tempfile import TemporaryDirectory

import pytest
from hypothesis import given
from hypothesis import strategies as st
from msgspec.structs import replace

from tests.engine.test_public import SECRETS_PROFILE, physical, prepared, state_of
from tests.engine.test_public_surfaces import LURKER_NAMES, Step, action_of, fights, played, steps, with_lurker
from tui_combat.engine import actions as a
from tui_combat.engine.apply import apply
from tui_combat.engine.contract import Ruleset
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.engine.public import HealthScale, PublicViews, public_view
from tui_combat.engine.registry import get
from tui_combat.fight.session import DEMOS
from tui_combat.fight.store import Store
from tui_combat.i18n import language, set_language

STATE_FIELDS = set(State.__struct_fields__)


@pytest.mark.parametrize("ruleset", sorted({demo.ruleset for demo in DEMOS}))
def test_each_ruleset_says_what_its_public_conditions_read_in_words_the_view_knows(ruleset: str) -> None:
    reads = get(ruleset).public_reads
    assert reads is not None, "every built-in ruleset says it"
    assert reads <= STATE_FIELDS | {"others"}
    assert "log" not in reads and "combatants" not in reads


@SECRETS_PROFILE
@given(
    fight=fights(),
    advances=st.sampled_from([0, 1, 3, 6, 9, 12]),
    actions=steps,
    surprise=st.booleans(),
    lurker=st.sampled_from(LURKER_NAMES),
    scale=st.sampled_from([HealthScale(), HealthScale(wounded_below=80, bloodied_at=30, words={"down": "out"})]),
)
def test_the_view_kept_from_state_to_state_is_the_view_made_from_nothing(
    fight: tuple[str, tuple[tuple[str, str], ...]],
    advances: int,
    actions: list[Step],
    surprise: bool,
    lurker: str,
    scale: HealthScale,
) -> None:
    base = with_lurker(prepared(*fight), lurker)
    if surprise:
        base = replace(base, surprised=tuple(c.id for c in base.combatants if not base.side(c.side).is_party))
    views = PublicViews(scale)
    with TemporaryDirectory() as folder:
        store = Store.create(base, Path(folder) / "fight")
        try:
            store.dispatch(a.StartFight())
            assert views.view(store.state) == public_view(store.state, scale)
            for _kind, _revealed in played(store, [("advance", n, 1) for n in range(advances)] + actions):
                assert views.view(store.state) == public_view(store.state, scale)
        finally:
            store.close()


@pytest.mark.parametrize("surprise", [False, True])
@pytest.mark.parametrize("demo", [demo.file_name for demo in DEMOS])
def test_through_three_rounds_of_each_demo_the_view_kept_is_the_view_made_from_nothing(
    demo: str, surprise: bool
) -> None:
    """Round after round (what the first round's surprise shows goes with it), a blow now and then."""
    base = prepared(demo, ())
    if surprise:
        base = replace(base, surprised=tuple(c.id for c in base.combatants if not base.side(c.side).is_party))
    views = PublicViews()
    with TemporaryDirectory() as folder:
        store = Store.create(base, Path(folder) / "fight")
        try:
            store.dispatch(a.StartFight())
            for n in range(80):
                action = action_of(store.state, ("advance", n, 1) if n % 5 else ("damage", n, 2))
                if action is None:
                    continue
                try:
                    store.dispatch(action)
                except (RuleError, ValueError):
                    continue
                assert views.view(store.state) == public_view(store.state)
                if store.state.round > 3:
                    break
            assert store.state.round > 1
        finally:
            store.close()


def mass_battle() -> State:
    """The AD&D 2e demo with 300 more monsters, in the turns of its first round (the party acts first)."""
    state = state_of("demo_adnd2e.toml")
    outside = next(side for side in state.sides if not side.is_party)
    state = apply(state, a.AddCombatants(side=outside.id, name="Orc", hp=5, count=300))
    state = apply(state, a.StartFight())
    state = apply(apply(state, a.NextStep()), a.NextStep())
    return apply(state, a.RollInitiative(rolls={"s1": physical(7, "1d10"), "s5": physical(10, "1d10")}))


def test_a_turn_moving_on_and_a_blow_ask_the_rules_about_nobody_else() -> None:
    state = mass_battle()
    views = PublicViews()
    views.view(state)
    everyone = views.made
    assert everyone >= 300
    state = apply(state, a.NextStep())
    assert views.view(state) == public_view(state)
    assert views.made == everyone  # the turn moved: every form taken again (as acting or having acted)
    orc = next(c for c in state.combatants if c.name.startswith("Orc"))
    state = apply(state, a.Damage(combatant=orc.id, amount=1))
    assert views.view(state) == public_view(state)
    assert views.made == everyone + 1  # the orc hit, no one else


def test_rules_that_do_not_say_what_they_read_are_asked_about_everyone_each_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = mass_battle()
    monkeypatch.setattr(type(get(state.ruleset)), "public_reads", Ruleset.public_reads)
    views = PublicViews()
    views.view(state)
    everyone = views.made
    state = apply(state, a.NextStep())
    assert views.view(state) == public_view(state)
    assert views.made == 2 * everyone


def test_a_change_of_language_makes_every_word_again() -> None:
    state = mass_battle()
    views = PublicViews()
    english = views.view(state)
    before = language()
    set_language("ru")
    try:
        russian = views.view(state)
        assert russian == public_view(state) and russian != english
    finally:
        set_language(before)
    assert views.view(state) == english
