"""Checks over the typed syntax tree that run before a statement is planned or run."""
