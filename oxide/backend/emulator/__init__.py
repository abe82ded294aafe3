"""The emulator's compile side: simt-level IR to the Python source of an emulator program
(oxide.runtime.emulator runs it on numpy)."""

from oxide.backend.emulator.program import emit_program

__all__ = ["emit_program"]
