"""File names and format versions of a session folder (light: the session list needs only these)."""

SNAPSHOT = "snapshot.json"
PREV_SNAPSHOT = "snapshot.prev.json"
"""The snapshot before the newest one, kept as a fallback; ``journal.prev.jsonl`` holds what followed it."""
JOURNAL = "journal.jsonl"
PREV_JOURNAL = "journal.prev.jsonl"
HISTORY = "history"
"""The folder of sealed undo-history blocks."""
JOURNAL_SCHEMA = 1
SNAPSHOT_SCHEMA = 2
