"""Which outputs a tile kernel writes whole: the artifact records, per tile kernel, the output parameters whose
tile every block stores (`tile["stores_whole"]`, their indices among the kernel's parameters). A `tile.store_own`
in the kernel's entry block, outside any branch or loop, runs in every block, and every block owns one tile of
the output, so each element of the output is written by the launch. The runtime then need not fill a staged
copy of such an output before the launch (runtime/staging.py): what the copy back writes, the kernel wrote."""

from __future__ import annotations

from typing import Any

from oxide.dialects import tile as T
from oxide.dialects.tile.kernel import tile_kernels
from oxide.ir.rules import is_op


def tile_kernel_whole_stores(module: Any) -> dict[str, list[int]]:
    """{kernel name: the parameter indices of the outputs its entry block stores} for each tile kernel of the
    module (a gpu.func marked `tile.warps`) before lowering."""
    found = {}
    for func in tile_kernels(module):
        entry = func.regions[0].blocks[0]
        params = list(entry.arguments)
        stored = {params.index(o.operands[0]) for o in entry.operations
                  if is_op(o, T.StoreOwnOp) and o.operands[0] in params}
        found[func.attributes["sym_name"].value] = sorted(stored)
    return found
