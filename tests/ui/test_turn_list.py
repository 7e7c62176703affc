"""The turn list at a glance, at 80×24: each slot says whether it has acted, acts now or is still to come,
each combatant what he has left; the list filters to those acting now or one side; a line says what to do
next."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.ui.fights import opened, saved_round
from tests.ui.steps import SIZE, leave_damage, selected, visible_text
from tui_combat.app import CombatApp
from tui_combat.widgets.order_list import OrderList


def rows(app: CombatApp) -> list[str]:
    order = app.screen.query_one(OrderList)
    return [str(order.get_option_at_index(index).prompt).rstrip() for index in range(order.option_count)]


async def test_slots_say_acted_now_to_come_and_rows_what_is_left(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    saved_round(data_root, "ambush", ["Raf"], 2)  # AD&D 2e: the party (3) acts before the orcs (7)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        # Nobody has spent anything yet: no marker of what is left.
        assert rows(app) == ["▶─ 3 now", "  Raf  20/20", "── 7 to come", "  Orc 1  8/8", "  Orc 2  8/8"]
        # Raf attacks (the roll left empty: the attack is taken, its result told at the table): a 3rd-level
        # warrior (levels 1–6) has one attack a round, now used: 0/1; it was his main action too: 0/1.
        await pilot.press("a", "ctrl+s")
        await leave_damage(pilot)
        assert rows(app)[1] == "  Raf  20/20  0/1·0/1", rows(app)
        hint = visible_text(app.screen.query_one("#step-hint")).strip()
        assert hint == "a attack, c main action, d damage for those acting now, n when done", hint
        await pilot.press("n")
        assert rows(app)[0] == "── 3 acted" and rows(app)[2] == "▶─ 7 now"
        assert visible_text(app.screen.query_one("#step-hint")).strip() == hint  # nothing to send for it


async def test_the_list_filters_to_acting_now_and_to_each_side(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    saved_round(data_root, "ambush", ["Raf"], 2)
    app = make_app(resume="ambush")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        everyone = rows(app)
        await pilot.press("F")
        assert rows(app) == everyone[:2]  # acting now: the party's slot
        await pilot.press("F")
        assert rows(app) == everyone[:2]  # the party
        await pilot.press("F")
        assert rows(app) == everyone[2:]  # the monsters
        assert selected(app) is not None and app.store is not None
        assert app.store.state.combatant(selected(app) or "").name == "Orc 1"
        await pilot.press("F")
        assert rows(app) == everyone


async def test_a_mass_battle_folds_each_group_into_one_row_that_unfolds_on_a_key(
    make_app: Callable[..., CombatApp], data_root: Path
) -> None:
    saved_round(data_root, "horde", ["Raf"], 480)  # 480 orcs of 8 HP: one group, more than a screen's worth
    app = make_app(resume="horde")
    async with app.run_test(size=SIZE) as pilot:
        await opened(pilot)
        assert app.store is not None
        orcs = [c.id for c in app.store.state.combatants if c.name.startswith("Orc")]
        order = app.screen.query_one(OrderList)
        assert rows(app) == ["▶─ 3 now", "  Raf  20/20", "── 7 to come", "  Orc ×480"]
        # Three orcs go down (8 damage each on 8 HP), typed against the first active one each time: the
        # group's row selects its first member still standing.
        await pilot.press("down")
        for orc in orcs[:3]:
            assert selected(app) == orc
            await pilot.press("d", "8", "enter")
        assert rows(app)[3] == "  Orc ×480 · 3 down", rows(app)
        assert order.option_count == 4
        rebuilds, redrawn = order.rebuilds, order.rows_redrawn
        await pilot.press("n")  # the orcs' turn: the two headers change, the group's row stays one row
        assert rows(app) == ["── 3 acted", "  Raf  20/20", "▶─ 7 now", "  Orc ×480 · 3 down"]
        assert order.rebuilds == rebuilds and order.rows_redrawn - redrawn == 2
        assert selected(app) == orcs[3]
        await pilot.press("asterisk")  # unfolded: one row per orc, the selection on the same orc
        assert order.option_count == 2 + 1 + 480  # two slot headers, Raf, the orcs
        assert rows(app)[3:5] == ["  Orc 1  0/8 ✝", "  Orc 2  0/8 ✝"] and selected(app) == orcs[3]
        await pilot.press("asterisk")  # folded again, from any member
        assert rows(app)[3] == "  Orc ×480 · 3 down" and selected(app) == orcs[3]
        await pilot.press("up", "asterisk")  # Raf is in no group: nothing changes
        assert order.option_count == 4
        await pilot.press("q")


def test_a_folded_group_counts_each_way_out_of_the_fight_apart() -> None:
    """Orcs who fled or surrendered are not counted as down."""
    from msgspec.structs import replace

    from tests.ui.fights import round_state
    from tui_combat.widgets.order_rows import folded_groups, order_rows

    state = round_state(["Raf"], 40)
    orcs = [c for c in state.combatants if c.name.startswith("Orc")]
    statuses = {orcs[0].id: "down", orcs[1].id: "down", orcs[2].id: "fled", orcs[3].id: "surrendered"}
    state = replace(state, combatants=tuple(replace(c, status=statuses.get(c.id, c.status)) for c in state.combatants))
    lines = [row.prompt().plain for row in order_rows(state, True, folded=folded_groups(state))]
    assert "  Orc ×40 · 2 down · 1 fled · 1 surrendered" in lines, lines


COMBATANTS = st.lists(
    st.tuples(st.sampled_from(("s1", "s2")), st.sampled_from(("", "g1", "g2", "g3"))), min_size=0, max_size=12
)


@settings(max_examples=200, deadline=None)
@given(COMBATANTS, st.data())
def test_the_rows_list_each_one_wanted_once_where_he_stands(people: list[tuple[str, str]], data: st.DataObject) -> None:
    """Whatever the order, the filter and the groups folded: each slot (each side, before any order) lists
    every combatant of it who is wanted once, in his own row or in his folded group's, in the slot's order;
    a group folded in a slot shows once there; those in no slot come last; a slot nobody wanted in is left
    out only when the list is filtered."""
    from tui_combat.engine.log import Msg
    from tui_combat.engine.model import Combatant, Side, Slot, State
    from tui_combat.widgets.order_rows import FILTER_ACTING, FILTER_ALL, layout

    combatants = tuple(
        Combatant(id=f"c{n}", name=f"C{n}", side=side, hp=1, max_hp=1, group=group)
        for n, (side, group) in enumerate(people)
    )
    ids = [c.id for c in combatants]
    slots = data.draw(
        st.lists(st.lists(st.sampled_from(ids + ["gone"]), unique=True), max_size=4) if ids else st.just([])
    )
    order = tuple(Slot(label=Msg(id=str(n)), combatants=tuple(slot)) for n, slot in enumerate(slots))
    state = State(
        sides=(Side(id="s1", name="One"), Side(id="s2", name="Two")),
        combatants=combatants,
        order=order,
        cursor=data.draw(st.integers(0, max(len(order) - 1, 0))),
    )
    shown = data.draw(st.sampled_from((FILTER_ALL, FILTER_ACTING, "s1", "s2")))
    folded = frozenset(data.draw(st.sets(st.sampled_from(("g1", "g2", "g3")))))
    in_resolve = data.draw(st.booleans())
    acting = set(state.acting_now()) if in_resolve else set()
    by_id = {c.id: c for c in combatants}

    def wanted(cid: str) -> bool:
        combatant = by_id[cid]
        return shown == FILTER_ALL or (shown == FILTER_ACTING and cid in acting) or combatant.side == shown

    def expected(members: list[str]) -> list[tuple[str, ...]]:
        """Each wanted member in his own row, or his folded group once where its first member stands."""
        rows: list[tuple[str, ...]] = []
        groups: dict[str, list[str]] = {}
        for cid in members:
            group = by_id[cid].group
            if group in folded:
                if group not in groups:
                    groups[group] = []
                    rows.append(("group", group))
                groups[group].append(cid)
            else:
                rows.append(("combatant", cid))
        return [("group", row[1], *groups[row[1]]) if row[0] == "group" else row for row in rows]

    want: list[tuple[str, ...]] = []
    if order:
        listed: set[str] = set()
        for index, slot in enumerate(order):
            members = [cid for cid in slot.combatants if cid in by_id]
            listed.update(slot.combatants)
            chosen = [cid for cid in members if wanted(cid)]
            if shown != FILTER_ALL and not chosen:
                continue
            want += [("slot", str(index)), *expected(chosen)]
        idle = [c.id for c in combatants if c.id not in listed and wanted(c.id)]
        if idle:
            want += [("idle",), *expected(idle)]
    else:
        for side in state.sides:
            chosen = [c.id for c in combatants if c.side == side.id and wanted(c.id)]
            if shown != FILTER_ALL and not chosen:
                continue
            want += [("side", side.id), *expected(chosen)]

    got: list[tuple[str, ...]] = []
    for spot in layout(state, in_resolve, shown, folded):
        if spot.kind == "slot":
            got.append(("slot", str(spot.slot)))
        elif spot.kind == "side":
            got.append(("side", spot.who))
        elif spot.kind == "group":
            got.append(("group", spot.who, *spot.members))
        else:
            got.append((spot.kind,) if spot.kind == "idle" else (spot.kind, spot.who))
    assert got == want
