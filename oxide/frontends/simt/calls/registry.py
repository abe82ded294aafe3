"""The one registry of device calls: every device function and every method on a device value is a handler
registered by a decorator on the handler itself.

Keys are chosen so that exactly one handler can match a call:

- a device function by its path after the module prefix the frontend strips (`thread::index_1d`, `mem::swap`,
  `ptr::null`, or a bare name such as `lane_id` that any qualifier may precede). A written path matches the
  registered key that is its longest suffix, so `core::mem::swap` finds `mem::swap`;
- a method by (receiver type class, method name). The receiver's class is looked up along its Python MRO,
  so a `Char` receiver finds `(Char, name)` before `(Int, name)`, exactly like attribute lookup. A class may
  also register the name OTHER: its handler takes every method the class itself registers no handler for
  (an atomic's `atomic_on_pointer`, which names the mistake; a witness's refusal of `clone`), and so hides
  its superclasses' handlers of those names, as a `__getattr__` on the class would.

A handler may declare a guard (`when=`): a pure predicate on the call (argument count, qualifier, receiver
details) that decides whether the call is the handler's. A failed guard is a miss, never a reason to try
another handler: each key has one handler, so no two guards can both hold for one key. Registering a key
twice raises at import time.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter, MethodHandler, PathHandler
from oxide.frontends.simt.values import Val

OTHER = "*"  # as a method name: every method its class registers no handler for


class DuplicateHandler(Exception):
    """Two handlers claim one key: the registry would have to pick one by import order."""


@dataclass(frozen=True)
class _Entry:
    handler: Callable[..., Val]
    when: Callable[..., bool] | None

    def accepts(self, *call: Any) -> bool:
        return self.when is None or bool(self.when(*call))


_PATHS: dict[tuple[str, ...], _Entry] = {}
_METHODS: dict[tuple[type, str], _Entry] = {}


def _claim(table: dict[Any, _Entry], key: Any, entry: _Entry, what: str) -> None:
    if key in table:
        raise DuplicateHandler(f"{what} is registered twice: by {table[key].handler.__qualname__} and "
                               f"{entry.handler.__qualname__}")
    table[key] = entry


def device_fn(*paths: str, when: Callable[..., bool] | None = None) -> Callable[[PathHandler], PathHandler]:
    """Register a handler for the device functions `paths` (`"ptr::null"`, `"lane_id"`); `when(em, segs,
    generics, args, expected, loc)` is its guard."""
    def register(handler: PathHandler) -> PathHandler:
        for path in paths:
            _claim(_PATHS, tuple(path.split("::")), _Entry(handler, when), f"the device function `{path}`")
        return handler
    return register


def device_method(receiver: type, *names: str,
                  when: Callable[..., bool] | None = None) -> Callable[[MethodHandler], MethodHandler]:
    """Register a handler for the methods `names` on receivers of the semantic type class `receiver` (and its
    subclasses that register none); `when(em, recv, name, args, generics, loc, expected)` is its guard."""
    def register(handler: MethodHandler) -> MethodHandler:
        for name in names:
            _claim(_METHODS, (receiver, name), _Entry(handler, when),
                   f"the method `{name}` on `{receiver.__name__}`")
        return handler
    return register


def qualifier(segs: list[str]) -> str | None:
    """The path segment before a function's name (`mem` of `core::mem::swap`), if any."""
    return segs[-2] if len(segs) >= 2 else None


def find_path(segs: list[str]) -> _Entry | None:
    """The entry of the longest registered suffix of `segs`."""
    for start in range(len(segs)):
        entry = _PATHS.get(tuple(segs[start:]))
        if entry is not None:
            return entry
    return None


def find_method(ty: T.Ty, name: str) -> _Entry | None:
    """The entry for `name` (or OTHER) on the first class of `ty`'s MRO that registers it."""
    for cls in type(ty).__mro__:
        entry = _METHODS.get((cls, name)) or _METHODS.get((cls, OTHER))
        if entry is not None:
            return entry
    return None


def call_path(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
              loc: Any) -> Val | None:
    """The value of a registered device-function call, or None when no handler's key and guard take it."""
    entry = find_path(segs)
    if entry is None or not entry.accepts(em, segs, generics, args, expected, loc):
        return None
    return entry.handler(em, segs, generics, args, expected, loc)


def call_method(em: Emitter, recv: Val, name: str, args: list[ast.Expr], loc: Any, expected: T.Ty | None,
                generics: list[Any] | None = None) -> Val | None:
    """The value of a registered method call, or None when no handler's key and guard take it."""
    entry = find_method(recv.ty, name)
    generics = list(generics or [])
    if entry is None or not entry.accepts(em, recv, name, args, generics, loc, expected):
        return None
    return entry.handler(em, recv, name, args, generics, loc, expected)


def path_keys() -> list[str]:
    """Every registered device-function key, `::`-joined (for the docs' table and its test)."""
    return sorted("::".join(key) for key in _PATHS)


def method_keys() -> list[tuple[str, str]]:
    """Every registered (receiver class name, method name)."""
    return sorted((cls.__name__, name) for cls, name in _METHODS)
