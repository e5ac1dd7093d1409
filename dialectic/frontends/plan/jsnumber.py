"""JavaScript's ``String(number)``: the core's implementation (``dialectic.values.jsnumber``)."""

from dialectic.values.jsnumber import js_number_to_string, shortest_digits

__all__ = ["js_number_to_string", "shortest_digits"]
