"""Device calls of the SIMT frontend: cuda_device's API, `core` functions and Rust's primitive methods, one
module per concern; importing the package registers every handler (see registry.py). entry.py is the
emitter's way in and says in which order a call's name is resolved."""

from oxide.frontends.simt.calls import (  # noqa: F401  (register on import)
    arrays, atomics, chars, cluster, constant_memory, conversions, cooperative, core_atomics, core_calls, core_fns,
    cusimd, disjoint_views, float_methods, int_core, int_methods, libm, local_pointer_methods, managed_barrier,
    matrix_views, maybe_uninit, memory, options, ordering, ptr_methods, ptx_fns, references, slice_splits, slices,
    sync, threads, tile_views, vectors, warp, warp_partial, wgmma,
)
