"""The registry of oxide's passes, and option parsing (`{chip=sm_90 verbose=true}`) into their fields."""

from __future__ import annotations

import dataclasses
import typing
from typing import Any

from oxide.passes.base import OxidePass

PASSES: dict[str, type[OxidePass]] = {}


class OptionError(Exception):
    """A pass option is unknown or malformed; `offset` is where in the options text."""

    def __init__(self, message: str, offset: int = 0):
        self.offset = offset
        super().__init__(message)


def register_pass(cls: type[OxidePass]) -> type[OxidePass]:
    """Class decorator: make a frozen-dataclass pass available by its `name` in pipelines."""
    # Checked on the class itself: a subclass of a dataclass inherits the markers without being one.
    if "__dataclass_params__" not in vars(cls) or not cls.__dataclass_params__.frozen:  # type: ignore[attr-defined]
        raise TypeError(f"{cls.__name__} must be a frozen dataclass")
    if not getattr(cls, "name", None) or not (cls.__doc__ or "").strip():
        raise TypeError(f"{cls.__name__} needs a `name` and a docstring")
    if cls.name in PASSES:
        raise TypeError(f"pass '{cls.name}' is registered twice")
    PASSES[cls.name] = cls
    return cls


def registered_passes() -> dict[str, type[OxidePass]]:
    """All oxide passes by name (importing oxide.passes registers them)."""
    # Registration happens on import. The backend's passes (oxide-attach-target, simt-to-ptx) live with
    # the backend, which imports oxide.passes; importing it here, lazily, keeps that direction at load time.
    import oxide.backend.passes  # noqa: F401
    import oxide.passes.conversion.simt_to_nvvm  # noqa: F401
    import oxide.passes.conversion.tile_to_simt  # noqa: F401
    import oxide.passes.transforms  # noqa: F401

    return PASSES


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
        raise OptionError(f"option '{name}' expects true or false, got '{raw}'", offset)
    if kind is int:
        try:
            return int(raw, 0)
        except ValueError:
            raise OptionError(f"option '{name}' expects an integer, got '{raw}'", offset) from None
    if kind is float:
        try:
            return float(raw)
        except ValueError:
            raise OptionError(f"option '{name}' expects a number, got '{raw}'", offset) from None
    return raw.strip('"')


def instantiate(cls: Any, options: str) -> Any:
    """An instance of `cls` configured from its options text (without the braces)."""
    hints = typing.get_type_hints(cls)
    fields = {f.name.replace("_", "-"): f.name for f in dataclasses.fields(cls)}
    values: dict[str, Any] = {}
    for part, offset in _split_options(options):
        key, sep, raw = part.partition("=")
        if not sep:
            raise OptionError(f"expected 'name=value' in the options of '{cls.name}', got '{part}'", offset)
        if key not in fields:
            known = ", ".join(sorted(fields)) or "none"
            raise OptionError(f"'{cls.name}' has no option '{key}' (its options: {known})", offset)
        values[fields[key]] = _convert(raw, hints[fields[key]], key, offset + len(key) + 1)
    return cls(**values)
