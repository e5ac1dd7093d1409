"""Plan2: plans written as YAML (aliases -> DomainSets -> slots), compiled to the call tree.

``parse_plan2(source, *, lift=True, slots="as-written", max_depth=100, strict=False)`` returns a
:class:`~dialectic.frontends.base.FrontEndResult` (``lang="plan2"``) or raises
:class:`~dialectic.frontends.base.SourceError` listing every problem with its line and column.
``dump_plan2(data)`` writes Plan2 YAML that reads back as the same data. SPEC.md section 11
is the notation's specification.
"""

from dialectic.frontends.plan2.emit import dump_plan2
from dialectic.frontends.plan2.parser import (
    DEFAULT_LIFT,
    DEFAULT_SLOTS,
    SlotMode,
    parse_plan2,
    strip_code_fence,
)
from dialectic.frontends.plan2.templates import escape_text, split_template

__all__ = [
    "DEFAULT_LIFT",
    "DEFAULT_SLOTS",
    "SlotMode",
    "dump_plan2",
    "escape_text",
    "parse_plan2",
    "split_template",
    "strip_code_fence",
]
