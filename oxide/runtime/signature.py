"""Kernel signatures: what each Rust parameter is, how it reaches the PTX entry, and the launch contract.

The compiler writes signatures into the artifact's JSON (`KernelSpec.to_json`); the runtime reads them back
(`KernelSpec.from_json`). `param_spec` derives a parameter's runtime kind from the Rust type and the simt
types the frontend reports, so the runtime never parses Rust beyond these spellings.

Kinds and their PTX ABI (one entry per PTX parameter):
- `slice`    `&[T]`                 -> (u64 pointer, u64 length); written only if T is an atomic cell
- `slice_mut` `&mut [T]`            -> (u64 pointer, u64 length)
- `disjoint` `DisjointSlice<T, S>`  -> (u64 pointer, u64 length), plus u32 row width for Runtime2DIndex
- `ptr`      `*const T` / `*mut T`  -> u64 pointer
- `scalar`   u32, f32, bool, ...    -> the scalar
- `struct`   a Copy struct/tuple    -> one scalar per field, in order
- `tensor_map` `*const TmaDescriptor` / `&TmaDescriptor` -> the 128-byte tensor map itself, by value
                                     (`.param .align 64 .b8 [128]`, grid-constant); takes an oxide.runtime.TensorMap

A buffer (slice, DisjointSlice, pointer) whose element is a struct, tuple or array records the element's
`layout`: {"size": bytes, "align": bytes, "leaves": [[offset, scalar], ...]} (see oxide.runtime.elements);
a scalar element's layout is empty.

Tile kernels (KernelSpec.tile = {"warps": N}, plus for a kernel on sm_90a's GEMM path "tma": [{"param", "box",
"swizzle"}..], whose tensor maps follow the ABI below, "dynamic_shared" (bytes), "threads" (the block, a
producer warpgroup included; else 32 * N), "persistent" (launched with at most one block per SM) and its
launch-time "variants": [{"entry", "tma", "dynamic_shared", "warps", "threads", "persistent"}..], tried in
order, the last (when there is one) an mma.sync entry needing no maps):
- `tile_out` `&mut Tensor<E, {[S..]}>` -> u64 pointer, r x i64 shape, r x i64 strides (elements); `shape` is
                                         the tile shape S, one output tile per tile block
- `tile_in`  `&Tensor<E, {[d..]}>`     -> the same ABI; `shape` holds the static dims, -1 where dynamic
- `tile_mapped` `MappedPartitionMut<E, {[S..]}, MAP>` -> the same ABI; `shape` is S, `map` is MAP (tiles per
                                         work item, 0 = the whole axis); launched on (blocks, 1, 1)
- `ptr` and `scalar` as above
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from oxide.runtime.scalars import ATOMIC_ELEMENTS, SCALARS

FORMAT_VERSION = 1

_SLICE = re.compile(r"&\s*(mut\s+)?\[\s*(.+?)\s*\]")
_DISJOINT = re.compile(r"DisjointSlice<\s*([^,>]+?)\s*(?:,.*)?>")
_PTR = re.compile(r"\*\s*(const|mut)\s+(.+)")
_SIMT_DISJOINT = re.compile(r'!simt\.disjoint<[^,]+,\s*"([^"]+)"\s*>')
TENSOR_MAP_TYPE = "!simt.tensor_map"
# The one ABI entry of a tensor map: 128 bytes, packed as they are.
TENSOR_MAP_ABI = "tensor_map"
_MLIR_SCALAR = {"f32": "f32", "f64": "f64", "i1": "bool", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64"}
_TILE_VIEW = re.compile(r"!tile\.(view_mut|view)<\s*(\w+)\s*,\s*array<i64(?::\s*([-\d,\s]*))?>\s*>")
_TILE_MAPPED = re.compile(r"!tile\.mapped_mut<\s*(\w+)\s*,\s*array<i64:\s*([\d,\s]*)>\s*,\s*array<i64:\s*([\d,\s]*)>\s*>")
_RUST_TENSOR = re.compile(r"&\s*(?:mut\s+)?Tensor<\s*(\w+)")
# Tensor element types: the Rust name where the signature has it (sign known), else the MLIR one (signless).
TENSOR_ELEMENTS = ("f32", "f64", "f16", "bf16", "bool", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "i1",
                   "f8e4m3fn", "f8e5m2")
# fp8 tensors by their MLIR names: the Rust ones, which the runtime uses (IR written by hand has no Rust type).
_FP8_NAMES = {"f8E4M3FN": "f8e4m3fn", "f8E5M2": "f8e5m2"}


class UnpassableParameter(ValueError):
    """A kernel parameter whose type the runtime has no Python form for; `reason` says which part."""

    def __init__(self, name: str, rust_type: str, reason: str):
        self.reason = reason
        super().__init__(f"parameter `{name}: {rust_type}`: {reason}")


@dataclass
class ParamSpec:
    """One Rust kernel parameter: `kind` (see the module docstring), element or scalar type, mutability."""

    name: str
    rust_type: str
    kind: str
    elem: str = ""  # slice/disjoint/ptr element type, or the scalar type
    mutable: bool = False
    space: str = ""  # DisjointSlice index space: "1d", "2d:S", "runtime_2d", "warp"
    fields: list[str] = field(default_factory=list)  # struct: the scalar type of each flattened field
    signless_fields: bool = False  # struct fields known only by their MLIR type (sign unknown)
    shape: list[int] = field(default_factory=list)  # tile_out: the tile shape; tile_in: static dims, -1 dynamic
    layout: dict[str, Any] = field(default_factory=dict)  # a buffer's struct/array element: size, align, leaves
    map: list[int] = field(default_factory=list)  # tile_mapped: tiles per work item per axis (0 = the whole axis)

    @property
    def is_tensor(self) -> bool:
        """Whether the parameter is a tile kernel's tensor (`tile_out`, `tile_mapped` or `tile_in`)."""
        return self.kind in ("tile_out", "tile_mapped", "tile_in")

    @property
    def is_buffer(self) -> bool:
        """Whether the parameter is memory (a slice, DisjointSlice or raw pointer)."""
        return self.kind in ("slice", "slice_mut", "disjoint", "ptr")

    @property
    def abi(self) -> list[str]:
        """The PTX parameters this parameter becomes."""
        if self.kind in ("slice", "slice_mut"):
            return ["u64", "u64"]
        if self.kind == "disjoint":
            return ["u64", "u64", "u32"] if self.space == "runtime_2d" else ["u64", "u64"]
        if self.kind == "ptr":
            return ["u64"]
        if self.kind == "tensor_map":
            return [TENSOR_MAP_ABI]
        if self.is_tensor:
            return ["u64"] + ["i64"] * (2 * len(self.shape))
        if self.kind == "scalar":
            return [self.elem]
        return list(self.fields)


