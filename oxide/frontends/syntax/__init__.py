"""The frontends' syntax floor: what both Rust frontends read from a tree-sitter tree the same way, with no
MLIR. Each module owns one concern (attributes: which outer attributes belong to which item)."""
