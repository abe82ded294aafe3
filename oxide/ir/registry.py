"""A table of things registered by key, the one mechanism behind every registry in oxide.

Passes, named pipelines, lowering and emulator rules, analysis walks, frontend expression emitters and tile
functions are each registered by a decorator on the thing itself and collected here; registering a key
twice is a programming error, raised when the second module is imported. Pure Python: the frontends'
syntax floor and the tools may use it without loading MLIR.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class DuplicateRegistration(TypeError):
    """A key registered twice in one registry (a bug in oxide, or in an extension, found at import)."""


class Registry(Generic[K, V]):
    """Values by key, each key registered once. `what` names the entries in messages ("pass",
    "tile function"); `spell` writes a key for a message (a class by its name, a string as itself)."""

    def __init__(self, what: str, spell: Callable[[K], str] = str):
        self.what = what
        self._spell = spell
        self._entries: dict[K, V] = {}

    def add(self, key: K, value: V) -> None:
        """Register `value` under `key`; a key that is already registered raises DuplicateRegistration."""
        if key in self._entries:
            raise DuplicateRegistration(f"{self.what} `{self._spell(key)}` is registered twice: "
                                        f"{_spell_value(self._entries[key])} and {_spell_value(value)}")
        self._entries[key] = value

    def register(self, *keys: K) -> Callable[[V], V]:
        """Decorator: register the decorated value under each of `keys`."""

        def register(value: V) -> V:
            for key in keys:
                self.add(key, value)
            return value

        return register

    def replace(self, key: K, value: V) -> None:
        """Put `value` where `key`'s entry is (which must exist): for an entry that wraps the one it replaces."""
        if key not in self._entries:
            raise KeyError(f"no {self.what} `{self._spell(key)}` to replace")
        self._entries[key] = value

    def get(self, key: K) -> V | None:
        return self._entries.get(key)

    def __getitem__(self, key: K) -> V:
        return self._entries[key]

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __iter__(self) -> Iterator[K]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def items(self) -> Iterator[tuple[K, V]]:
        return iter(self._entries.items())


def _spell_value(value: object) -> str:
    module = getattr(value, "__module__", None)
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    return f"{module}.{name}" if module and name else repr(value)
