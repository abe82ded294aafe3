"""Generic kernels instantiated on first use: the type arguments of `scale<T>(x: &[T], factor: T, ...)` read
from the arguments of a call (`x` is a float32 array, so T = f32).

A type parameter is read from the first parameter that shows it: the element type of `&[T]`, `&mut [T]`,
`DisjointSlice<T, ...>` or `*const/*mut T` (an array's dtype), or a `T` / `Uniform<T>` scalar (a numpy
scalar's dtype; a plain Python float or int means f64 or i32, Rust's literal defaults, and is used only when
no array or numpy scalar shows T). Const generics cannot be read from values: they need `instances=`.

oxide.load uses this (through oxide.api); it needs the Rust frontend's syntax floor, so where the frontend is
not installed (a GPU server running cached builds) importing it fails and there is nothing to instantiate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from oxide.frontends.simt.items import collect
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.parser import Source, parse
from oxide.runtime.errors import KernelArgumentError

_RUST_NAMES = {np.dtype(t): n for n, t in [("f32", np.float32), ("f64", np.float64), ("i8", np.int8),
                                           ("i16", np.int16), ("i32", np.int32), ("i64", np.int64),
                                           ("u8", np.uint8), ("u16", np.uint16), ("u32", np.uint32),
                                           ("u64", np.uint64), ("bool", np.bool_)]}


@dataclass
class GenericKernel:
    """A generic kernel's type parameters and, per parameter, where each one shows (index, "elem"/"scalar")."""

    name: str
    generics: list[str]
    consts: list[str]
    slots: dict[str, list[tuple[int, str]]]


def generic_kernels(text: str, name: str) -> dict[str, GenericKernel]:
    """The generic kernels of a Rust source, by name."""
    source = Source(name, text)
    crate = collect(source, parse(source).root_node)
    out: dict[str, GenericKernel] = {}
    for kernel in crate.kernels:
        fn = crate.function(kernel)
        if fn is None or not fn.generics:
            continue
        types = [g.name for g in fn.generics if g.const_ty is None]
        consts = [g.name for g in fn.generics if g.const_ty is not None]
        slots: dict[str, list[tuple[int, str]]] = {t: [] for t in types}
        for index, param in enumerate(fn.params):
            for t, kind in _slots(param.ty):
                if t in slots:
                    slots[t].append((index, kind))
        out[kernel] = GenericKernel(kernel, [g.name for g in fn.generics], consts, slots)
    return out


def _slots(ty: Any) -> list[tuple[str, str]]:
    """(type parameter name, "elem" or "scalar") shown by one parameter type."""
    if isinstance(ty, ast.PathTy):
        if not ty.args:
            return [(ty.name, "scalar")]
        if ty.name.split("::")[-1] == "DisjointSlice" and isinstance(ty.args[0], ast.PathTy):
            return [(ty.args[0].name, "elem")]
        if ty.name.split("::")[-1] == "Uniform" and isinstance(ty.args[0], ast.PathTy):
            return [(ty.args[0].name, "scalar")]
        return []
    if isinstance(ty, ast.RefTy) and isinstance(ty.inner, ast.SliceTy) and isinstance(ty.inner.elem, ast.PathTy):
        return [(ty.inner.elem.name, "elem")]
    if isinstance(ty, ast.PtrTy) and isinstance(ty.inner, ast.PathTy):
        return [(ty.inner.name, "elem")]
    return []


def infer(kernel: GenericKernel, args: Sequence[Any]) -> list[str]:
    """The type arguments of `kernel` for a call with `args`; KernelArgumentError when they cannot be read."""
    if kernel.consts:
        raise KernelArgumentError(f"generic kernel `{kernel.name}` has const parameter(s) "
                                  f"{', '.join(kernel.consts)}, which cannot be read from the arguments; load it "
                                  f"with instances={{'{kernel.name}': [[...]]}}")
    chosen: dict[str, str] = {}
    for t, slots in kernel.slots.items():
        fallback = None
        for index, kind in slots:
            if index >= len(args):
                continue
            name, certain = _rust_type(args[index], kind)
            if name and certain:
                chosen[t] = name
                break
            fallback = fallback or name
        if t not in chosen and fallback:
            chosen[t] = fallback
        if t not in chosen:
            raise KernelArgumentError(f"generic kernel `{kernel.name}`: cannot read its type parameter `{t}` from "
                                      "these arguments; pass typed arrays or numpy scalars, or load it with "
                                      f"instances={{'{kernel.name}': [[...]]}}")
    return [chosen[g] for g in kernel.generics]


def _rust_type(value: Any, kind: str) -> tuple[str | None, bool]:
    """(Rust type name, whether it is certain) that `value` shows for a slot."""
    if kind == "elem":
        if hasattr(value, "buffer") and hasattr(value, "width"):  # RowWidth
            value = value.buffer
        dtype = getattr(value, "dtype", None)
        if dtype is None and hasattr(value, "__cuda_array_interface__"):
            dtype = value.__cuda_array_interface__["typestr"]
        try:
            return _RUST_NAMES.get(np.dtype(str(dtype))), True
        except TypeError:
            return None, False
    if isinstance(value, np.generic):
        return _RUST_NAMES.get(value.dtype), True
    if isinstance(value, bool):
        return "bool", True
    if isinstance(value, float):
        return "f64", False
    if isinstance(value, int):
        return "i32", False
    return None, False
