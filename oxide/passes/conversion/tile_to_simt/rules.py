"""The tile -> simt rule set: one function per source op, registered with `@lowering(OpClass)` (a tile op class,
or an upstream OpView class such as `scf.ForOp`).

A rule is `rule(ctx: TileLowering, op) -> results`, called with the insertion point where the lowered code
goes and the op's location active. It reads its operands through `ctx.tile(v)` (a TileValue), `ctx.scalar(v)`
(an ir.Value) or `ctx.lowered(v)` (views and partitions), and returns the lowered results: one entry per
result of the op (a TileValue, an ir.Value or a view/partition), a single entry for a one-result op, or None
for an op without results. Ops with regions (scf) get the op itself and emit their regions through
`driver.emit_block(ctx, block)`. An op with no rule is a located error, never skipped (driver.py re-creates
only scalar ops that touch no tile types).
"""

from oxide.ir.rules import RuleSet

TILE_TO_SIMT = RuleSet("convert-tile-to-simt", "'{op}' has no lowering from the tile dialect")
lowering = TILE_TO_SIMT.lowering
