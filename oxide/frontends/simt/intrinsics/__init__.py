"""Device API and primitive-method extensions, one module per concern (see registry.py for how they hook
into device_api.py)."""

from oxide.frontends.simt.intrinsics import (  # noqa: F401  (register on import)
    chars, cluster, constant_memory, conversions, cooperative, core_atomics, core_fns, cusimd,
    int_methods, libm, managed_barrier, matrix_views, maybe_uninit, ordering, ptr_methods, ptx_fns, vectors,
    warp_partial,
)
from oxide.frontends.simt.intrinsics.registry import call_method, call_path

__all__ = ["call_method", "call_path"]
