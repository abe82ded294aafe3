"""The tile Dialect object, which types and ops are declared into."""

from oxide.ir.declare import Dialect

DIALECT = Dialect(
    "tile",
    "One tile block's view: tensor views and partitions in global memory, immutable statically shaped tiles.",
)
