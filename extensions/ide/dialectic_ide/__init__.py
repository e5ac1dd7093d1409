"""dialectic-ide: IDE operations over a Python workspace, for dialectic programs.

Registers the types ``symbol``, ``selection`` and ``location``; the functions ``findSymbol``,
``findDefinitions``, ``findReferences``, ``search``, ``lines`` and ``getCurrentSelection``; and
the conversions ``selection -> symbol``, ``location -> symbol`` and ``string -> symbol``.
"""

from .types import Location, Selection, Symbol

__all__ = ["Location", "Selection", "Symbol"]
