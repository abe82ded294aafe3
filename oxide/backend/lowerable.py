"""What the LLVM translation and the NVPTX backend can take: checked before the upstream pipeline runs.

Upstream's translation to LLVM IR asserts (the wheel has LLVM assertions on) instead of reporting an
error on some IR that its verifiers accept: a GEP or alloca of a type LLVM has no form for, `i0`, an
address space over 24 bits, a constant GEP index over 29 bits, a global initialized with an f8 value,
an oxide op outside any function. Each rule below finds one of these and says what to write instead, at
the op; `_serialize` runs them all before lowering. What no rule covers stays with the containment in
oxide.ir.isolation.
"""

from __future__ import annotations

import re
from typing import Callable, Iterator, Mapping

from mlir import ir
from mlir.dialects import func as func_d
from mlir.dialects import gpu, llvm

from oxide.dialects.simt.types import DisjointType, PtrType, RefType, SharedType, SliceMutType, SliceType
from oxide.ir.declare import DIALECTS, attribute_text
from oxide.diagnostics import Diagnostic, OxideError
from oxide.ir.diagnostics import source_loc
from oxide.ir.rules import OpMap, OpSet, is_op
from oxide.ir.walk import walk

# LLVM's IntegerType holds at most 2**23 bits; MLIR's allows more.
_LLVM_MAX_INT_BITS = 1 << 23
_LLVM_FLOATS = frozenset({"bf16", "f16", "f32", "f64", "f80", "f128"})
# NVPTX's address spaces: generic, global, shared, const, local, tensor memory, shared::cluster, param.
_NVPTX_ADDRESS_SPACES = frozenset({0, 1, 3, 4, 5, 6, 7, 101})
# The GEP translation keeps constant indices in 29 signed bits; MLIR marks dynamic ones with INT32_MIN.
_GEP_CONSTANT_BITS = 29
_GEP_DYNAMIC_INDEX = -(2**31)
_FUNCTIONS = OpSet(gpu.GPUFuncOp, func_d.FuncOp, llvm.LLVMFuncOp)
_ELEMENT_TYPE_ATTRIBUTES = OpMap({llvm.GEPOp: "elem_type", llvm.AllocaOp: "elem_type",
                                  llvm.GlobalOp: "global_type"})
_LLVM_ARRAY = re.compile(r"^!llvm\.array<\d+ x (.*)>$", re.DOTALL)
_POINTER = re.compile(r"\bptr<(\d+)>")
# Element types no simt type may hold (the simt lowering passes elements through to LLVM unchanged).
_NO_LLVM_ELEMENT = re.compile(r"(?<![\w.])(tensor<|memref<|complex<|none\b|index\b|tf32\b|f8E\w*|@[\w$.]+)")
# An integer type nested anywhere in a type's or attribute's text (`!simt.shared<i0, 8>`, `vector<4xi0>`,
# `(i32) -> i0`): the shape prefix of a shaped type is cut first so that `4xi0` reads as `i0`.
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')
_SHAPE_PREFIX = re.compile(r"(?<![\w.$])(?:(?:\d+|\?|\[\d+\])x)+")
_INTEGER_TYPE = re.compile(r"(?<![\w.$!#@%^])[su]?i(\d+)(?![\w.$])")

Problem = tuple[ir.Location, str]
# The simt types whose first parameter is an element type.
_ELEMENT_TYPES = (SliceType, SliceMutType, DisjointType, SharedType, PtrType, RefType)


def _llvm_type_problem(t: ir.Type) -> str | None:
    """Why LLVM's translation has no form for `t` (None when it has one)."""
    if isinstance(t, ir.IntegerType):
        if not t.is_signless:
            return f"'{t}' is signed or unsigned; LLVM integers are signless (write i{t.width})"
        return _integer_width_problem(t)
    if str(t) in _LLVM_FLOATS:
        return None
    if isinstance(t, ir.VectorType):
        if t.rank != 1 or t.scalable:
            return f"'{t}' is not a fixed one-dimensional vector, the only vectors NVPTX has"
        return _llvm_type_problem(t.element_type)
    if isinstance(t, llvm.PointerType):
        return _address_space_problem(t.address_space)
    if isinstance(t, llvm.StructType):
        return next((p for p in map(_llvm_type_problem, [] if t.opaque else t.body) if p), None)
    array = _LLVM_ARRAY.match(str(t))
    if array:
        return _llvm_type_problem(_parse_nested(array.group(1), t.context))
    if str(t).startswith("!llvm."):
        return None
    return f"LLVM has no type for '{t}'; use an integer, float, vector or !llvm type"


