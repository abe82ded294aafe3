"""The SIMT-track frontend: cuda-oxide kernels (Rust syntax, read by frontends/syntax) in, simt IR out.

    types.py       semantic types (i32, &[T], DisjointSlice<T, S>, structs, ...) and their MLIR form
    items.py       the crate: kernels, device functions, structs, impls, consts; generics and entry names
    emit.py        AST -> simt + scf/arith/math inside a gpu.module, structured control flow only
    calls/         device calls: cuda_device paths, core functions and methods, each a registered handler
    compile.py     the driver: compile_rust
"""
