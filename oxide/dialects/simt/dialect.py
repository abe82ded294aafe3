"""The simt Dialect object, which types and ops are declared into."""

from oxide.ir.declare import Dialect

DIALECT = Dialect(
    "simt",
    "One GPU thread's view: thread indices and their witnesses, slices and disjoint slices, device calls.",
)