def _parse_nested(text: str, context: ir.Context) -> ir.Type:
    """A type nested in an LLVM type, which prints LLVM types without the `!llvm.` prefix."""
    try:
        return ir.Type.parse(text, context)
    except ir.MLIRError:
        return ir.Type.parse(f"!llvm.{text}", context)


def _integer_width_problem(t: ir.IntegerType) -> str | None:
    if 1 <= t.width <= _LLVM_MAX_INT_BITS:
        return None
    return f"'{t}' has no LLVM form: LLVM integers have 1 to {_LLVM_MAX_INT_BITS} bits"


def _address_space_problem(space: int) -> str | None:
    if space in _NVPTX_ADDRESS_SPACES:
        return None
    known = ", ".join(map(str, sorted(_NVPTX_ADDRESS_SPACES)))
    return (f"address space {space} does not exist on NVPTX (it has {known}: generic, global, shared, const, "
            "local, tensor, shared::cluster, param)")


def _value_types(op: ir.Operation) -> Iterator[tuple[ir.Location, ir.Type]]:
    """The types of an op's results and of its regions' block arguments, each with a location for it."""
    for result in op.results:
        yield op.location, result.type
    for region in op.regions:
        for block in region.blocks:
            for argument in block.arguments:
                yield argument.location, argument.type


def element_types(op: ir.Operation) -> Iterator[Problem]:
    """The element type of a GEP, alloca or global: an attribute no type converter rewrites, so it must
    already be a type LLVM has (a memref, tf32, f8, index or i0 element aborts the translation)."""
    attribute = _ELEMENT_TYPE_ATTRIBUTES.get(op)
    if attribute is None or attribute not in op.attributes:
        return
    problem = _llvm_type_problem(ir.TypeAttr(op.attributes[attribute]).value)
    if problem:
        yield op.location, f"'{op.name}' op element type: {problem}"


def _nested_width_problem(text: str) -> str | None:
    """Why an integer type named anywhere in `text` has no LLVM form (None when every one has)."""
    for match in _INTEGER_TYPE.finditer(_SHAPE_PREFIX.sub("", _QUOTED.sub("", text))):
        if not 1 <= int(match.group(1)) <= _LLVM_MAX_INT_BITS:
            return f"'{match.group(0)}' has no LLVM form: LLVM integers have 1 to {_LLVM_MAX_INT_BITS} bits"
    return None


def _types_then_attributes(op: ir.Operation, problems_in: Callable[[str], Iterator[str]],
                           skip_attribute: str | None = None) -> Iterator[tuple[ir.Location, ir.Type | str, str]]:
    """(location, the type or the attribute's name, problem) for each problem `problems_in` finds in the text
    of a value's type, or, when no value's type has one, of an attribute: a function's type or a constant's
    value repeats its values' types, and one mistake is one error."""
    found = False
    for location, t in _value_types(op):
        for problem in problems_in(str(t)):
            found = True
            yield location, t, problem
    if found:
        return
    for name in op.attributes:
        if name != skip_attribute:
            for problem in problems_in(attribute_text(lambda: op.attributes[name])):
                yield op.location, name, problem


def _width_problems(text: str) -> Iterator[str]:
    problem = _nested_width_problem(text)
    if problem:
        yield problem


def integer_widths(op: ir.Operation) -> Iterator[Problem]:
    """An i0, or an integer wider than LLVM's 2**23 bits, in a value's type (also nested: a shared array's,
    vector's or function's element) or in an attribute (a declared function's type): no conversion
    removes it, and the translation aborts on it. (element_types reads the element type attribute.)"""
    for location, where, problem in _types_then_attributes(op, _width_problems, _ELEMENT_TYPE_ATTRIBUTES.get(op)):
        if isinstance(where, str):
            yield location, f"'{op.name}' op attribute '{where}': {problem}"
        elif isinstance(where, ir.IntegerType):
            yield location, f"'{op.name}' op {problem}"
        else:
            yield location, f"'{op.name}' op type '{where}': {problem}"


def _address_space_problems(text: str) -> Iterator[str]:
    for space in sorted({int(s) for s in _POINTER.findall(_QUOTED.sub("", text))}):
        problem = _address_space_problem(space)
        if problem:
            yield problem


def pointer_address_spaces(op: ir.Operation) -> Iterator[Problem]:
    """A pointer (anywhere in a value's type, or in an attribute: a declared function's type) into an
    address space NVPTX does not have; one over LLVM's 24 bits aborts the translation."""
    for location, where, problem in _types_then_attributes(op, _address_space_problems):
        what = f"attribute '{where}'" if isinstance(where, str) else f"type '{where}'"
        yield location, f"'{op.name}' op {what}: {problem}"


