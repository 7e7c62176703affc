from __future__ import annotations


class SaveError(Exception):
    """A save could not be read or written; the message names the file and says what to do."""
