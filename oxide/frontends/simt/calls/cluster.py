"""cuda_device's `cluster` module (thread-block clusters, sm_90): this block's place in its cluster
(`cluster_ctaidX/Y/Z`, `block_rank`), the cluster's shape (`cluster_nctaidX/Y/Z`, `cluster_size`), the
cluster's place in the grid (`cluster_idx`: the linear cluster index, x fastest; `num_clusters`), the cluster
barrier (`cluster_sync`) and distributed shared memory (`map_shared_rank`, `dsmem_read_u32`: another block's
shared variable at the same offset, through `mapa` on generic addresses). A kernel's cluster shape is fixed
with `#[cluster_launch(x, y, z)]` (PTX `.reqnctapercluster`)."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.dialects.simt.inline_ptx import build_inline_ptx
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.casts import shared_as_pointer
from oxide.frontends.simt.calls.registry import device_fn
from oxide.frontends.simt.values import Val

_U32 = T.PRIMITIVES["u32"]
_REGISTERS = {**{f"cluster_ctaid{a.upper()}": f"cluster_ctaid_{a}" for a in "xyz"},
              **{f"cluster_nctaid{a.upper()}": f"cluster_nctaid_{a}" for a in "xyz"},
              "block_rank": "cluster_ctarank", "cluster_size": "cluster_nctarank"}


def _sreg(reg: str) -> ir.Value:
    return simt.SpecialRegOp.build(reg=reg, results=[ir.IntegerType.get_signless(32)])


def _no_args(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], *_: Any) -> bool:
    return not args


def _two_args(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], *_: Any) -> bool:
    return len(args) == 2


@device_fn(*(f"cluster::{name}" for name in _REGISTERS), when=_no_args)
def _register(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
              loc: Any) -> Val:
    return Val(_U32, _sreg(_REGISTERS[segs[-1]]))


@device_fn("cluster::cluster_idx", "cluster::num_clusters", when=_no_args)
def _cluster_index(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                   loc: Any) -> Val:
    counts = [_sreg(f"nclusterid_{a}") for a in "xyz"]
    if segs[-1] == "num_clusters":
        return Val(_U32, arith.muli(arith.muli(counts[0], counts[1]), counts[2]))
    ids = [_sreg(f"clusterid_{a}") for a in "xyz"]
    linear = arith.addi(ids[0], arith.muli(counts[0], arith.addi(ids[1], arith.muli(counts[1], ids[2]))))
    return Val(_U32, linear)


@device_fn("cluster_sync", when=_no_args)
def _cluster_sync(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                  loc: Any) -> Val:
    # arrive has release and wait acquire semantics: shared-memory writes before the barrier are visible to
    # every block of the cluster after it.
    build_inline_ptx([], "barrier.cluster.arrive;\n\tbarrier.cluster.wait;", "~{memory}", [])
    return Val(T.UNIT, None)


def _generic_address(em: Emitter, a: ast.Expr, name: str) -> tuple[ir.Value, T.Ptr]:
    value = em.expr(a)
    if isinstance(value.ty, T.Shared):
        value = shared_as_pointer(value)
    if not isinstance(value.ty, T.Ptr):
        raise err(a.loc, f"`{name}` takes a pointer to a shared variable, not `{value.ty}`")
    return simt.PtrToIntOp.build(value.v), value.ty


def _rank(em: Emitter, a: ast.Expr) -> ir.Value:
    return em.coerce(em.expr(a, _U32), _U32, a.loc).v


@device_fn("map_shared_rank", "map_shared_rank_mut", when=_two_args)
def _map_shared_rank(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                     loc: Any) -> Val:
    em.require_unsafe(loc, f"`cluster::{segs[-1]}`")
    address, ptr = _generic_address(em, args[0], segs[-1])
    (mapped,) = build_inline_ptx([address, _rank(em, args[1])], "mapa.u64 $0, $1, $2;", "=l,l,r",
                                 [ir.IntegerType.get_signless(64)])
    result = T.Ptr(ptr.elem, segs[-1].endswith("_mut") or ptr.mutable, 0)
    return Val(result, simt.IntToPtrOp.build(mapped, results=[result.mlir()]))


@device_fn("dsmem_read_u32", when=_two_args)
def _dsmem_read(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                loc: Any) -> Val:
    em.require_unsafe(loc, "`cluster::dsmem_read_u32`")
    address, _ = _generic_address(em, args[0], "dsmem_read_u32")
    (value,) = build_inline_ptx([address, _rank(em, args[1])],
                                "{ .reg .b64 a; mapa.u64 a, $1, $2; ld.u32 $0, [a]; }", "=r,l,r,~{memory}",
                                [ir.IntegerType.get_signless(32)])
    return Val(_U32, value)
