"""Pure rules engine: never imports Textual."""
