"""Command line, describe, convert and corpus analysis."""
