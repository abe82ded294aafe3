"""Expression emission of the SIMT frontend, one module per concern.

Handlers (registered in table.py by AST class): literals (literals, paths), operators (binary, unary),
casts, access (index and field reads), assignment, branches (blocks, `if`, `if let`), patterns (`match`),
aggregates (tuple, array and struct literals), closures, ranges. Helpers below them: inference (literal
typing), indexing (indices and `let mut` local places), numeric (`as` conversions), placeholders (values
never read), branch_values (the value of an `if`/`match`).
"""
