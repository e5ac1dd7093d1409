"""JavaScript's ``String(number)``: the core's implementation (``dialectic.jsnumber``)."""

from ...jsnumber import js_number_to_string, shortest_digits

__all__ = ["js_number_to_string", "shortest_digits"]
