"""The Rust-syntax frontend of the SIMT track: cuda-oxide kernels in, simt IR out.

    parser.py    tree-sitter-rust adapter: source -> concrete syntax tree, syntax errors located
    ast.py       the typed AST of the supported subset (dataclasses with spans)
    build.py     concrete syntax tree -> AST; unsupported constructs are located errors
    types.py     semantic types (i32, &[T], DisjointSlice<T, S>, structs, ...) and their MLIR form
    items.py     the crate: kernels, device functions, structs, impls, consts; generics and entry names
    check.py     names and types of expressions, with integer-literal inference
    emit.py      AST -> simt + scf/arith/math/memref inside a gpu.module, structured control flow only
    device_api.py  cuda_device paths and methods (thread::, warp::, atomics, math) -> ops
    compile.py   the driver: compile_source / compile_file
"""
