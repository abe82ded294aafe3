"""The tile frontend's driver: cutile-rs source (`#[cutile::module] mod m { #[cutile::entry] fn k(..) }`) ->
a builtin.module holding one gpu.module of tile kernels.

Every `#[cutile::entry]` becomes a `gpu.func ... kernel` with `tile.warps`. A generic entry is instantiated
once per requested argument list (`instances={"gemm": [["bf16", "128", "[64, 64]"]]}`: types as Rust writes
them, const generics as integers or `[a, b]` arrays); its entry name is `<kernel>_<arg>_<arg>` as for SIMT
kernels, with an array argument written `64x64` (`gemm_bf16_128_64x64`). A generic entry nobody instantiates
is skipped and listed in `skipped_generic`.
"""

from __future__ import annotations

import time
from typing import Any

from mlir import ir
from mlir.dialects import gpu

from oxide.dialects.tile.types import MAX_OUTPUT_RANK
from oxide.frontends.syntax import ast
from oxide.frontends.kernel_module import (
    FrontendResult, KernelInfo, KernelParam, KernelSource, bind_generics, compile_module, entry_name, location,
    param_name,
    returns_nothing, settle_literals,
)
from oxide.frontends.syntax.errors import err
from oxide.frontends.syntax.parser import Source, parse
from oxide.frontends.tile.emit import Emitter
from oxide.frontends.tile.mapped import MappedT
from oxide.frontends.tile.module import TileCrate, collect, is_tile_source
from oxide.frontends.tile.types import SCALARS, PtrT, Scalar, TileT, V, ViewT, rust_name
from oxide.diagnostics import OxideError

__all__ = ["compile_tile", "is_tile_source"]


def compile_tile(text: str, name: str, context: ir.Context,
                 instances: dict[str, list[list[str]]] | None = None) -> FrontendResult:
    """Compile cutile-rs source into tile IR (in `context`); raise OxideError with located diagnostics."""
    timings: dict[str, float] = {}
    start = time.perf_counter()
    source = Source(name, text)
    crate = collect(source, parse(source).root_node)
    timings["parse"] = time.perf_counter() - start
    if not crate.entries:
        raise OxideError(f"no `#[cutile::entry]` function inside a `#[cutile::module]` in {name}")

    def check(fn: ast.Function) -> None:
        if not returns_nothing(fn):
            raise err(fn.ret.loc, f"a tile kernel returns nothing; `{fn.name}` returns a value (store "
                                  f"results into its `&mut Tensor` output)")

    def emit(fn: ast.Function, module: Any, args: list[str]) -> KernelInfo:
        args = [str(a).strip() for a in args]
        return settle_literals(fn, lambda retypes: _emit_kernel_once(crate, fn, module, args, retypes))

    result = compile_module(name, context, KernelSource(crate.entries, crate.function, check,
                                                        lambda fn: (instances or {}).get(fn.name), emit), timings)
    entries = [k.entry for k in result.kernels]
    for entry in entries:
        if entries.count(entry) > 1:
            fn = crate.function(next(k.name for k in result.kernels if k.entry == entry))
            raise err(fn.loc, f"two kernel instances are both named `{entry}` (the same instance requested twice?)")
    return result


def tile_entry_name(fn: ast.Function, args: list[str]) -> str:
    """The entry name of a kernel instance (`gemm_bf16_128_64x64`)."""
    return entry_name(fn, ["x".join(p.strip() for p in a[1:-1].split(",")) if a.startswith("[") else a
                           for a in args])


def _bindings(em: Emitter, fn: ast.Function, args: list[str]) -> dict[str, Any]:
    def type_arg(g: ast.Generic, text: str) -> Scalar:
        if text not in SCALARS:
            raise err(g.loc, f"`{g.name}` of `{fn.name}` is instantiated with `{text}`, which is not a tile "
                             f"element type ({', '.join(SCALARS)})")
        return SCALARS[text]

    def const_arg(g: ast.Generic, text: str) -> int | list[int]:
        try:
            value: Any = [int(p, 0) for p in text[1:-1].split(",") if p.strip()] if text.startswith("[") \
                else int(text, 0)
        except ValueError:
            raise err(g.loc, f"const generic `{g.name}` of `{fn.name}` is instantiated with `{text}`; give an integer "
                             f"or an array `[a, b]`") from None
        rank = em.const_value(g.const_ty.length) if isinstance(g.const_ty, ast.ArrayTy) else None
        if (rank is None) == isinstance(value, list) or rank is not None and rank != len(value):
            raise err(g.loc, f"const generic `{g.name}` of `{fn.name}` is instantiated with `{text}`, which does not "
                             f"fit its type")
        return value

    return bind_generics(fn, args, type_arg, const_arg)


