"""Runtime values: JSON data, registered-type instances and ``undefined``.

Stringification follows JavaScript's ``String()`` for primitives; arrays and objects become
compact JSON (a documented difference from JavaScript).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, Final

import orjson

from dialectic.outcome.errors import JSONPath, format_path
from dialectic.values.infinity import InfinityLeaving as InfinityLeaving
from dialectic.values.infinity import found_infinity, infinity_leaving, nan_path


class _Undefined:
    """JavaScript's ``undefined`` (from Plan); a singleton."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "undefined"

    def __bool__(self) -> bool:
        return False


UNDEFINED: Final = _Undefined()


#: the size beyond which a value is refused before it is written as JSON text
DEFAULT_TEXT_LIMIT = 1_000_000
#: the nesting a value may have to be written as JSON (orjson itself stops at 255)
MAX_VALUE_DEPTH = 200
_INT64 = 2**63


def _all_finite(items: list[Any], kinds: set[type]) -> bool:
    """Whether no float of ``items`` (scalars of ``kinds``) is an infinity or NaN: one sum in C
    when they are all numbers (a sum too large for a double is reported as not finite, and the
    caller then looks item by item)."""
    if kinds <= _NUMBERS:
        try:
            total = sum(items)
        except OverflowError:  # (an integer beyond a double's range beside a float)
            pass
        else:
            return bool(total - total == 0.0)
    return all(x - x == 0.0 for x in items if type(x) is float)


_NUMBERS: Final = frozenset({int, float, bool})

#: orjson hands dataclasses, datetimes and subclasses of built-in types to ``default``: no
#: Python object is written by its attributes unless it is a registered type
DUMP_OPTIONS = (
    orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_SUBCLASS
)


class BadValue(ValueError):
    """A value that cannot be written as JSON within the limits."""


