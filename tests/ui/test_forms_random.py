"""Random text typed into every field of every form the app shows: each form either refuses with a message
or gives values of its fields' types (whole numbers of at most nine digits); nothing ever raises.

The forms are collected from every installed ruleset, on each demo encounter in set-up and in its first
round: the combatant form with the ruleset's sheet, the options, every declaration and every action form,
and the app's own forms (a side, a name, damage and healing, a surprise modifier, a distance)."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Coroutine, Iterator
from concurrent.futures import Future
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select

from tests.ui.steps import SIZE, until_form
from tests.waiting import deadline, until
from tui_combat.app import CombatApp
from tui_combat.engine import actions as a
from tui_combat.engine import registry
from tui_combat.engine.apply import apply
from tui_combat.engine.contract import FieldSpec
from tui_combat.engine.dice import Roll
from tui_combat.engine.encounter import ENCOUNTER_DIR, encounter_actions, load_encounter
from tui_combat.engine.errors import RuleError
from tui_combat.engine.model import State
from tui_combat.fight.session import DEMOS
from tui_combat.fight.store import new_state
from tui_combat.screens.dialogs import MAX_DIGITS, FormDialog, Validator, convert_fields
from tui_combat.screens.round import read_amount
from tui_combat.screens.setup import combatant_fields

NASTY = [
    "²",
    "①",
    "٣",
    "9" * 5000,
    "-" + "9" * 40,
    "[/]",
    "[b]x",
    "\\",
    "\x00",
    "−5",
    "1d6+²",
    "  ",
    "-",
    "+",
    "2d6",
    "10 10 10",
    "1d20",
    "🐉",
    "\u200b",
    "Raf [/]",
]
TYPED = st.one_of(st.text(max_size=40), st.sampled_from(NASTY))


class Form(NamedTuple):
    name: str
    fields: tuple[FieldSpec, ...]
    validate: Validator | None = None


def _amount(values: dict[str, Any]) -> dict[str, Any] | str:
    return read_amount(str(values["amount"]), random.Random(1))


APP_FORMS = [
    Form(
        "side",
        (FieldSpec(key="name", label="Side name"), FieldSpec(key="party", label="Player characters", kind="bool")),
    ),
    Form("rename", (FieldSpec(key="name", label="Name"),)),
    Form("damage", (FieldSpec(key="amount", label="Amount, or dice to roll (2d6+1)"),), _amount),
    Form("surprise modifier", (FieldSpec(key="modifier", label="Modifier", kind="int", default=0),)),
    Form("distance", (FieldSpec(key="figure", label="Distance", kind="int", default=""),)),
    Form(
        "surprise dice",
        (
            FieldSpec(key="s1", label="Party", kind="roll", default="1d6"),
            FieldSpec(key="s2", label="Monsters", kind="roll", default="1d10!"),
        ),
    ),
]


def _states() -> list[State]:
    """Each demo encounter in set-up, and in its first round (nobody surprised)."""
    states = []
    for demo in DEMOS:
        state = new_state(seed=1, ruleset="adnd2e")
        for action in encounter_actions(load_encounter(ENCOUNTER_DIR / demo.file_name), state):
            state = apply(state, action)
        states.append(state)
        for action in (a.BeginSurprise(), a.StartFight()):
            state = apply(state, action)
        states.append(state)
    return states


@cache
def all_forms() -> list[Form]:
    forms = list(APP_FORMS)
    for state in _states():
        ruleset = registry.get(state.ruleset)
        if state.phase == "setup":
            forms.append(Form(f"{state.ruleset}: combatant", tuple(combatant_fields(state, with_side=True))))
            options = tuple(
                FieldSpec(key=o.key, label=o.label, kind="choice", choices=o.choices, default=o.choices[0][0])
                for o in ruleset.options
            )
            if options:
                forms.append(Form(f"{state.ruleset}: options", options))
            continue
        first_of_each_side = {c.side: c.id for c in reversed(state.combatants)}
        for combatant_id in first_of_each_side.values():
            try:
                forms.append(Form(f"{state.ruleset}: declaration", ruleset.declaration_fields(state, combatant_id)))
            except RuleError:
                pass
            for spec in ruleset.actions:
                try:
                    fields = ruleset.action_fields(state, spec.name, combatant_id)
                except RuleError:
                    continue
                if fields:
                    forms.append(Form(f"{state.ruleset}: {spec.name}", fields))
    return [form for form in forms if form.fields]


def test_every_kind_of_field_is_covered() -> None:
    kinds = {spec.kind for form in all_forms() for spec in form.fields}
    assert kinds == {"int", "str", "choice", "bool", "roll"}
    assert {form.name.split(":")[0] for form in all_forms()} >= {
        ruleset for ruleset in registry.available() if ruleset in {d.ruleset for d in DEMOS}
    }
    assert len(all_forms()) > 30


def check_values(form: Form, result: dict[str, Any] | str) -> None:
    """A message, or a value of each field's type; numbers within what a form takes."""
    if isinstance(result, str):
        assert result.strip(), f"{form.name}: an empty message"
        return
    if form.validate is not None:  # the damage form: an amount and maybe the dice rolled for it
        assert isinstance(result["amount"], int) and 0 <= result["amount"] < 10**MAX_DIGITS
        return
    assert set(result) == {spec.key for spec in form.fields}, form.name
    for spec in form.fields:
        value = result[spec.key]
        if spec.kind == "int":
            assert isinstance(value, int) and abs(value) < 10**MAX_DIGITS, (form.name, spec.key, value)
        elif spec.kind == "bool":
            assert isinstance(value, bool)
        elif spec.kind == "roll":
            assert isinstance(value, Roll)
        else:
            assert isinstance(value, str), (form.name, spec.key, value)


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_random_text_in_every_field_converts_or_is_refused(data: st.DataObject) -> None:
    form = data.draw(st.sampled_from(all_forms()), label="form")
    raw: dict[str, Any] = {}
    for spec in form.fields:
        if spec.kind == "bool":
            raw[spec.key] = data.draw(st.booleans())
        elif spec.kind == "choice" and spec.choices:
            raw[spec.key] = data.draw(st.sampled_from([value for value, _label in spec.choices]))
        else:
            raw[spec.key] = data.draw(TYPED, label=spec.key)
    result = convert_fields(form.fields, raw, random.Random(1))
    if isinstance(result, dict) and form.validate is not None:
        result = form.validate(result)
    check_values(form, result)


