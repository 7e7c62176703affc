"""Where sessions live on disk and how they are written: a journal of actions plus atomic snapshots."""

from tui_combat.saves.errors import SaveError

__all__ = ["SaveError"]
