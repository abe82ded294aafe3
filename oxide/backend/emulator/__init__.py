"""The emulator's compile side: simt-level IR to the Python source of an emulator program
(oxide.runtime.emulator runs it on numpy). `oxide.ir.rules.LoweringError` (an OxideError) is raised, located
at the op, for IR the emulator cannot execute."""

from oxide.backend.emulator.program import emit_program

__all__ = ["emit_program"]
