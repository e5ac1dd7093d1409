"""Descriptions, decorators, the registry, plugins and the standard library."""