class TooLarge(BadValue):
    """A value would be larger than allowed once written as JSON."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"the value is larger than {limit} bytes as JSON")
        self.limit = limit


class TooDeep(BadValue):
    def __init__(self) -> None:
        super().__init__(f"the value is nested more than {MAX_VALUE_DEPTH} levels deep")


class NotJSON(BadValue):
    pass


def check_size(value: Any, limit: int) -> bool:
    """Check that ``value`` can be written as JSON within ``limit`` bytes and the depth bound.

    Walks the value without recursion and stops as soon as a bound is passed, so a value that
    shares structure exponentially (``b = [a, a]; c = [b, b]; ...``) costs at most O(limit).
    Raises TooLarge, TooDeep, or NotJSON (a non-string object key, a lone surrogate); returns
    whether the value holds an integer beyond 64 bits (see :func:`json_safe`).
    """
    total = 0
    big = False
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        t = type(v)
        if t is str:
            total += len(v) + 2
            if not v.isascii() and _has_surrogate(v):
                raise NotJSON("the value contains a lone surrogate (not valid Unicode text)")
        elif t is list or t is tuple or t is dict:
            if depth >= MAX_VALUE_DEPTH:
                raise TooDeep()
            total += 2 + len(v)
            if t is dict:
                for k, item in v.items():
                    if type(k) is not str:
                        raise NotJSON(f"object keys must be text, not {type(k).__name__}")
                    total += len(k) + 3
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in v)
        elif t is int:
            if not -_INT64 <= v < _INT64:
                big = True
            total += 20
        else:
            total += 8
        if total > limit:
            raise TooLarge(limit)
    return big


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def json_safe(value: Any) -> Any:
    """``value`` with integers beyond 64 bits written as numbers JSON tools read (doubles, as
    JavaScript holds them); only called when :func:`check_size` found one."""
    t = type(value)
    if t is int and not -_INT64 <= value < _INT64:
        try:
            return float(value)
        except OverflowError:
            raise NotJSON("a number in the value is too large for JSON") from None
    if t is list or t is tuple:
        return [json_safe(v) for v in value]
    if t is dict:
        return {k: json_safe(v) for k, v in value.items()}
    return value


def dumps_compact(value: Any, limit: int = DEFAULT_TEXT_LIMIT) -> str:
    """Compact JSON of plain data (no registered types); raises BadValue."""
    if check_size(value, limit):
        value = json_safe(value)
    try:
        return orjson.dumps(value, default=_json_default, option=DUMP_OPTIONS).decode()
    except TypeError as exc:  # orjson.JSONEncodeError is a TypeError
        raise NotJSON(str(exc)) from None


def _json_default(value: Any) -> Any:
    if value is UNDEFINED:
        return None
    raise TypeError(f"a value of Python type {type(value).__name__} is not JSON")


_SCALAR_TYPES: Final = frozenset({str, int, float, bool, type(None)})
_CONTAINERS: Final = frozenset({list, dict})
_SCALARS_OR_UNDEFINED: Final = _SCALAR_TYPES | {_Undefined}


def json_kind(value: Any) -> str | None:
    """The JSON type a value of a built-in Python type stands for, subclasses included: the one
    classification behind type names and type checks. ``bool`` before ``int`` (``True`` is a
    boolean, never an integer); tuples and lists are arrays, every ``Mapping`` an object. None
    for anything else (a registered type, ``undefined``, an opaque object)."""
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if value is None:
        return "null"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, Mapping):
        return "object"
    return None


def plain(
    value: Any, registered: Callable[[type], bool], known: dict[int, Any] | None = None
) -> Any:
    """``value`` as a run holds JSON data: every array a ``list``, every object a ``dict``, every
    text, number and boolean of its exact built-in type, all the way down (a tuple, an
    ``OrderedDict``, a ``str`` enum become a list, a dict, a str). Values of registered types
    (``registered(cls)``) and other objects are left as they are. Plain data is returned as it
    is, after a scan; anything else is copied once (shared parts stay shared, cycles stay
    cycles). ``known`` (id -> container, kept alive) holds the containers already found plain
    in this run: they are not scanned again, so passing a large value through many calls costs
    one scan, not one per call. A NaN is refused (:class:`NotJSON`): no value of a run is NaN
    (SPEC 1.7), and JSON has none."""
    t = type(value)
    if t in _SCALAR_TYPES:
        if t is float and value != value:
            raise _holds_nan(())
        return value
    if t in _CONTAINERS:
        if known is not None and id(value) in known:
            return value
        if _is_plain(value, registered, known):
            return value
    out = _normalised(value, registered)
    where = nan_path(out)  # (the copy's floats are exact floats: a subclass's NaN too)
    if where is not None:
        raise _holds_nan(where)
    return out


def _holds_nan(where: JSONPath) -> NotJSON:
    at = f" at {format_path(where, '$')}" if where else ""
    return NotJSON(f"it is NaN{at}, which neither JSON nor a run holds (use null)")


def defined(value: Any, known: dict[int, Any] | None = None) -> Any:
    """``value`` as it leaves the run (a result, a function's argument): every ``undefined``
    in an array is ``null`` and every member of an object whose value is ``undefined`` is
    left out, as JSON writes them; an infinity is refused (:class:`InfinityLeaving`). Inside
    the run arrays and objects keep ``undefined``, as
    JavaScript's do (``[u].includes(undefined)``, ``Object.keys({k: u})``). Returns ``value``
    itself when it holds none (one walk, each container once; ``known``: containers already
    found clean, skipped and added to); else a copy of its arrays and objects (parts shared
    in ``value`` stay shared)."""
    if value is UNDEFINED:
        return None
    t = type(value)
    if t is not list and t is not dict:
        if t is float and value - value != 0.0:  # (an infinity or NaN)
            raise InfinityLeaving(value, ())
        return value
    skip = known if known is not None else {}
    if id(value) in skip:
        return value
    seen = {id(value): value}
    stack = [value]
    found = False
    while stack and not found:
        c = stack.pop()
        items = c.values() if type(c) is dict else c
        for x in items:
            tx = type(x)
            if tx is list or tx is dict:
                i = id(x)
                if i not in seen and i not in skip:
                    seen[i] = x
                    stack.append(x)
            elif x is UNDEFINED:
                found = True
                break
            elif tx is float and x - x != 0.0:
                raise found_infinity(value)
    if not found:
        if known is not None:
            known.update(seen)
        return value
    leaving = infinity_leaving(value)  # (the walk stopped at the first `undefined`)
    if leaving is not None:
        raise leaving
    return _normalised(value, _kept, undefined=None)


def _is_plain(
    value: Any, registered: Callable[[type], bool], known: dict[int, Any] | None = None
) -> bool:
    """Whether nothing inside ``value`` (a list or dict) needs normalising (iterative; each
    container visited once; a long list of scalars is checked with one C-level type scan).
    The containers found plain are added to ``known``."""
    scalars = _SCALAR_TYPES
    skip = known if known is not None else {}
    seen = {id(value): value}
    stack = [value]
    while stack:
        c = stack.pop()
        if type(c) is dict:
            for k in c:
                if type(k) is not str and isinstance(k, str) and not registered(type(k)):
                    return False  # a str enum as a key
            items: Any = c.values()
        else:
            items = c
            if len(c) > 32 and (kinds := set(map(type, c))) <= scalars:
                if float in kinds and not _all_finite(c, kinds):
                    return False  # (an infinity or NaN: :func:`defined` finds it as it leaves)
                continue
        for x in items:
            t = type(x)
            if t in scalars:
                if t is float and x - x != 0.0:
                    return False
                continue
            if t is list or t is dict:
                i = id(x)
                if i not in seen and i not in skip:
                    seen[i] = x
                    stack.append(x)
            elif _foreign(t, registered):
                return False
    if known is not None:
        known.update(seen)
    return True


def _foreign(cls: type, registered: Callable[[type], bool]) -> bool:
    """A class whose values stand for JSON data but are not held as such (a tuple, a Mapping,
    a str enum); registered types and opaque objects are not."""
    return cls is not _Undefined and json_kind_of_type(cls) is not None and not registered(cls)


@functools.lru_cache(maxsize=512)
def json_kind_of_type(cls: type) -> str | None:
    """:func:`json_kind` by class (for a class's instances)."""
    if issubclass(cls, str):
        return "string"
    if issubclass(cls, bool):
        return "boolean"
    if issubclass(cls, int):
        return "integer"
    if issubclass(cls, float):
        return "number"
    if cls is type(None):
        return "null"
    if issubclass(cls, list | tuple):
        return "array"
    if issubclass(cls, Mapping):
        return "object"
    return None


def _kept(cls: type) -> bool:
    return True


def _normalised(value: Any, registered: Callable[[type], bool], undefined: Any = UNDEFINED) -> Any:
    """The copy :func:`plain` makes (iterative: any depth); :func:`defined`'s, with
    ``undefined`` (an array's ``undefined`` becomes that, an object's member holding it is
    left out) and every other class kept."""
    #: id -> (the original, its copy): the original is kept alive, so that its id is not reused
    #: by a temporary object (a Mapping may build its values as they are read)
    memo: dict[int, tuple[Any, Any]] = {}
    todo: list[tuple[Any, Any]] = []

    def convert(x: Any) -> Any:
        t = type(x)
        if t in _SCALAR_TYPES:
            return x
        done = memo.get(id(x))
        if done is not None:
            return done[1]
        if x is UNDEFINED:
            return undefined
        if t is not list and t is not dict and registered(t):
            return x
        kind = json_kind(x)
        if kind == "string":
            return str.__str__(x)
        if kind == "integer":
            return int.__int__(x)
        if kind == "number":
            return float.__float__(x)
        if kind == "array":
            new: Any = []
        elif kind == "object":
            new = {}
        else:
            return x
        memo[id(x)] = (x, new)
        todo.append((x, new))
        return new

    top = convert(value)
    while todo:
        src, dst = todo.pop()
        if type(dst) is list:
            kinds = set(map(type, src)) if len(src) > 32 else _CONTAINERS
            if kinds <= _SCALAR_TYPES:
                dst.extend(src)  # (scalars of exact types: kept as they are, copied in C)
            elif kinds <= _SCALARS_OR_UNDEFINED:
                dst.extend([undefined if x is UNDEFINED else x for x in src])
            else:
                dst.extend([convert(item) for item in src])
        else:
            for k, item in src.items():
                if item is UNDEFINED and undefined is not UNDEFINED:
                    continue  # an undefined member is dropped, as JSON drops it
                if type(k) is not str and isinstance(k, str) and not registered(type(k)):
                    k = str.__str__(k)
                dst[k] = convert(item)
    return top


def is_scalar(value: Any) -> bool:
    """An immutable JSON scalar: safe to hand to every run as the same object."""
    return type(value) in _SCALAR_TYPES


def copier(value: Any) -> Callable[[], Any] | None:
    """For a literal or constant container: a function that returns a fresh copy of it, so that an
    implementation that mutates its argument cannot change the program (or a constant) for the
    next run. None for an immutable scalar, which is shared as it is.

    JSON data is copied by orjson (one C round trip, checked once to be exact); anything else has
    its lists and dicts copied and its other objects shared."""
    if type(value) in _SCALAR_TYPES:
        return None
    try:
        blob = orjson.dumps(value)
        exact = _same(orjson.loads(blob), value)
    except (TypeError, ValueError, orjson.JSONEncodeError):
        exact = False
    if exact:
        loads = orjson.loads
        return lambda: loads(blob)
    return lambda: copy_structure(value)


def _same(a: Any, b: Any) -> bool:
    """Equal, with the same container and scalar types all the way down (iterative)."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if type(x) is not type(y):
            return False
        if type(x) is list:
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=True))
        elif type(x) is dict:
            if list(x) != list(y):
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif x != y:  # NaN is not equal to itself: such a value takes the structural copy
            return False
    return True


#: the classes of the run's values that a copy copies (a Date: values/jsdate.py registers it),
#: by class: the function that copies one
COPIED: dict[type, Callable[[Any], Any]] = {}


def copy_structure(value: Any, copies: dict[int, Any] | None = None) -> Any:
    """A copy of the lists and dicts in ``value`` (iteratively: any depth), each copied once: one
    held in two places is one copy held in both (so the cost is linear in the distinct
    containers, and the copy keeps the original's sharing); other objects shared. ``copies``
    (if given, empty) receives each container's copy by the id of the original."""
    if type(value) is list:
        top: Any = []
    elif type(value) is dict:
        top = {}
    else:
        return value if type(value) not in COPIED else COPIED[type(value)](value)
    if copies is None:
        copies = {}
    copies[id(value)] = top
    stack: list[tuple[Any, Any]] = [(value, top)]
    while stack:
        src, dst = stack.pop()
        pairs = enumerate(src) if type(src) is list else src.items()
        for key, item in pairs:
            t = type(item)
            if t is list or t is dict:
                new = copies.get(id(item))
                if new is None:
                    new = copies[id(item)] = [] if t is list else {}
                    stack.append((item, new))
            else:
                new = item if t not in COPIED else COPIED[t](item)
            if type(dst) is list:
                dst.append(new)
            else:
                dst[key] = new
    return top
