"""File names, format versions and what a torn journal line looks like (light: the session list needs only these)."""

SNAPSHOT = "snapshot.json"
PREV_SNAPSHOT = "snapshot.prev.json"
"""The snapshot before the newest one, kept as a fallback; ``journal.prev.jsonl`` holds what followed it."""
JOURNAL = "journal.jsonl"
PREV_JOURNAL = "journal.prev.jsonl"
HISTORY = "history"
"""The folder of sealed undo-history blocks."""
JOURNAL_SCHEMA = 1
SNAPSHOT_SCHEMA = 2

MAX_TORN_TAIL = 1 << 20
"""No journal line is this long: a longer tail is not an interrupted write."""


def is_torn(tail: bytes) -> bool:
    """Whether bytes after a journal's last newline can be an interrupted write (else they are damage):
    the start of a line (every line is a JSON object), or the zeros a crash can leave, and not too long."""
    return len(tail) <= MAX_TORN_TAIL and (tail.startswith(b"{") or not tail.strip(b"\0"))
