"""The user's own folder and settings (:mod:`~tui_combat.settings.config`), and TOML read within bounds
(:mod:`~tui_combat.settings.toml_read`) and written back (:mod:`~tui_combat.settings.toml_write`): the lowest layer
with :mod:`tui_combat.i18n`, which every other one may use."""
