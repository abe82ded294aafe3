"""The Rust frontend's driver: a .rs file -> a builtin.module holding one gpu.module of simt kernels.

Every `#[kernel]` becomes a `gpu.func ... kernel`. A generic kernel is instantiated once per requested
type list (`instances={"scale": [["f32"], ["f64"]]}`); its entry is named `<kernel>_<arg>_<arg>` (type
names as Rust writes them, const generics as numbers), e.g. `scale_f32`, `tile_f32_16`. Kernel parameters
of Copy struct types are passed flattened, one parameter per scalar field.
"""

from __future__ import annotations

import time
from typing import Any

from mlir import ir
from mlir.dialects import gpu

from oxide.frontends.kernel_module import (
    FrontendResult, KernelInfo, KernelParam, KernelSource, bind_generics, compile_module, entry_name, location,
    param_name,
    returns_nothing, settle_literals,
)
from oxide.frontends.simt import contract as launch_contract
from oxide.frontends.simt import safety
from oxide.frontends.simt import types as T
from oxide.dialects.simt.tma import TENSOR_MAP_ALIGN, TENSOR_MAP_BYTES
from oxide.frontends.simt.buffer_layout import element_layout
from oxide.frontends.simt.calls.device_types import TensorMapTy
from oxide.frontends.simt.emit import FunctionEmitter
from oxide.frontends.simt.emit_support import index
from oxide.frontends.syntax.errors import err
from oxide.frontends.structured import Frame, contains
from oxide.frontends.simt.items import collect
from oxide.frontends.simt.values import ArrayView, Val, flag_cell, load_cell, new_cell, set_flag, store_element
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.items import Crate
from oxide.frontends.syntax.parser import Source, parse
from oxide.diagnostics import OxideError

# Kernel parameters by value share CUDA's parameter space: 4,096 bytes in all, the limit every PTX version and
# driver accepts (the larger 32,764-byte space needs PTX 8.1 and a recent driver, and the frontend does not
# know the target). Checking it before expanding a parameter also bounds every loop over an array length.
PARAM_SPACE_BYTES = 4096
# The scalar leaves of one buffer element that the kernel signature lists (a `&[[f32; 16]]` has 16).
MAX_ELEMENT_LEAVES = 1 << 16


def compile_rust(text: str, name: str, context: ir.Context, instances: dict[str, list[list[str]]] | None = None) -> FrontendResult:
    """Compile Rust source into simt IR (in `context`); raise OxideError with located diagnostics."""
    timings: dict[str, float] = {}
    start = time.perf_counter()
    source = Source(name, text)
    tree = parse(source)
    crate = collect(source, tree.root_node)
    safety.check_crate(crate)
    timings["parse"] = time.perf_counter() - start
    if not crate.kernels:
        raise OxideError(f"no `#[kernel]` function in {name}")

    def check(fn: ast.Function) -> None:
        if not returns_nothing(fn):
            raise err(fn.ret.loc, f"a kernel returns nothing; `{fn.name}` returns a value")

    def requested(fn: ast.Function) -> list[list[str]] | None:
        return (instances or {}).get(fn.name) or fn.attrs.get("instances")

    def emit(fn: ast.Function, module: Any, type_args: list[str]) -> KernelInfo:
        return settle_literals(fn, lambda retypes: _emit_kernel_once(crate, fn, module, type_args, retypes))

    return compile_module(name, context, KernelSource(crate.kernels, crate.function, check, requested, emit), timings)


def _bindings(em: FunctionEmitter, fn: ast.Function, type_args: list[str]) -> dict[str, Any]:
    def type_arg(g: ast.Generic, arg: str) -> T.Ty:
        return T.PRIMITIVES[arg] if arg in T.PRIMITIVES else em.resolve_type(ast.PathTy(fn.loc, arg))

    return bind_generics(fn, type_args, type_arg, lambda g, arg: _const_argument(em, fn, g, arg))


