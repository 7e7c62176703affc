"""An area effect from the round screen, step by step: its targets (:class:`~.area_targets.TargetPicker`), what it is
(a form: name, damage dice, type where the rules have types, save, DC where they use one, what a success leaves, one
roll for all), then what it would do to each (:class:`~.area_preview.AreaPreview`), applied by Enter as one action.

Esc at any step leaves it with nothing applied, and nothing typed lost: the area key takes it up again where it was
left. A special ability (a dragon's Fire Breath, ready or not) starts it filled in.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from tui_combat.engine.contract import FieldSpec
from tui_combat.engine.dice import Dice, DiceError, parse
from tui_combat.engine.errors import RuleError
from tui_combat.engine.log import render
from tui_combat.engine.model import State
from tui_combat.engine.saves import ON_SAVE, SpecialAbility
from tui_combat.i18n import N_, _, ngettext
from tui_combat.screens.area_draft import (
    AreaDraft,
    AreaRolls,
    ability_shown,
    damage_roll,
    dc_matters,
    draft_of_ability,
    read_damage_kind,
    roll_saves,
    shown_name,
    target_odds,
    type_words,
)
from tui_combat.screens.dialogs import ChoiceDialog, FormDialog
from tui_combat.screens.saving_throw import save_label

if TYPE_CHECKING:
    from tui_combat.screens.round_view import RoundView

__all__ = ["AreaFlow", "ability_label"]

SOURCES_MOST = 12
"""The form offers as the area's source those acting now, when there are no more than this, and the selected one."""


def ability_label(screen: RoundView, ability: SpecialAbility) -> str:
    """ "Fire Breath — 17d6 fire, Dexterity DC 21, half damage · recharge 5–6: ready", as the list of abilities
    shows it."""
    state, ruleset = screen.state, screen.ruleset
    parts: list[str] = []
    if ability.damage:
        kind = dict(type_words(ruleset, state)).get(ability.kind, "")
        parts.append(f"{ability.damage} {kind}".strip())
    if ability.save:
        save = save_label(ruleset, state, ability.save)
        parts.append(_("{save} DC {dc}", save=save, dc=ability.dc) if ability.dc else save)
        if ability.damage:
            parts.append(_(dict(ON_SAVE).get(ability.on_save, ability.on_save)))
    note = render(ability.note) if ability.note else (_("ready") if ability.ready else _("not ready"))
    name = ability_shown(ability.name)
    return f"{name} — {', '.join(parts)} · {note}" if parts else f"{name} · {note}"