# -- the same, typed into the forms on screen -----------------------------------------------------------------
class ScreenHost:
    """One app, started once for every example: its event loop runs in a thread of its own, and each example's
    form is pushed on it, filled, submitted and closed there (an app started for each example spent most of
    the test starting apps; the forms are the same)."""

    def __init__(self, folder: Path) -> None:
        self.app = CombatApp(folder, seed=1)
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.pilot: Pilot[None] | None = None
        self.problem: BaseException | None = None
        self.thread = threading.Thread(target=self.loop.run_until_complete, args=(self._host(),), daemon=True)
        self.thread.start()
        if not self.ready.wait(deadline()):
            raise AssertionError(f"the app did not start in {deadline():.0f} s")
        if self.problem is not None:
            raise self.problem

    async def _host(self) -> None:
        """Runs the app, and each job given to it inside the app's own task (where Textual knows its app)."""
        self.jobs: asyncio.Queue[tuple[Coroutine[Any, Any, Any], Future[Any]] | None] = asyncio.Queue()
        try:
            async with self.app.run_test(size=SIZE) as pilot:
                self.pilot = pilot
                self.ready.set()
                while (job := await self.jobs.get()) is not None:
                    work, future = job
                    try:
                        future.set_result(await work)
                    except BaseException as error:  # the example's failure, raised in the test
                        future.set_exception(error)
        except BaseException as error:  # told to the test that waits for the app
            self.problem = error
            self.ready.set()

    def fill_and_submit(self, form: Form, texts: list[str]) -> dict[str, Any] | str | None:
        assert self.pilot is not None
        future: Future[dict[str, Any] | str | None] = Future()
        self.loop.call_soon_threadsafe(self.jobs.put_nowait, (fill_and_submit(self.pilot, form, texts), future))
        return future.result(timeout=2 * deadline())

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.jobs.put_nowait, None)
        self.thread.join(timeout=deadline())
        self.loop.close()


@pytest.fixture(scope="module")
def screen_host(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ScreenHost]:
    host = ScreenHost(tmp_path_factory.mktemp("forms-on-screen"))
    yield host
    host.close()


async def fill_and_submit(pilot: Pilot[None], form: Form, texts: list[str]) -> dict[str, Any] | str | None:
    """Open ``form``, put ``texts`` into its text fields (as typing or a paste would), tick its boxes, submit
    with ctrl+s; close it if it refused. Returns the values it gave, or the message it shows."""
    app = pilot.app
    under = app.screen
    given: list[dict[str, Any] | None] = []
    dialog = FormDialog(form.name, form.fields, validate=form.validate, rng=random.Random(1))
    await app.push_screen(dialog, given.append)
    await until_form(pilot)
    for widget, text in zip(dialog.query(Input), texts):
        widget.value = ""
        widget.insert_text_at_cursor(text)
    for box in dialog.query(Checkbox):
        box.toggle()
    assert all(select.value is not Select.BLANK for select in dialog.query(Select))
    await pilot.press("ctrl+s")
    if given:
        await until(pilot, lambda: app.screen is under, "the form closed")
        return given[0]
    assert app.screen is dialog
    message = str(dialog.query_one("#dialog-error").render())
    await pilot.press("escape")
    await until(pilot, lambda: app.screen is under, "the refusing form closed")
    return message


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_text_typed_into_the_forms_on_screen(screen_host: ScreenHost, data: st.DataObject) -> None:
    form = data.draw(st.sampled_from(all_forms()), label="form")
    texts = [data.draw(TYPED, label=spec.key) for spec in form.fields if spec.kind in ("str", "int", "roll")]
    result = screen_host.fill_and_submit(form, texts)
    assert result is not None
    check_values(form, result)