def _const_argument(em: FunctionEmitter, fn: ast.Function, g: ast.Generic, arg: str) -> int:
    """The value of an instantiation argument for the const parameter `g`: an integer literal in its type's range."""
    ty = em.resolve_type(g.const_ty)
    try:
        value = int(arg.replace("_", ""), 0)
    except ValueError:
        value = None
    if isinstance(ty, T.Int) and value is not None:
        low, high = (-(1 << (ty.bits - 1)), (1 << (ty.bits - 1)) - 1) if ty.signed else (0, (1 << ty.bits) - 1)
        if low <= value <= high:
            return value
    raise err(fn.loc, f"kernel `{fn.name}`: its const parameter `{g.name}: {ty}` is instantiated with `{arg}`, "
                      f"which is not an integer literal of type `{ty}`; give one, e.g. `{fn.name}=4`")


def _param_parts(ty: T.Ty, loc: Any) -> list[T.Ty]:
    """The kernel-ABI parameters one Rust parameter becomes."""
    if isinstance(ty, (T.Int, T.Float, T.Bool, T.Slice, T.Disjoint, T.Ptr, TensorMapTy)):
        return [ty]
    if isinstance(ty, T.DataEnum):
        raise err(loc, f"a kernel parameter of type `{ty}` (an enum with fields) is not supported")
    if isinstance(ty, T.Struct):
        return [p for _, f in ty.fields for p in _param_parts(f, loc)]
    if isinstance(ty, T.Tuple):
        return [p for e in ty.elems for p in _param_parts(e, loc)]
    if isinstance(ty, T.Array):
        # By value, like a tuple of `length` elements: one ABI parameter per scalar, in order. The element
        # is expanded once, so a huge array of zero-sized elements costs nothing either.
        return _param_parts(ty.elem, loc) * ty.length
    if isinstance(ty, T.ElemRef):
        raise err(loc, "a `&mut T` kernel parameter is not supported; pass a slice or a DisjointSlice")
    if isinstance(ty, T.Enum):
        raise err(loc, f"a kernel parameter of enum type `{ty}` is not supported; pass its discriminant as "
                       f"`{ty.storage}` and `match` on it, or a `&[{ty}]` buffer")
    raise err(loc, f"a kernel parameter of type `{ty}` is not supported")


def _param_bytes(ty: T.Ty) -> int:
    """The bytes of parameter space a parameter of type `ty` takes by value, without expanding it (an array
    length is whatever the user wrote); 0 for types `_param_parts` refuses."""
    if isinstance(ty, (T.Slice, T.Disjoint)):
        return 16  # pointer and length
    if isinstance(ty, T.Ptr):
        return 8
    if isinstance(ty, TensorMapTy):
        return TENSOR_MAP_BYTES  # the descriptor itself, by value (grid-constant)
    if isinstance(ty, (T.Int, T.Float, T.Bool)):
        return T.layout(ty)[0]
    if isinstance(ty, T.Struct):
        return sum(_param_bytes(f) for _, f in ty.fields)
    if isinstance(ty, T.Tuple):
        return sum(_param_bytes(e) for e in ty.elems)
    if isinstance(ty, T.Array):
        return ty.length * _param_bytes(ty.elem)
    return 0


def _check_param_space(fn: ast.Function, param_types: list[T.Ty]) -> None:
    """Refuse parameters by value beyond the parameter space (at the parameter that overflows it), and buffers
    whose elements have more scalar leaves than a kernel signature lists."""
    end = 0
    for p, ty in zip(fn.params, param_types):
        start, end = end, _param_end(ty, end)
        if end > PARAM_SPACE_BYTES:
            size = max(end - start, _param_bytes(ty))
            after = f" (after {start:,} bytes of earlier parameters)" if start else ""
            raise err(p.loc, f"kernel parameter `{param_name(p)}` of type `{ty}` takes {size:,} bytes of parameter "
                             f"space{after}; kernel parameters by value may take {PARAM_SPACE_BYTES:,} bytes in all; "
                             "pass large data in a buffer instead (a slice such as `&[T]`)")
        if isinstance(ty, (T.Slice, T.Disjoint, T.Ptr)) and _leaf_count(ty.elem) > MAX_ELEMENT_LEAVES:
            raise err(p.loc, f"the elements of kernel parameter `{param_name(p)}` (`{ty.elem}`) have "
                             f"{_leaf_count(ty.elem):,} scalar fields; at most {MAX_ELEMENT_LEAVES:,} are "
                             "supported: pass a flat buffer of the scalars and index it")


