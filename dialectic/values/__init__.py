"""Run-time values: JSON data, coercion, serialization, JS numbers."""
