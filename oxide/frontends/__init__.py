"""oxide.frontends: the frontends emitting oxide IR, on shared floors: syntax/ (tree-sitter adapter, AST,
items, macros; no MLIR), kernel_module.py (the kernel module and the driver), structured.py (loops and
jumps); simt/ for SIMT kernels and tile/ for tile kernels stand on them and import nothing of each other.

`compile_source` picks the frontend from the source itself: a `#[cutile::module]` is tile kernels (the Tile
track), anything else SIMT kernels (the cuda-oxide track)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from oxide.frontends.kernel_module import FrontendResult


def compile_source(text: str, name: str, context: Any,
                   instances: dict[str, list[list[str]]] | None = None) -> "FrontendResult":
    """Rust kernel source -> tile IR (cutile-rs modules) or simt IR (cuda-oxide kernels), in `context`."""
    from oxide.frontends.tile.compile import compile_tile, is_tile_source

    if is_tile_source(text):
        return compile_tile(text, name, context, instances)
    from oxide.frontends.simt.compile import compile_rust

    return compile_rust(text, name, context, instances)
