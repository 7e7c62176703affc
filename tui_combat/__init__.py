"""tui-combat: a keyboard-driven combat manager for tabletop game masters."""

__version__ = "0.1.0"
