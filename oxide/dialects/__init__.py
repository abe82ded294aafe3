"""oxide's dialects: declarations only (types, attributes, ops, verifiers). Lowerings live in oxide.passes."""
