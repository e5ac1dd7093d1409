"""dialectic-datetime: date constants and chainable date math for dialectic programs.

``next(Thursday).at('9:00am')``, ``last(Friday).plus(23, days).closeofbusiness``; the clock and
time zone come from the run context (``now``, ``timezone``). See README.md.
"""

from .types import Date

__all__ = ["Date"]
__version__ = "0.1.0"
