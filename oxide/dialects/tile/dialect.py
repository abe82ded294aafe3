"""The tile Dialect object, which types and ops are declared into."""

from oxide.ir.declare import Dialect

DIALECT = Dialect(
    "tile",
    "One tile block's view: tensor views and partitions in global memory, immutable statically shaped tiles.",
)

# A unit attribute on an upstream `math.exp2` of tile values: the source asked for `ftz::Enabled`, so subnormal
# inputs and results may flush to zero. The tile lowering makes an f32 one `ex2.approx.ftz.f32` (one MUFU
# instruction, where libdevice's `exp2f` adds a rescaling of subnormal results around it).
FTZ_ATTR = "tile.ftz"
