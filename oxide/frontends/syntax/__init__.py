"""The frontends' syntax floor: what every Rust-syntax frontend reads from source the same way, with no MLIR.

    parser.py       tree-sitter-rust adapter: source -> concrete syntax tree, syntax errors located
    ast.py          the typed AST of the supported subset (dataclasses with spans)
    build.py        concrete syntax tree -> AST; unsupported constructs are located errors
    literals.py     integer, float, char and string literals by rustc's rules
    macro_rules.py  `macro_rules!` definitions and their expansion
    attributes.py   which outer attributes belong to which item
"""