def _param_end(ty: T.Ty, offset: int) -> int:
    """Where the parameters of a `ty` placed at byte `offset` end: each ABI parameter at its own alignment, as
    PTX lays out `.param` entries. An array stops once past the parameter space, so its length (whatever the
    user wrote) costs at most PARAM_SPACE_BYTES steps."""
    if isinstance(ty, (T.Slice, T.Disjoint, T.Ptr)):
        return -(-offset // 8) * 8 + _param_bytes(ty)
    if isinstance(ty, TensorMapTy):
        return -(-offset // TENSOR_MAP_ALIGN) * TENSOR_MAP_ALIGN + TENSOR_MAP_BYTES
    if isinstance(ty, (T.Int, T.Float, T.Bool)):
        size = T.layout(ty)[0]
        return -(-offset // size) * size + size
    if isinstance(ty, T.Struct):
        for _, f in ty.fields:
            offset = _param_end(f, offset)
        return offset
    if isinstance(ty, T.Tuple):
        for e in ty.elems:
            offset = _param_end(e, offset)
        return offset
    if isinstance(ty, T.Array) and _param_end(ty.elem, 0) > 0:  # zero-sized elements take no parameters
        for _ in range(ty.length):
            offset = _param_end(ty.elem, offset)
            if offset > PARAM_SPACE_BYTES:
                break
    return offset


def _leaf_count(ty: T.Ty) -> int:
    """How many scalars a value of `ty` holds (what the kernel signature lists for a buffer element)."""
    if isinstance(ty, T.Array):
        return ty.length * _leaf_count(ty.elem)
    if isinstance(ty, T.Tuple):
        return sum(_leaf_count(e) for e in ty.elems)
    if isinstance(ty, T.Struct):
        return sum(_leaf_count(f) for _, f in ty.fields)
    return 1


def _assemble(ty: T.Ty, values: list[Any]) -> Val:
    """Rebuild a (possibly struct) parameter from its flattened block arguments."""
    if isinstance(ty, T.Struct):
        return Val(ty, [_assemble(f, values) for _, f in ty.fields])
    if isinstance(ty, T.Tuple):
        return Val(ty, [_assemble(e, values) for e in ty.elems])
    if isinstance(ty, T.Array):
        cell = new_cell(ty)
        # Zero-sized elements take no parameters and have nothing to store, whatever their count.
        for i in range(ty.length if _param_bytes(ty.elem) else 0):
            store_element(_assemble(ty.elem, values), ArrayView(cell.leaves, (index(i),)), ty.elem)
        return load_cell(cell)
    return Val(ty, values.pop(0))


def _emit_kernel_once(crate: Crate, fn: ast.Function, module: Any, type_args: list[str],
                      retypes: dict[int, T.Ty]) -> KernelInfo:
    """One instance of a kernel into the gpu.module, with the literal types `retypes` settled so far."""
    em = FunctionEmitter(crate, fn, bool(fn.attrs.get("unchecked_indexing")))
    em.retypes = retypes
    em.in_unsafe = bool(fn.attrs.get("unsafe"))
    em.generics = [_bindings(em, fn, type_args)]
    param_types = [em.resolve_type(p.ty) for p in fn.params]
    if fn.attrs.get("launch_contract"):
        launch_contract.check_parameters(fn.attrs["launch_contract"], [(param_name(p), t) for p, t in
                                                                        zip(fn.params, param_types)],
                                         fn.attrs["launch_contract_loc"])
    for p, ty in zip(fn.params, param_types):
        if isinstance(ty, T.Slice) and ty.mutable and not fn.attrs.get("unsafe"):
            # Every thread sees the whole `&mut [T]`: nothing stops two of them writing one element.
            raise err(p.loc, "a `&mut [T]` kernel parameter lets every thread write every element, which is unsafe; "
                             "take a `DisjointSlice<T>` or mark the kernel `unsafe fn`")
    _check_param_space(fn, param_types)
    flat: list[T.Ty] = []
    for p, ty in zip(fn.params, param_types):
        flat.extend(_param_parts(ty, p.loc))
    if fn.attrs.get("cooperative"):
        flat.append(_GRID_WORKSPACE)  # hidden: the runtime passes the launch's grid-barrier workspace
    entry = entry_name(fn, type_args)
    block = module.bodyRegion.blocks[0]
    bounds = _launch_bounds(fn, em)
    with ir.InsertionPoint(block), location(fn.loc):
        func = gpu.GPUFuncOp(ir.FunctionType.get([t.mlir() for t in flat], []), entry, kernel=True)
        _kernel_attributes(func, fn, bounds)
        entry_block = func.body.blocks.append(*[t.mlir() for t in flat], arg_locs=[location(fn.loc)] * len(flat))
    try:
        em.entry = entry_block
        with ir.InsertionPoint(entry_block), location(fn.loc):
            args = list(entry_block.arguments)
            for p, ty in zip(fn.params, param_types):
                em.bind_pattern(p.pattern, _assemble(ty, args))
            frame = Frame("function", None)
            if contains(fn.body, ast.Return):
                frame.exit_flag = flag_cell()
                set_flag(frame.exit_flag, False)
            em.frames.append(frame)
            em.block(fn.body)
            gpu.ReturnOp([])
    except BaseException:
        func.operation.erase()
        raise
    params = [KernelParam(param_name(p), str(ty), [str(t.mlir()) for t in _param_parts(ty, p.loc)],
                          element_layout(ty.elem) if isinstance(ty, (T.Slice, T.Disjoint, T.Ptr)) else {})
              for p, ty in zip(fn.params, param_types)]
    return KernelInfo(fn.name, entry, params, fn.attrs.get("launch_contract", {}), bounds,
                      list(fn.attrs.get("cluster_dims", [])), bool(fn.attrs.get("cooperative")))


# A cooperative kernel's hidden last parameter (simt.cooperative): two i32 words of global memory, the grid
# barrier's arrival count and generation.
_GRID_WORKSPACE = T.Ptr(T.PRIMITIVES["u32"], True, 1)

# What `.maxntid` and `.minnctapersm` may say: a block has at most 1024 threads on every supported chip.
_LAUNCH_BOUND_RANGES = (("max threads per block", 1, 1024), ("min blocks per multiprocessor", 1, 2 ** 31 - 1))


def _launch_bounds(fn: ast.Function, em: Any) -> list[int]:
    """`#[launch_bounds(MAX[, MIN])]` as integers (consts resolved for this instance), each in its range."""
    bounds = [b if isinstance(b, int) else em.const_arg(b) for b in fn.attrs.get("launch_bounds", [])]
    for value, (what, low, high) in zip(bounds, _LAUNCH_BOUND_RANGES):
        if not low <= value <= high:
            raise OxideError(f"#[launch_bounds]: {what} must be {low} to {high}, got {value}",
                             fn.attrs["launch_bounds_loc"])
    return bounds


def _kernel_attributes(func: Any, fn: ast.Function, bounds: list[int]) -> None:
    if bounds:
        func.attributes["simt.launch_bounds"] = ir.DenseI32ArrayAttr.get(bounds)
    cluster = fn.attrs.get("cluster_dims")
    if cluster:
        func.attributes["simt.cluster_dims"] = ir.DenseI32ArrayAttr.get(cluster)
    if fn.attrs.get("cooperative"):
        func.attributes["simt.cooperative"] = ir.UnitAttr.get()
    contract = fn.attrs.get("launch_contract")
    if contract:
        entries: dict[str, ir.Attribute] = {}
        i64 = ir.IntegerType.get_signless(64)
        for key, value in contract.items():
            if isinstance(value, list):
                entries[key] = ir.DenseI32ArrayAttr.get(value)
            elif isinstance(value, int):
                entries[key] = ir.IntegerAttr.get(i64, value)
            else:
                entries[key] = ir.StringAttr.get(str(value))
        func.attributes["simt.contract"] = ir.DictAttr.get(entries)
