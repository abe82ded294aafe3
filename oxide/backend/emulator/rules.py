"""The emulator's rule sets: one function per op class, which writes the Python that executes the op -- on
lane vectors in a SIMT kernel (`rule`, SIMT_RULES), on whole tiles in a tile kernel (`tile_rule`,
TILE_RULES). A rule is `rule(em, op)` with the kernel's emitter (emitter.py, tile_emitter.py) and the
ir.Operation. An op with no rule is a located error, never skipped."""

from oxide.ir.rules import RuleSet

_MISSING = "the emulator cannot execute `{op}` (no emulator rule for it)"
SIMT_RULES = RuleSet("the emulator's SIMT rules", _MISSING)
TILE_RULES = RuleSet("the emulator's tile rules", _MISSING)
rule = SIMT_RULES.lowering
tile_rule = TILE_RULES.lowering
