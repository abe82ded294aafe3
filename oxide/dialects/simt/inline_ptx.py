"""simt inline PTX: PTX instructions spelled out, for device functions that are one PTX instruction (or a
few) with no upstream op (`dp4a`, `cp.async`, `ldmatrix`, mbarriers, packed half arithmetic, `brkpt`) and for
cuda-oxide's `ptx_asm!`.

The operands bind to the template's `$0, $1, ...` through LLVM inline-asm constraints: outputs first
(`=r` i32, `=l` i64, `=h` i16, `=f` f32, `=d` f64), then inputs (`r`, `l`, `h`, `f`, `d`, `n` immediates),
then clobbers (`~{memory}`). The op always has side effects (it is never moved or removed), since PTX
templates here read and write memory and synchronise.
"""

from __future__ import annotations

import functools
import re

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.types import PtrType
from oxide.ir.constraints import STRING_ATTR, AnyType
from oxide.ir.declare import Attr, Op, OptOperand, OptResult, VerifyError
from oxide.ir.spelling import spelling

# IRDL binds one type to a constraint across a whole variadic group, so a variadic group could only hold
# values of one type; the inputs and outputs are instead up to MAX_OPERANDS optional operands and results,
# each with its own constraint, and verify_ checks each one (a scalar register, or a simt pointer input).
MAX_OPERANDS = 8
_REGISTER_TYPES = ("i1", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64")
_RESULT_TYPES = ("i16", "i32", "i64", "f32", "f64")
# The NVPTX register classes a constraint may name (b pred, c/h/r/l/q 8..128-bit, f/d float), `n` an
# immediate, a number an input tied to that output; the backend rejects or mis-assembles anything else.
_OUTPUT_CONSTRAINT = re.compile(r"=&?[bchrlqfd]")
_INPUT_CONSTRAINT = re.compile(r"[bchrlqfdn]|\d+")
_CLOBBER = re.compile(r"~\{[^{}]*\}")
_PLACEHOLDER = re.compile(r"\$(\d+)")


def split_constraints(text: str) -> tuple[list[str], list[str], list[str]]:
    """(outputs, inputs, clobbers) of an LLVM inline-asm constraint string."""
    parts = [p for p in text.split(",") if p]
    outputs = [p for p in parts if p.startswith("=")]
    clobbers = [p for p in parts if p.startswith("~")]
    inputs = [p for p in parts if not p.startswith(("=", "~"))]
    return outputs, inputs, clobbers


@DIALECT.op
class InlinePtxOp(Op):
    """PTX text with `$i` operand placeholders; results are the `=` constraints' registers, in order."""

    mnemonic = "inline_ptx"
    a0, a1, a2, a3, a4, a5, a6, a7 = (OptOperand(AnyType(), f"input operand {i}, in constraint order")
                                      for i in range(MAX_OPERANDS))
    asm = Attr(STRING_ATTR, "the PTX template")
    constraints = Attr(STRING_ATTR, "LLVM inline-asm constraints: outputs, inputs, clobbers")
    r0, r1, r2, r3, r4, r5, r6, r7 = (OptResult(AnyType(), f"output register {i}: i16, i32, i64, f32 or f64")
                                      for i in range(MAX_OPERANDS))

    @property
    def args(self) -> list:
        """The input operands, in order."""
        return [v for v in self.operand_groups() if v is not None]

    @property
    def results_(self) -> list:
        """The output registers, in order."""
        return list(self.operation.results)

    def verify_(self) -> None:
        constraints, asm = self.constraints, self.asm
        outputs, inputs, _ = _split_once(constraints)
        args, results = self.args, self.results_
        if len(outputs) != len(results):
            raise VerifyError(f"{len(outputs)} output constraint(s) for {len(results)} result(s)")
        if len(inputs) != len(args):
            raise VerifyError(f"{len(inputs)} input constraint(s) for {len(args)} operand(s)")
        for value in args:
            if spelling(value.type) not in _REGISTER_TYPES and not PtrType.isinstance(value.type):
                raise VerifyError(f"an inline PTX operand is a scalar register or a simt pointer, not {value.type}")
        for value in results:
            if spelling(value.type) not in _RESULT_TYPES:
                raise VerifyError(f"an inline PTX result is i16, i32, i64, f32 or f64, not {value.type}")
        problem = _text_problem(asm, constraints, len(outputs) + len(inputs))
        if problem is not None:
            raise VerifyError(problem)


# A kernel holds hundreds of inline PTX ops with a handful of distinct templates (ldmatrix at a few offsets):
# the checks of the text are made once per text.
@functools.lru_cache(maxsize=1024)
def _split_once(constraints: str) -> tuple[list[str], list[str], list[str]]:
    return split_constraints(constraints)


@functools.lru_cache(maxsize=1024)
def _text_problem(asm: str, constraints: str, operands: int) -> str | None:
    """Why the template or the constraints are invalid, or None."""
    if not asm.strip():
        return "empty PTX template"
    return _constraint_syntax_problem(constraints) or _template_problem(asm, operands)


def _constraint_syntax_problem(text: str) -> str | None:
    for part in (p for p in text.split(",") if p):
        pattern = _OUTPUT_CONSTRAINT if part.startswith("=") else _CLOBBER if part.startswith("~") else _INPUT_CONSTRAINT
        if not pattern.fullmatch(part):
            return (f"invalid inline PTX constraint '{part}': outputs are '=r', '=l', '=h', '=f', '=d' "
                    "(or '=b', '=c', '=q'), inputs the same letters without '=' or 'n', clobbers '~{...}'")
    return None


def _template_problem(asm: str, operands: int) -> str | None:
    """ptxas accepts only ASCII, and every `$i` must name an operand."""
    for column, char in enumerate(asm, 1):
        if not char.isascii():
            return (f"the PTX template has the non-ASCII character {char!r} (U+{ord(char):04X}) at "
                    f"character {column}; PTX source is ASCII only")
    for match in _PLACEHOLDER.finditer(asm):
        if int(match.group(1)) >= operands:
            return (f"the PTX template uses ${match.group(1)} but the op has {operands} operand(s) "
                    f"(outputs then inputs, $0..${operands - 1})" if operands else
                    f"the PTX template uses ${match.group(1)} but the op has no operands")
    return None


def build_inline_ptx(operands: list, asm: str, constraints: str, results: list) -> tuple:
    """Build a simt.inline_ptx at the insertion point; return its results (a tuple, possibly empty)."""
    if len(operands) > MAX_OPERANDS:
        raise ValueError(f"inline PTX takes at most {MAX_OPERANDS} operands, got {len(operands)}")
    if len(results) > MAX_OPERANDS:
        raise ValueError(f"inline PTX has at most {MAX_OPERANDS} outputs, got {len(results)}")
    padded = list(operands) + [None] * (MAX_OPERANDS - len(operands))
    outputs = list(results) + [None] * (MAX_OPERANDS - len(results))
    op = InlinePtxOp(*padded, asm=asm, constraints=constraints, results=outputs)
    return tuple(op.operation.results)
