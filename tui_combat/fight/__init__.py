"""The fight's services, between the rules and the screens: the store that applies actions and saves them
(:mod:`~tui_combat.fight.store`), opening and listing sessions (:mod:`~tui_combat.fight.session`), looking back
through a fight (:mod:`~tui_combat.fight.rewind`), its report (:mod:`~tui_combat.fight.report`), the library and
the bestiaries (:mod:`~tui_combat.fight.library`), reading a pasted stat block
(:mod:`~tui_combat.fight.statblock` and its parts) and encounter files (:mod:`~tui_combat.fight.encounter_file`).

They use the engine, the rules and the saves, never Textual."""
