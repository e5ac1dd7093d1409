"""Resolved tree -> closures: member access, call strategies."""
