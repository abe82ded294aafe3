"""Device calls of the SIMT frontend: cuda_device's API, `core` functions and Rust's primitive methods, one
module per concern; importing the package registers every handler (see registry.py)."""

from oxide.frontends.simt.calls import (  # noqa: F401  (register on import)
    chars, cluster, constant_memory, conversions, cooperative, core_atomics, core_calls, core_fns, cusimd,
    int_methods, libm, managed_barrier, matrix_views, maybe_uninit, ordering, ptr_methods, ptx_fns, vectors,
    warp_partial,
)