@dataclass
class KernelSpec:
    """A compiled kernel: Rust `name`, PTX `entry`, parameters, launch contract and launch bounds; `tile` is
    {"warps": N} for a tile kernel, None for a SIMT kernel; `cluster` and `cooperative` say how it launches."""

    name: str
    entry: str
    params: list[ParamSpec]
    contract: dict[str, Any] = field(default_factory=dict)
    launch_bounds: list[int] = field(default_factory=list)
    tile: dict[str, Any] | None = None
    cluster: list[int] = field(default_factory=list)  # #[cluster_launch(x, y, z)]; empty: no clusters
    cooperative: bool = False  # #[cooperative_launch]: the grid-barrier workspace is a hidden last parameter

    def to_json(self) -> dict[str, Any]:
        """The JSON form stored in an artifact."""
        out = asdict(self)
        for p, spec in zip(out["params"], self.params):
            p["abi"] = spec.abi
            if not p["layout"]:
                del p["layout"]  # scalar elements: artifacts stay as they were before layouts existed
            if not p["map"]:
                del p["map"]  # only mapped partitions have one
        for key in ("cluster", "cooperative"):
            if not out[key]:
                del out[key]  # ordinary launches: artifacts stay as they were before clusters existed
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "KernelSpec":
        """Read the JSON form back."""
        params = [ParamSpec(**{k: v for k, v in p.items() if k != "abi"}) for p in data["params"]]
        tile = data.get("tile")
        return cls(data["name"], data["entry"], params, dict(data.get("contract") or {}),
                   list(data.get("launch_bounds") or []), dict(tile) if tile is not None else None,
                   list(data.get("cluster") or []), bool(data.get("cooperative")))


