"""Personality: the Markdown insights file, Chitin-compatible operations, retrieval and PERSONALITY.md rendering."""

__all__: list[str] = []
