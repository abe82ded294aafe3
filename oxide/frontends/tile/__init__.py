"""The tile frontend: cutile-rs kernel source (`#[cutile::module]`, `#[cutile::entry]`) -> the tile dialect.

It stands on the frontends' floors (syntax/ for the parser, AST and items; kernel_module.py for the kernel
module and its driver; structured.py for loops and jumps) and imports nothing of simt/; compile.py is the
entry point.
"""

from oxide.frontends.tile.compile import compile_tile
from oxide.frontends.tile.module import is_tile_source

__all__ = ["compile_tile", "is_tile_source"]
