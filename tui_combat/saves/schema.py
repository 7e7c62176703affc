"""File names and format versions of a session folder (light: the session list needs only these).

Snapshot format 2 holds a state of schema 2 (the log as data, the rulesets' own typed state). A folder
written in format 1 is brought up to date in memory when it is opened (:mod:`tui_combat.saves.migrate`).
"""

SNAPSHOT = "snapshot.json"
JOURNAL = "journal.jsonl"
JOURNAL_SCHEMA = 1
SNAPSHOT_SCHEMA = 2
