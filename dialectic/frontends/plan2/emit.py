"""Writing Plan2 YAML: block style, strings quoted whenever any YAML reader could take them for
something else (Plan2's JSON-like schema or YAML 1.1's ``yes``/``on``/``10:30``...)."""

from __future__ import annotations

from typing import Any

import yaml

from dialectic.frontends.plan2.yamlnodes import resolve_plain

_STR = "tag:yaml.org,2002:str"

# libyaml's emitter when PyYAML has it (the same text, several times faster: an ambiguity's
# suggestions rewrite a whole Plan2 program each); the pure-Python one otherwise
_Base: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _Dumper(_Base):  # type: ignore[misc]
    def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
        tag = yaml.resolver.BaseResolver.resolve(self, kind, value, implicit)  # type: ignore[no-untyped-call]
        if (
            kind is yaml.ScalarNode
            and implicit[0]
            and tag == _STR
            and not isinstance(resolve_plain(value), str)
        ):
            return "tag:yaml.org,2002:null"  # anything but str: forces quoting
        return tag

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _str_representer(dumper: Any, data: str) -> yaml.ScalarNode:
    style = "|" if "\n" in data and not data.endswith((" ", "\n\n")) else None
    node: yaml.ScalarNode = dumper.represent_scalar(_STR, data, style=style)
    return node


_Dumper.add_representer(str, _str_representer)


def dump_plan2(data: Any, *, header: str | None = None) -> str:
    """YAML text for ``data`` (a mapping of aliases), keys in insertion order."""
    text = yaml.dump(
        data,
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=False,
        width=100,
    )
    if header:
        comment = "".join(f"# {line}\n" if line else "#\n" for line in header.split("\n"))
        text = comment + text
    return text
