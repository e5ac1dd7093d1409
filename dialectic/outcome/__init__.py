"""Errors, outcomes and their reports."""
