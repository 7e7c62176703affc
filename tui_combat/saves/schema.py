"""File names and format versions of a session folder (light: the session list needs only these)."""

SNAPSHOT = "snapshot.json"
JOURNAL = "journal.jsonl"
JOURNAL_SCHEMA = 1
SNAPSHOT_SCHEMA = 1