def param_spec(name: str, rust_type: str, mlir_types: list[str], elem_layout: dict[str, Any] | None = None) -> ParamSpec:
    """The runtime's view of one parameter, from its Rust type, the simt/MLIR types it lowers to and, for a
    buffer of structs or arrays, the element's layout."""
    spec = _param_spec(name, rust_type, mlir_types)
    if spec.is_buffer and elem_layout:
        spec.layout = dict(elem_layout)
    return spec


def _param_spec(name: str, rust_type: str, mlir_types: list[str]) -> ParamSpec:
    rust = rust_type.strip()
    if mlir_types and (t := _TILE_VIEW.fullmatch(mlir_types[0].strip())):
        return _tensor_spec(name, rust, t)
    if mlir_types and (t := _TILE_MAPPED.fullmatch(mlir_types[0].strip())):
        elem, dims, per_item = t.groups()
        spec = _tensor_spec(name, rust, _TILE_VIEW.fullmatch(f"!tile.view_mut<{elem}, array<i64: {dims}>>"))
        spec.kind, spec.map = "tile_mapped", [int(m) for m in per_item.split(",")]
        return spec
    if mlir_types == [TENSOR_MAP_TYPE]:
        return ParamSpec(name, rust, "tensor_map")
    if (m := _SLICE.fullmatch(rust)):
        elem = m.group(2)
        mutable = bool(m.group(1)) or ATOMIC_ELEMENTS.get(elem) is not None
        return ParamSpec(name, rust, "slice_mut" if m.group(1) else "slice", _scalar_name(elem), mutable)
    if (m := _DISJOINT.fullmatch(rust)):
        sm = _SIMT_DISJOINT.fullmatch(mlir_types[0]) if mlir_types else None
        return ParamSpec(name, rust, "disjoint", _scalar_name(m.group(1)), True, sm.group(1) if sm else "1d")
    if (m := _PTR.fullmatch(rust)):
        return ParamSpec(name, rust, "ptr", _scalar_name(m.group(2)), m.group(1) == "mut")
    if rust in SCALARS:
        return ParamSpec(name, rust, "scalar", rust)
    if rust.startswith("Uniform<") and rust.endswith(">") and rust[8:-1].strip() in SCALARS:
        return ParamSpec(name, rust, "scalar", rust[8:-1].strip())
    fields = []
    for t in mlir_types:
        if t not in _MLIR_SCALAR:
            raise UnpassableParameter(name, rust, f"the runtime has no {t} values")
        fields.append(_MLIR_SCALAR[t])
    return ParamSpec(name, rust, "struct", fields=fields, signless_fields=True)


def _tensor_spec(name: str, rust: str, view: re.Match[str]) -> ParamSpec:
    """A tile kernel's tensor parameter from its `!tile.view[_mut]<E, array<i64: ...>>` type."""
    kind, elem, dims = view.groups()
    shape = [int(d) for d in (dims or "").split(",") if d.strip()]
    rust_elem = _RUST_TENSOR.match(rust)
    if rust_elem and rust_elem.group(1) in TENSOR_ELEMENTS:
        elem = rust_elem.group(1)
    elem = _FP8_NAMES.get(elem, elem)
    if elem not in TENSOR_ELEMENTS:
        raise UnpassableParameter(name, rust, f"the runtime has no tensors of {elem}")
    mutable = kind == "view_mut"
    return ParamSpec(name, rust, "tile_out" if mutable else "tile_in", elem, mutable, shape=shape)


def _scalar_name(elem: str) -> str:
    elem = elem.strip()
    return ATOMIC_ELEMENTS.get(elem, elem)
