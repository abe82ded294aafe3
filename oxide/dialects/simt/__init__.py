"""The simt dialect: the IR of one GPU thread (the SIMT track, cuda-oxide's device API).

Everything cuda-oxide's device API offers, as ops that verify what they can and lower to NVVM/PTX
(`convert-simt-to-nvvm`, or the named pipeline `simt-to-ptx`). Kernels are upstream `gpu.func ... kernel` ops in
a `gpu.module` whose parameters may have simt types. Ops print in generic form (`"simt.load"(%s, %i) : (...) ->
f32`), because IRDL ops on MLIR 22 have no custom syntax.

One module per op family; importing this package declares them all. It must stay importable as
`oxide.dialects.simt`: the MLIR bindings import it to find the OpView classes of `simt.*` ops.
"""

from oxide.dialects.simt import atomics, debug, indexing, kernel, math, memory, shared, sync, types, warp  # noqa: F401  (declaration on import)
from oxide.dialects.simt import address, cluster, constant, cp_async, inline_ptx, masked, mbarrier, tma, wgmma  # noqa: F401  (declaration on import)
from oxide.dialects.simt.address import *  # noqa: F401,F403
from oxide.dialects.simt.atomics import *  # noqa: F401,F403
from oxide.dialects.simt.cluster import *  # noqa: F401,F403
from oxide.dialects.simt.constant import *  # noqa: F401,F403
from oxide.dialects.simt.cp_async import *  # noqa: F401,F403
from oxide.dialects.simt.debug import *  # noqa: F401,F403
from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.indexing import *  # noqa: F401,F403
from oxide.dialects.simt.inline_ptx import *  # noqa: F401,F403
from oxide.dialects.simt.masked import *  # noqa: F401,F403
from oxide.dialects.simt.math import *  # noqa: F401,F403
from oxide.dialects.simt.mbarrier import *  # noqa: F401,F403
from oxide.dialects.simt.memory import *  # noqa: F401,F403
from oxide.dialects.simt.shared import *  # noqa: F401,F403
from oxide.dialects.simt.sync import *  # noqa: F401,F403
from oxide.dialects.simt.tma import *  # noqa: F401,F403
from oxide.dialects.simt.types import *  # noqa: F401,F403
from oxide.dialects.simt.warp import *  # noqa: F401,F403
from oxide.dialects.simt.wgmma import *  # noqa: F401,F403

__all__ = ["DIALECT"] + [op.__name__ for op in DIALECT.ops] + [t.__name__ for t in DIALECT.types + DIALECT.attributes]