def _emit_kernel_once(crate: TileCrate, fn: ast.Function, module: Any, args: list[str],
                      retypes: dict[int, Scalar]) -> KernelInfo:
    options = crate.options[fn.name]
    em = Emitter(crate, fn, {}, retypes)
    em.generics = _bindings(em, fn, args)
    param_types = [_param_type(em, fn, p) for p in fn.params]
    entry = tile_entry_name(fn, args)
    block = module.bodyRegion.blocks[0]
    mlir_types = [t.mlir() for t in param_types]
    with ir.InsertionPoint(block), location(fn.loc):
        func = gpu.GPUFuncOp(ir.FunctionType.get(mlir_types, []), entry, kernel=True)
        func.attributes["tile.warps"] = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), options.warps)
        entry_block = func.body.blocks.append(*mlir_types, arg_locs=[location(p.loc) for p in fn.params])
    try:
        with ir.InsertionPoint(entry_block), location(fn.loc):
            for p, ty, arg in zip(fn.params, param_types, entry_block.arguments):
                em.bind_pattern(p.pattern, V(ty, arg))
            em.block(fn.body)
            gpu.ReturnOp([])
    except BaseException:
        func.operation.erase()
        raise
    _drop_unused_leaves(func)
    params = [KernelParam(param_name(p), rust_name(ty), [str(ty.mlir())]) for p, ty in zip(fn.params, param_types)]
    return KernelInfo(fn.name, entry, params)


# Operand-free ops without effects that folding and `get_tile_block_id()`'s unused axes leave behind.
_LEAVES = ("arith.constant", "tile.block_id", "tile.num_blocks")


def _drop_unused_leaves(func: Any) -> None:
    """Erase the unused constants and block ids (they have no operands, so one sweep finds them all)."""
    dead: list[Any] = []

    def visit(op: Any) -> Any:
        if op.name in _LEAVES and not any(True for r in op.results for _ in r.uses):
            dead.append(op)
        return ir.WalkResult.ADVANCE

    func.operation.walk(visit)
    for op in dead:
        op.erase()


def _param_type(em: Emitter, fn: ast.Function, p: ast.Param) -> Any:
    """A kernel parameter's type, checked against what a tile kernel may take."""
    if isinstance(p.ty, ast.PathTy) and p.ty.name in ("Partition", "PartitionMut"):
        raise err(p.ty.loc, f"a `{p.ty.name}` kernel parameter is not supported; take the output as "
                            f"`&mut Tensor<E, S>` (the host passes a partition)")
    if isinstance(p.ty, ast.PathTy) and p.ty.name == "Tensor":
        raise err(p.ty.loc, "a tensor is passed by reference: `&Tensor<E, S>` (input) or `&mut Tensor<E, S>` "
                            "(this block's output tile)")
    ty = em.resolve_type(p.ty)
    if isinstance(ty, ViewT) and ty.mutable:
        if any(d < 0 for d in ty.shape):
            raise err(p.ty.loc, f"an output's tile shape is static: `&mut Tensor<E, {{[..]}}>` has no -1 dimensions "
                                f"(got {list(ty.shape)})")
        if not 1 <= len(ty.shape) <= MAX_OUTPUT_RANK:
            raise err(p.ty.loc, f"an output tile has rank 1 to {MAX_OUTPUT_RANK} (the launch grid has three axes); "
                                f"got {list(ty.shape)}")
        if any(d == 0 or d & (d - 1) for d in ty.shape):
            raise err(p.ty.loc, f"output tile shape {list(ty.shape)}: every tile dimension must be a power of two")
    elif isinstance(ty, ViewT):
        if not 1 <= len(ty.shape) <= 4 or any(d == 0 or d < -1 for d in ty.shape):
            raise err(p.ty.loc, f"an input `&Tensor` has rank 1 to 4 and dimensions > 0 or -1 (dynamic); got "
                                f"{list(ty.shape)}")
    elif isinstance(ty, PtrT):
        if not fn.attrs.get("unsafe"):
            raise err(p.ty.loc, "a raw pointer parameter needs an `unsafe fn` kernel: nothing checks what it points at")
    elif isinstance(ty, MappedT):
        pass  # checked where the type is resolved (mapped.py)
    elif isinstance(ty, TileT):
        raise err(p.ty.loc, "a kernel takes tensors, not tiles: `&Tensor<E, S>` (input) or `&mut Tensor<E, S>`")
    elif not isinstance(ty, Scalar):
        raise err(p.ty.loc, f"a tile kernel parameter of type `{rust_name(ty)}` is not supported")
    return ty
