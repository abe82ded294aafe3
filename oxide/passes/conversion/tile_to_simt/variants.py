"""Launch-time variants of a tile kernel on sm_90a's GEMM path (docs/tile-hopper.md, "Variants chosen at launch").

Whether TMA can read a tensor (rows 16-byte aligned, innermost stride 1, base 16-byte aligned) and which of its
dimensions is innermost are facts of the arrays a launch binds, not of the kernel. So a kernel that takes the
TMA + wgmma path is lowered up to three times, in the order the runtime tries them:

- B N-major (the row-major [K, N] tensor, wgmma's transpose bit; 16-bit types only);
- B K-major (a transposed view, strides (1, K): its tensor map describes the [N, K] memory with the dimensions
  reversed, and wgmma reads it without the transpose bit; the only wgmma entry of tf32 and fp8);
- the mma.sync sibling, which reads any tensor.

The first is the kernel's own name. Each variant says what it needs of the launch (its tensor maps, each of
which must encode for the bound tensor: a map's innermost dimension must have stride 1, which is how B's
majorness picks the entry, and its dynamic shared memory). The last variant needs nothing and always runs.

The other entries' names are the kernel's with `$kmajor_b` or `$mma_sync` appended: `$` is valid in a PTX
identifier and never in a Rust one, so no user kernel can be named the same.
"""

from __future__ import annotations

from typing import Any

from mlir import ir

from oxide.ir.rules import LoweringError
from oxide.passes.conversion.tile_to_simt.context import i_type
from oxide.passes.conversion.tile_to_simt.mma_layouts import plan_mma
from oxide.passes.conversion.tile_to_simt.wgmma_plan import GemmPlan, MapSpec

FALLBACK_SUFFIX = "$mma_sync"
KMAJOR_SUFFIX = "$kmajor_b"


def fallback_name(entry: str) -> str:
    """The PTX entry of the mma.sync sibling of tile kernel `entry`."""
    return entry + FALLBACK_SUFFIX


def map_json(m: MapSpec) -> dict[str, Any]:
    """One tensor map as the runtime encodes it: the tile parameter it describes, its box, its swizzle, and
    whether it describes the tensor with its dimensions reversed."""
    return {"param": m.param, "box": list(m.box), "swizzle": "128B", **({"transposed": True} if m.transposed else {})}


def cluster_json(plan: GemmPlan) -> dict[str, Any]:
    """The launch facts of a clustered plan (nothing without a cluster): "cluster", the launch's cluster
    dimensions (the persistent grid's blocks, CM * CN along x, so the grid is a whole number of clusters), and
    "cluster_tiles", the output tiles (along M, along N) one cluster computes at a time."""
    if plan.cluster_blocks == 1:
        return {}
    return {"cluster": [plan.cluster_blocks, 1, 1], "cluster_tiles": list(plan.cluster)}


def batched_json(plan: GemmPlan) -> dict[str, Any]:
    """`"batched": true` on a batched GEMM's variants (nothing otherwise): its launch grid is (batch, tile rows,
    tile columns), which the persistent launch counts cluster tiles of (tile_kernel.persistent_grid)."""
    return {"batched": True} if plan.batched else {}


def entry_names(entry: str, plans: list[GemmPlan]) -> list[str]:
    """The PTX entry of each wgmma plan: the first is the kernel's own, a K-major one after it gets a suffix."""
    return [entry if i == 0 else entry + KMAJOR_SUFFIX for i in range(len(plans))]


def has_fallback(plan: GemmPlan) -> bool:
    """Whether the mma.sync path can take the GEMM's tiles with the plan's warps (its staging of one K step
    must fit in static shared memory: 128 x 256 x 64 tiles do not). Without a sibling, a launch on tensors
    TMA cannot read is refused with the reason."""
    try:
        plan_mma([plan.bm, plan.bk], [plan.bk, plan.bn], plan.elem, "f32", plan.warps)
    except LoweringError:
        return False
    return True


def pipeline_spec(entry: str, plans: list[GemmPlan]) -> dict[str, Any]:
    """What the artifact records for a kernel on the GEMM path (KernelSpec.tile): the primary entry's launch
    (tensor maps, ring, warps, threads, persistence), and its variants in the order a launch tries them, each
    with its entry, requirements and launch shape. `plans` are the wgmma entries' (kernel_gemms)."""
    variants = [{"entry": name, "tma": [map_json(m) for m in p.maps], "dynamic_shared": p.ring_bytes,
                 "warps": p.warps, "threads": p.threads, "persistent": p.persistent, **cluster_json(p),
                 **batched_json(p)}
                for name, p in zip(entry_names(entry, plans), plans)]
    primary, plan = variants[0], plans[0]
    if has_fallback(plan):
        variants.append({"entry": fallback_name(entry), "tma": [], "dynamic_shared": 0, "warps": plan.warps,
                         "threads": 32 * plan.warps, "persistent": False})
    return {**{k: v for k, v in primary.items() if k != "entry"}, "variants": variants}


def variants_attribute(entry: str, plans: list[GemmPlan]) -> ir.Attribute:
    """`tile.variants` on the primary lowered kernel: per variant its entry and the tensor parameters its maps
    describe (the full requirements are in `tile.tma` and `tile.dynamic_shared` of each entry)."""
    parts = []
    for variant in pipeline_spec(entry, plans)["variants"]:
        params = ", ".join(str(m["param"]) for m in variant["tma"])
        parts.append(f'{{entry = "{variant["entry"]}", tma_params = array<i64{": " + params if params else ""}>}}')
    return ir.Attribute.parse("[" + ", ".join(parts) + "]")


def fallback_twin(func: ir.Operation, warps: int, suffix: str = FALLBACK_SUFFIX) -> ir.Operation:
    """A copy of tile kernel `func`, right after it, named as its mma.sync sibling (to be lowered without wgmma)
    or, with `KMAJOR_SUFFIX`, its K-major B entry; with the warps of the primary's plan (a tile that needs more
    warps for wgmma needs them for mma.sync too)."""
    twin = func.clone(ip=ir.InsertionPoint.after(func))
    name = ir.StringAttr(func.attributes["sym_name"]).value
    twin.attributes["sym_name"] = ir.StringAttr.get(name + suffix)
    twin.attributes["tile.warps"] = ir.IntegerAttr.get(i_type(32), warps)
    return twin
