"""The registry of oxide's passes, and option parsing (`{chip=sm_90 verbose=true}`) into their fields.

A pass registers itself with the `@register_pass` decorator on its class when its module is imported; this
module imports no pass. Whoever runs passes imports the modules that define them (importing `oxide.passes`
registers the passes of this package; importing `oxide.backend` adds the backend's, such as
oxide-attach-target).

An option whose field holds an option object (a frozen dataclass such as oxide.target.Target) takes that
object's fields as options of the pass (`convert-simt-to-nvvm{chip=sm_80}`): the object is made once, here,
from the options text, and the pass receives it as it is.
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from oxide.ir.registry import Registry
from oxide.diagnostics import OxideError, SourceLoc
from oxide.passes.base import OxidePass

PASSES: Registry[str, type[OxidePass]] = Registry("pass")
# The name pipeline text is reported under (`<pass-pipeline>:1:12: error: ...`).
PIPELINE_SOURCE = "<pass-pipeline>"
# Field metadata key: which fields of an option object a pass exposes as its own options.
_GROUP_OPTIONS = "oxide.option_group"


def pipeline_error(message: str, offset: int) -> OxideError:
    """A problem with pipeline text, located at its column `offset` (from 0)."""
    return OxideError(message, SourceLoc(PIPELINE_SOURCE, 1, offset + 1))


def register_pass(cls: type[OxidePass]) -> type[OxidePass]:
    """Class decorator: make a frozen-dataclass pass available by its `name` in pipelines."""
    # Checked on the class itself: a subclass of a dataclass inherits the markers without being one.
    if "__dataclass_params__" not in vars(cls) or not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__} must be a frozen dataclass")
    if not getattr(cls, "name", None) or not (cls.__doc__ or "").strip():
        raise TypeError(f"{cls.__name__} needs a `name` and a docstring")
    PASSES.add(cls.name, cls)
    return cls


def registered_passes() -> Registry[str, type[OxidePass]]:
    """The oxide passes registered so far, by name."""
    return PASSES


def option_group(default: Any, *names: str) -> Any:
    """A dataclass field holding the option object `default`, set from these of its fields (spelt with
    dashes: "chip", "opt-level"), or from all of them when none is named."""
    return dataclasses.field(default=default, metadata={_GROUP_OPTIONS: names})


def _group_options(field: dataclasses.Field[Any], kind: Any) -> dict[str, str] | None:
    """{option: field of the option object} for a field that holds an option object, else None."""
    if not dataclasses.is_dataclass(kind):
        return None
    inner = {f.name.replace("_", "-"): f.name for f in dataclasses.fields(kind)}
    chosen = field.metadata.get(_GROUP_OPTIONS) or tuple(inner)
    return {name: inner[name] for name in chosen}


def option_fields(cls: Any) -> dict[str, tuple[str, str | None]]:
    """{option name: (field, field of its option object or None)} for a pass or named pipeline class."""
    hints = typing.get_type_hints(cls)
    options: dict[str, tuple[str, str | None]] = {}
    for f in dataclasses.fields(cls):
        group = _group_options(f, hints[f.name])
        if group is None:
            options[f.name.replace("_", "-")] = (f.name, None)
        else:
            options.update({option: (f.name, inner) for option, inner in group.items()})
    return options


def options_text(instance: Any) -> str:
    """The options of a pass or named pipeline in pipeline syntax: `{a=1 b=x}`, or '' when it has none."""
    parts = []
    for option, (name, inner) in option_fields(type(instance)).items():
        value = getattr(instance, name)
        parts.append(f"{option}={_spell(getattr(value, inner) if inner else value)}")
    return "{" + " ".join(parts) + "}" if parts else ""


def _spell(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _split_options(text: str) -> list[tuple[str, int]]:
    """Split `a=1 b={x y} c="q r"` at top-level spaces; each part with its offset."""
    parts: list[tuple[str, int]] = []
    depth, quoted, start = 0, False, None
    for i, ch in enumerate(text + " "):
        if start is None and not ch.isspace():
            start = i
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch == "{":
            depth += 1
        elif not quoted and ch == "}":
            depth -= 1
        elif ch.isspace() and depth == 0 and not quoted and start is not None:
            parts.append((text[start:i], start))
            start = None
    return parts


def _convert(raw: str, kind: Any, name: str, offset: int) -> Any:
    if kind is bool:
        if raw in ("true", "1"):
            return True
        if raw in ("false", "0"):
            return False
        raise pipeline_error(f"option '{name}' expects true or false, got '{raw}'", offset)
    if kind is int:
        try:
            return int(raw, 0)
        except ValueError:
            raise pipeline_error(f"option '{name}' expects an integer, got '{raw}'", offset) from None
    if kind is float:
        try:
            return float(raw)
        except ValueError:
            raise pipeline_error(f"option '{name}' expects a number, got '{raw}'", offset) from None
    return raw.strip('"')


def instantiate(cls: Any, options: str, offset: int = 0) -> Any:
    """An instance of `cls` configured from its options text (without the braces), which starts at column
    `offset` of the pipeline text; OxideError, located there, for an unknown or malformed option."""
    hints = typing.get_type_hints(cls)
    fields = option_fields(cls)
    values: dict[str, Any] = {}
    groups: dict[str, tuple[dict[str, Any], int]] = {}
    for part, at in _split_options(options):
        key, sep, raw = part.partition("=")
        if not sep:
            raise pipeline_error(f"expected 'name=value' in the options of '{cls.name}', got '{part}'", offset + at)
        if key not in fields:
            known = ", ".join(sorted(fields)) or "none"
            raise pipeline_error(f"'{cls.name}' has no option '{key}' (its options: {known})", offset + at)
        name, inner = fields[key]
        value_at = offset + at + len(key) + 1
        if inner is None:
            values[name] = _convert(raw, hints[name], key, value_at)
        else:
            kind = typing.get_type_hints(hints[name])[inner]
            group, first = groups.setdefault(name, ({}, value_at))
            group[inner] = _convert(raw, kind, key, value_at)
    for name, (group, first) in groups.items():
        # Fields not given take the option object's own defaults (a Target's features follow its chip).
        try:
            values[name] = hints[name](**group)
        except OxideError as exc:
            raise pipeline_error(exc.diagnostics[0].message, first) from None
    return cls(**values)