class AreaFlow:
    """Made with the round screen (nothing is built until the GM asks for an area)."""

    def __init__(self, screen: RoundView) -> None:
        self.screen = screen
        self.kept: AreaDraft | None = None
        """The area left with Esc, taken up again by the area key."""
        self.kept_rolls: AreaRolls | None = None
        self._abilities: tuple[State, str, tuple[SpecialAbility, ...]] | None = None

    # -- the steps --------------------------------------------------------------------------------------------
    def start(self, fresh: AreaDraft | None = None) -> None:
        """The targets first (those of the area left before, marked again); a ``fresh`` draft replaces it."""
        from tui_combat.screens.area_targets import TargetPicker  # (made when asked for: the round starts without it)

        screen = self.screen
        state = screen.state
        draft = fresh if fresh is not None else self.kept or AreaDraft()
        if fresh is not None:
            self.kept, self.kept_rolls = fresh, None
        title = self.title(draft)
        highlighted = screen.selected()
        if draft.source and state.has(draft.source):
            side = state.combatant(draft.source).side
            highlighted = next((c.id for c in state.combatants if c.side != side), highlighted)

        def chosen(targets: tuple[str, ...] | None) -> None:
            if targets is None:
                self.kept = draft
                return
            self.ask_form(replace(draft, targets=targets))

        screen.app.push_screen(TargetPicker(state, screen.ruleset, title, draft.targets, highlighted), chosen)

    def title(self, draft: AreaDraft) -> str:
        state = self.screen.state
        if draft.ability and state.has(draft.source):
            name = state.combatant(draft.source).name
            return _("{ability} — {name}", ability=ability_shown(draft.ability), name=name)
        return _("Area effect")

    def fields(self, draft: AreaDraft) -> list[FieldSpec]:
        screen = self.screen
        state, ruleset = screen.state, screen.ruleset
        fields = [
            FieldSpec(key="name", label=N_("Name"), help=N_("Fireball, Fire Breath, Sleep")),
            FieldSpec(key="dice", label=N_("Damage dice"), help=N_("8d6, 17d6, 12; empty: no damage")),
        ]
        types = type_words(ruleset, state)
        if types:
            fields.append(
                FieldSpec(
                    key="kind",
                    label=N_("Damage type"),
                    suggestions=tuple(kind for kind, _word in types),
                    help=_("→ completes: {words}", words=", ".join(word for _kind, word in types)),
                )
            )
        kinds = ruleset.save_kinds(state)
        if kinds:
            fields.append(
                FieldSpec(
                    key="save",
                    label=N_("Saving throw"),
                    kind="choice",
                    default="",
                    choices=(("", N_("no saving throw")), *kinds),
                )
            )
            if self.uses_dc(draft, kinds[0][0]):
                fields.append(
                    FieldSpec(
                        key="dc",
                        label=N_("DC"),
                        kind="int",
                        default=screen.asks.last_dc,
                        minimum=0,
                        maximum=40,
                        help=N_("0: none"),
                    )
                )
            fields.append(
                FieldSpec(
                    key="on_save", label=N_("On a successful save"), kind="choice", default="half", choices=ON_SAVE
                )
            )
            fields.append(FieldSpec(key="group_roll", label=N_("One roll for all"), kind="bool", default=False))
        sources = self.sources(draft)
        if len(sources) > 1 and not draft.ability:
            fields.append(FieldSpec(key="source", label=N_("Whose"), kind="choice", default="", choices=tuple(sources)))
        return fields

    def uses_dc(self, draft: AreaDraft, kind: str) -> bool:
        state = self.screen.state
        anyone = state.combatants[0].id if state.combatants else ""
        probe = next((cid for cid in draft.targets if state.has(cid)), anyone)
        return bool(probe) and dc_matters(self.screen.ruleset, state, probe, draft.save or kind)

    def sources(self, draft: AreaDraft) -> list[tuple[str, str]]:
        """Who may be the area's source: nobody, those acting now (when few), the selected one."""
        screen = self.screen
        state = screen.state
        ids = list(state.acting_now()) if len(state.acting_now()) <= SOURCES_MOST else []
        for extra in (screen.selected(), draft.source):
            if extra and extra not in ids and state.has(extra):
                ids.append(extra)
        return [("", N_("nobody in the fight")), *((cid, state.combatant(cid).name) for cid in ids)]

    def values(self, draft: AreaDraft) -> dict[str, Any]:
        source = draft.source
        if not source and not draft.name:  # a new area: the one acting now, alone, is its source
            acting = self.screen.state.acting_now()
            source = acting[0] if len(acting) == 1 else ""
        kind = dict(type_words(self.screen.ruleset, self.screen.state)).get(draft.kind, draft.kind)
        return {
            "name": shown_name(draft),
            "dice": draft.dice,
            "kind": kind,
            "save": draft.save,
            "dc": draft.dc or self.screen.asks.last_dc,
            "on_save": draft.on_save,
            "group_roll": draft.group_roll,
            "source": source,
        }

    def read(self, draft: AreaDraft, values: dict[str, Any]) -> AreaDraft | str:
        """The form's values as the draft, or what is wrong with them."""
        screen = self.screen
        state, ruleset = screen.state, screen.ruleset
        name = " ".join(str(values.get("name", "")).split())
        if not name:
            return _("Give the effect a name.")
        if draft.ability and name in (ability_shown(draft.ability), draft.ability):
            name = draft.ability  # the ability's own name, kept as its data has it (shown in the reader's language)
        dice = str(values.get("dice", "")).strip()
        if dice:
            try:
                parse(dice)
            except DiceError as error:
                return _("Damage dice: {error}", error=error)
        typed_kind = str(values.get("kind", "") or "").strip()
        kind = ""
        if typed_kind:
            found = read_damage_kind(ruleset, state, typed_kind)
            if found is None:
                return _(
                    '"{kind}" is not a type of damage; the types are: {known}.',
                    kind=typed_kind,
                    known=", ".join(word for _kind, word in type_words(ruleset, state)),
                )
            kind = found
        save = str(values.get("save", "") or "")
        if not save and not dice:
            return _("An area effect deals damage, asks for a saving throw, or both.")
        dc = int(values.get("dc", 0) or 0) if save and "dc" in values and self.uses_dc(draft, save) else 0
        source = draft.source if draft.ability else str(values.get("source", draft.source) or "")
        read = replace(
            draft,
            name=name,
            dice=dice,
            kind=kind,
            save=save,
            dc=dc,
            on_save=str(values.get("on_save", "half") or "half"),
            group_roll=bool(values.get("group_roll", False)) and bool(save),
            source=source,
        )
        for target in read.targets:
            try:
                target_odds(ruleset, state, read, target)
            except RuleError as error:
                return str(error)
        return read

    def ask_form(self, draft: AreaDraft) -> None:
        screen = self.screen
        count = len(draft.targets)
        title = f"{self.title(draft)} — " + ngettext("{n} target", "{n} targets", count, n=count)
        fields = self.fields(draft)
        taken: dict[str, AreaDraft] = {}

        def validate(values: dict[str, Any]) -> dict[str, Any] | str:
            read = self.read(draft, values)
            if isinstance(read, str):
                return read
            taken["draft"] = read
            return values

        def preview(values: dict[str, Any]) -> str:
            dice = str(values.get("dice", "")).strip()
            if not dice:
                return ""
            parsed = parse(dice)
            if not any(isinstance(term, Dice) for term in parsed.terms):
                return ""
            return _(
                "{dice}: {low} to {high}",
                dice=parsed.text,
                low=parsed.min_total,
                high=parsed.max_total if parsed.max_total is not None else "…",
            )

        def done(values: dict[str, Any] | None) -> None:
            if values is None or "draft" not in taken:
                self.kept = draft
                return
            read = taken["draft"]
            if read.dc:
                screen.asks.last_dc = read.dc
            self.ask_preview(read)

        screen.app.push_screen(FormDialog(title, fields, self.values(draft), validate=validate, preview=preview), done)

    def ask_preview(self, draft: AreaDraft) -> None:
        from tui_combat.screens.area_preview import APPLIED, EDIT, AreaPreview

        screen = self.screen
        state, ruleset, rng = screen.state, screen.ruleset, screen.store.rng
        kept = self.kept_rolls if self.kept is not None and self.kept.dice == draft.dice else None
        rolls = AreaRolls() if kept is None else replace(kept, legendary=kept.legendary & set(draft.targets))
        try:
            if kept is None or kept.damage is None:
                rolls = replace(rolls, damage=damage_roll(draft.dice, rng))
            rolls = roll_saves(ruleset, state, draft, rolls, rng)
        except (DiceError, RuleError) as error:
            screen.notify(str(error), severity="warning", timeout=6)
            self.kept = draft
            return
        self.kept, self.kept_rolls = draft, rolls
        preview = AreaPreview(state, ruleset, draft, rolls, rng, screen.host.refusal, self.title(draft))

        def closed(result: str | None) -> None:
            self.kept_rolls = preview.rolls
            if result == APPLIED:
                self.kept, self.kept_rolls = None, None
            elif result == EDIT:
                self.ask_form(draft)

        screen.app.push_screen(preview, closed)

    # -- special abilities ------------------------------------------------------------------------------------------
    def abilities_of(self, combatant_id: str | None) -> tuple[SpecialAbility, ...]:
        """His special abilities as the state stands (worked out once for each state and combatant: the footer
        asks at every look at its keys)."""
        if combatant_id is None:
            return ()
        state = self.screen.state
        known = self._abilities
        if known is not None and known[0] is state and known[1] == combatant_id:
            return known[2]
        found: tuple[SpecialAbility, ...] = ()
        if state.phase == "round":
            try:
                found = self.screen.ruleset.special_abilities(state, combatant_id)
            except (RuleError, KeyError):
                found = ()
        self._abilities = (state, combatant_id, found)
        return found

    def choose_ability(self) -> None:
        """The selected combatant's special abilities, ready or not; one chosen starts the area filled in."""
        screen = self.screen
        combatant_id = screen.selected()
        abilities = self.abilities_of(combatant_id)
        if combatant_id is None or not abilities:
            return
        name = screen.state.combatant(combatant_id).name
        choices = [(ability.name, ability_label(screen, ability)) for ability in abilities]
        first = next((ability.name for ability in abilities if ability.ready), abilities[0].name)

        def chosen(value: str | None) -> None:
            ability = next((each for each in abilities if each.name == value), None)
            if ability is None:
                return
            if not ability.ready:
                screen.notify(
                    _(
                        "{ability} is not ready: {note}.",
                        ability=ability_shown(ability.name),
                        note=render(ability.note) if ability.note else _("not ready"),
                    ),
                    severity="warning",
                    timeout=6,
                )
                return
            self.start(draft_of_ability(combatant_id, ability))

        screen.app.push_screen(ChoiceDialog(_("Special abilities of {name}", name=name), choices, first), chosen)
