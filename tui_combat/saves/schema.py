"""File names, format versions and what a torn journal line looks like (light: the session list needs only these).

Snapshot formats, each still read:

1. The state the history starts from, every action done since, the redo list and the current state.
   Written by versions whose state had schema 1 (the log as translated text, untyped ruleset data; such a
   session is rebuilt in memory by replaying its actions, :mod:`tui_combat.saves.migrate`) and by the
   first versions with state schema 2.
2. The same layout, always with state schema 2.
3. States and the open run of the undo history, the sealed history blocks in ``history/``.
4. The same, with checksums: on the snapshot, on every journal line (journal format 2) and, in the
   snapshot, on each history block it refers to (:mod:`tui_combat.saves.sums`).
5. The same, its states holding only the newest entries of the log (today's; :mod:`tui_combat.engine.log_window`):
   the rest is replayed from the history. A state of an older format is cut down to them when it is read.
"""

SNAPSHOT = "snapshot.json"
PREV_SNAPSHOT = "snapshot.prev.json"
"""The snapshot before the newest one, kept as a fallback; ``journal.prev.jsonl`` holds what followed it."""
JOURNAL = "journal.jsonl"
PREV_JOURNAL = "journal.prev.jsonl"
HISTORY = "history"
"""The folder of sealed undo-history blocks."""
JOURNAL_SCHEMA = 2
SNAPSHOT_SCHEMA = 5
STATE_SCHEMA = 3
"""The engine's state schema (``tui_combat.engine.model.SCHEMA_VERSION``, which a test keeps equal to it), here
for the session list, which reads it from a snapshot's head before the engine is loaded."""
SUMMED_JOURNAL = 2
"""From this journal format on, every line carries its checksum."""
SUMMED_SNAPSHOT = 4
"""From this snapshot format on, the snapshot carries its checksum and those of its history blocks."""

MAX_TORN_TAIL = 1 << 20
"""No journal line is this long: a longer tail is not an interrupted write."""


def is_torn(tail: bytes) -> bool:
    """Whether bytes after a journal's last newline can be an interrupted write (else they are damage):
    the start of a line (every line is a JSON object), or the zeros a crash can leave, and not too long."""
    return len(tail) <= MAX_TORN_TAIL and (tail.startswith(b"{") or not tail.strip(b"\0"))