def gep_constant_indices(op: ir.Operation) -> Iterator[Problem]:
    """A constant GEP index outside 29 signed bits, which the translation cannot hold."""
    if not is_op(op, llvm.GEPOp) or "rawConstantIndices" not in op.attributes:
        return
    limit = 1 << (_GEP_CONSTANT_BITS - 1)
    for index in ir.DenseI32ArrayAttr(op.attributes["rawConstantIndices"]):
        if index != _GEP_DYNAMIC_INDEX and not -limit <= index < limit:
            yield op.location, (f"'{op.name}' op constant index {index} is outside [{-limit}, {limit}); "
                                "pass a large offset as an i64 value operand")


def global_initializers(op: ir.Operation) -> Iterator[Problem]:
    """A global's initial value of a type LLVM has no form for (an f8 constant)."""
    if not is_op(op, llvm.GlobalOp) or "value" not in op.attributes:
        return
    value = op.attributes["value"]
    t = ir.FloatAttr(value).type if isinstance(value, ir.FloatAttr) else \
        ir.IntegerAttr(value).type if isinstance(value, ir.IntegerAttr) else \
        ir.ShapedType(ir.DenseElementsAttr(value).type).element_type if isinstance(value, ir.DenseElementsAttr) \
        else None
    if t is not None and _llvm_type_problem(t):
        global_type = ir.TypeAttr(op.attributes["global_type"]).value
        yield op.location, (f"'{op.name}' op initial value '{value}': LLVM has no type for '{t}'; write the "
                            f"value as {global_type}")


def ops_outside_functions(op: ir.Operation) -> Iterator[Problem]:
    """An oxide op not inside a function: only function bodies are lowered, and the op left behind breaks
    the translation."""
    if op.name.split(".", 1)[0] not in DIALECTS:
        return
    parent = op.parent
    while parent is not None and parent not in _FUNCTIONS:
        parent = parent.parent
    if parent is None:
        yield op.location, f"'{op.name}' op is outside any function; move it into a gpu.func body"


def nested_gpu_modules(op: ir.Operation) -> Iterator[Problem]:
    """A gpu.module inside another one: the lowering and the serialisation take the gpu.modules of the top
    level, so a nested one's kernels would be left half lowered."""
    if is_op(op, gpu.GPUModuleOp) and op.parent is not None and is_op(op.parent, gpu.GPUModuleOp):
        yield op.location, (f"'{op.name}' op is inside another {op.name}; put every {op.name} at the top level "
                            "of the input")


def simt_type_elements(op: ir.Operation) -> Iterator[Problem]:
    """A simt type (shared array, slice, pointer, ...) whose element is no type at all (a number, a symbol)
    or a type with no LLVM form (a tensor, memref, complex, index, tf32 or f8 element): the simt lowering maps
    the element to LLVM as it is, and the translation aborts on it (or the lowering cannot read it back)."""
    for location, t in _value_types(op):
        text = str(t)
        if not text.startswith("!simt."):
            continue
        element = _element_of(text)
        if element is not None and not isinstance(element, ir.Type):
            yield location, (f"'{op.name}' op type '{text}': its element '{element}' is not a type; use an "
                             "integer, float, vector or struct element")
            continue
        found = _NO_LLVM_ELEMENT.search(_QUOTED.sub("", text))
        if found:
            spelled = found.group(0) + "...>" if found.group(0).endswith("<") else found.group(0)
            yield location, (f"'{op.name}' op type '{text}': its element '{spelled}' has no LLVM form; use an "
                             "integer, float, vector or struct element")


def _element_of(text: str) -> ir.Type | ir.Attribute | None:
    """The element parameter of a simt type that has one (slices, shared arrays, pointers, references)."""
    for cls in _ELEMENT_TYPES:
        if text.startswith(cls.mnemonic_ref() + "<"):
            return cls.parameters_of(text)[0]
    return None


RULES: tuple[Callable[[ir.Operation], Iterator[Problem]], ...] = (
    element_types, integer_widths, pointer_address_spaces, gep_constant_indices, global_initializers,
    ops_outside_functions, nested_gpu_modules, simt_type_elements)


def check_lowerable(module: ir.Operation, rename: Mapping[str, str] | None = None) -> None:
    """Raise OxideError with a located error for each op under `module` that the lowering cannot take."""
    problems: list[Problem] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        for rule in RULES:
            problems.extend(rule(op))
        return ir.WalkResult.ADVANCE

    walk(module, visit, ir.WalkOrder.PRE_ORDER)
    if problems:
        raise OxideError([Diagnostic("error", message, source_loc(location, rename)) for location, message in problems])
