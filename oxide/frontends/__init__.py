"""oxide.frontends: Rust-syntax frontends (syntax/ shared by all: tree-sitter adapter, AST, macros; simt/ for SIMT kernels, tile/ for tile kernels) emitting oxide IR.

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
