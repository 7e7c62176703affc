"""Widgets the round screen is built from."""
