"""The tile frontend: cutile-rs kernel source (`#[cutile::module]`, `#[cutile::entry]`) -> the tile dialect.

It reuses the Rust frontend's parser, AST builder and diagnostics; compile.py is the entry point.
"""

from oxide.frontends.tile.compile import compile_tile
from oxide.frontends.tile.module import is_tile_source

__all__ = ["compile_tile", "is_tile_source"]
