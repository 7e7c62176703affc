"""The engine's one error type."""

from __future__ import annotations


class RuleError(Exception):
    """An action the rules do not allow now; ``str()`` says why, in words for the GM (already translated:
    it is shown at once and never stored)."""
