"""Declare dialects, types, attributes and ops as Python classes (in the spirit of pliron and xDSL).

    simt = Dialect("simt", "One GPU thread's view.")

    @simt.type
    class SliceType(TypeDef):
        '''A read-only slice `&[T]`.'''
        mnemonic = "slice"
        elem = Param(AnyType())

    @simt.op
    class LenOp(Op):
        '''The number of elements of a slice.'''
        mnemonic = "len"
        slice = Operand(BaseOf(SliceType))
        result = Result(INDEX)

The decorator is the registration: it generates the IRDL (oxide.ir.irdl_gen), registers the class as the
OpView of `simt.len` so `op.opview` is a LenOp with named accessors, and makes `LenOp(...)` a builder
that infers result types and `LenOp.build(...)` one that returns the result value.
"""

from __future__ import annotations

import sys
import types
from typing import Any, Callable, ClassVar, Sequence

from mlir import ir
from mlir._mlir_libs import _mlir as _cext

from oxide.ir.constraints import Constraint, TypeVar
from oxide.ir.spelling import parsed, remembered, spelling
from oxide.diagnostics import OxideError

# The bindings find an OpView class for `ns.op` only after importing the module `<prefix>.ns`.
OPVIEW_MODULE_PREFIX = "oxide.dialects"
_cext.globals.append_dialect_search_prefix(OPVIEW_MODULE_PREFIX)

# OpView members a field name must not shadow.
_RESERVED_FIELD_NAMES = frozenset(
    {"operation", "operands", "results", "attributes", "regions", "successors", "location", "context",
     "name", "parent", "opview", "verify", "build", "mnemonic", "operand_groups"}
)

DIALECTS: dict[str, "Dialect"] = {}


class DeclarationError(Exception):
    """A dialect declaration is malformed: a bug in oxide (or in a user's dialect), caught at import."""


class VerifyError(OxideError):
    """Raised by an op's `verify_()` to reject it; the oxide-verify pass reports it at the op's location (its
    own class because the verifier tells it from a bug in a verifier)."""


def read_attribute(read: Callable[[], ir.Attribute], what: str, expected: str) -> ir.Attribute:
    """`read()`, or a VerifyError when the bindings cannot represent the attribute in Python.

    The bindings downcast every attribute they return and raise TypeError for a dense array whose element
    type has no Python class (`array<i128: ...>`, `array<ui32: ...>`, `array<si8>`); to a verifier that is
    an attribute of the wrong type, not a bug.
    """
    try:
        return read()
    except TypeError as exc:
        raise VerifyError(f"{what} must be {expected}, got {_attribute_text(exc)}") from None


def read_int_array(read: Callable[[], ir.Attribute], what: str,
                   kind: type[ir.DenseI64ArrayAttr] | type[ir.DenseI32ArrayAttr] = ir.DenseI64ArrayAttr) -> list[int]:
    """The integers of the dense array `read()` returns, or a VerifyError when it is not an array of the
    element type `kind` holds: casting another dense array raises ValueError, and reading one whose element
    type has no Python class raises TypeError."""
    expected = "an array<i64: ...>" if kind is ir.DenseI64ArrayAttr else "an array<i32: ...>"
    attr = read_attribute(read, what, expected)
    if not isinstance(attr.maybe_downcast(), kind):
        raise VerifyError(f"{what} must be {expected}, got {attr}")
    return list(kind(attr))


def attribute_text(read: Callable[[], ir.Attribute]) -> str:
    """The text of the attribute `read()` returns, also of one the bindings cannot represent in Python."""
    try:
        return str(read())
    except TypeError as exc:
        return _attribute_text(exc)


def _attribute_text(exc: TypeError) -> str:
    text = str(exc)
    start, end = text.find("Attribute("), text.rfind("))")
    return text[start + len("Attribute("):end] if 0 <= start < end else text


class _Field:
    """A named operand, result, attribute or type parameter of a declaration."""

    kind = "single"

    def __init__(self, constraint: Constraint, doc: str = ""):
        if not isinstance(constraint, Constraint):
            raise DeclarationError(f"a field needs a Constraint, got {constraint!r}")
        self.constraint = constraint
        self.doc = doc
        self.name = ""
        self.index = -1

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name


class Param(_Field):
    """A parameter of a declared type or attribute: `!simt.slice<f32>` has one, `elem`."""


class Operand(_Field):
    """One operand (a Value)."""

    def __get__(self, op: Any, owner: type) -> Any:
        if op is None:
            return self
        return op._operand_group(self.index)


class VarOperand(Operand):
    """Zero or more operands (a list of Values)."""

    kind = "variadic"


class OptOperand(Operand):
    """Zero or one operand (a Value or None)."""

    kind = "optional"


class Result(_Field):
    """One result (a Value)."""

    def __get__(self, op: Any, owner: type) -> Any:
        if op is None:
            return self
        return op._result_group(self.index)


class VarResult(Result):
    """Zero or more results."""

    kind = "variadic"


class OptResult(Result):
    """Zero or one result."""

    kind = "optional"


class Attr(_Field):
    """A required attribute; reads as a Python value for builtin string/integer/float/bool attributes."""

    def __get__(self, op: Any, owner: type) -> Any:
        if op is None:
            return self
        attr = read_attribute(lambda: op.operation.attributes[self.name], f"attribute '{self.name}'",
                              "an attribute of a type oxide reads")
        return python_value(attr)


def python_value(attr: ir.Attribute) -> Any:
    """The Python value of a builtin string/bool/integer/float attribute; other attributes as they are."""
    attr = attr.maybe_downcast()
    if isinstance(attr, ir.IntegerAttr) and not isinstance(attr, ir.BoolAttr):
        return int_value(attr)
    if isinstance(attr, (ir.StringAttr, ir.BoolAttr, ir.FloatAttr)):
        return attr.value
    return attr


def int_value(attr: ir.Attribute) -> int:
    """The value of an integer attribute of any width. The bindings' `.value` reads 64 bits and aborts the
    process on a wider value (`9223372036854775808 : i65`), so a wider one is read from its text."""
    attr = ir.IntegerAttr(attr)
    if isinstance(attr.type, ir.IntegerType) and attr.type.width > 64:
        return int(str(attr).rsplit(" : ", 1)[0])
    return attr.value


def attribute_from(value: Any) -> ir.Attribute:
    """An MLIR attribute for a builder argument: str, bool, int, float or an ir.Attribute."""
    if isinstance(value, ir.Attribute):
        return value
    if isinstance(value, bool):
        return ir.BoolAttr.get(value)
    if isinstance(value, int):
        return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), value)
    if isinstance(value, float):
        return ir.FloatAttr.get(ir.F64Type.get(), value)
    if isinstance(value, str):
        return ir.StringAttr.get(value)
    raise TypeError(f"cannot turn {value!r} into an MLIR attribute")


def _fields_of(cls: type, kind: type) -> list[Any]:
    found = []
    for klass in reversed(cls.__mro__):
        for name, value in vars(klass).items():
            if isinstance(value, kind) and all(f.name != name for f in found):
                found.append(value)
    return found


def _segments(fields: Sequence[_Field]) -> list[int] | None:
    """ODS segment spec (1 single, -1 variadic, 0 optional), needed only with several non-single groups."""
    if sum(f.kind != "single" for f in fields) <= 1:
        return None
    return [{"single": 1, "variadic": -1, "optional": 0}[f.kind] for f in fields]


def _group_slice(fields: Sequence[_Field], count: int, sizes: Sequence[int] | None, index: int) -> slice:
    """Where field `index`'s values lie in the flat operand or result list of `count` values (`sizes`: the
    segment sizes, present when several groups are not single)."""
    if sizes is not None:
        start = sum(sizes[:index])
        return slice(start, start + sizes[index])
    if count == len(fields):  # one value per group (the common case; a variadic or optional group holds one)
        return slice(index, index + 1)
    # At most one group is variadic or optional: it takes what the single groups leave.
    dynamic = count - (len(fields) - 1)
    variable = next((i for i, f in enumerate(fields) if f.kind != "single"), len(fields))
    if index < variable:
        return slice(index, index + 1)
    if index == variable:
        return slice(index, index + dynamic)
    start = index + dynamic - 1
    return slice(start, start + 1)


def _split_params(text: str) -> list[str]:
    """Split `a, b<c, d>, "e,f"` at its top-level commas."""
    parts, depth, quoted, current = [], 0, False, ""
    for ch in text:
        if ch == '"' and not current.endswith("\\"):
            quoted = not quoted
        elif not quoted and ch in "<([{":
            depth += 1
        elif not quoted and ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0 and not quoted:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if current.strip():
        parts.append(current.strip())
    return parts


class _Parametric:
    """Shared machinery of TypeDef and AttrDef: parameters, printing, IRDL references."""

    dialect: ClassVar["Dialect"]
    mnemonic: ClassVar[str]
    parameters: ClassVar[tuple[Param, ...]] = ()
    sigil: ClassVar[str]

    @classmethod
    def mnemonic_ref(cls) -> str:
        """`!simt.slice` / `#simt.space`."""
        return f"{cls.sigil}{cls.dialect.name}.{cls.mnemonic}"

    @classmethod
    def irdl_ref(cls) -> str:
        """`@simt::@slice`, how IRDL refers to this definition."""
        return f"@{cls.dialect.name}::@{cls.mnemonic}"

    @classmethod
    def text(cls, *params: Any) -> str:
        """The MLIR spelling of an instance with these parameters."""
        if len(params) != len(cls.parameters):
            raise TypeError(f"{cls.mnemonic_ref()} takes {len(cls.parameters)} parameter(s), got {len(params)}")
        if not params:
            return cls.mnemonic_ref()
        spelled = [f'"{p}"' if isinstance(p, str) else spelling(p) for p in params]
        return f"{cls.mnemonic_ref()}<{', '.join(spelled)}>"

    @classmethod
    def isinstance(cls, value: Any) -> bool:
        """Whether an ir.Type / ir.Attribute is an instance of this definition."""
        spelled = spelling(value)
        return spelled == cls.mnemonic_ref() or spelled.startswith(cls.mnemonic_ref() + "<")

    @classmethod
    def parameters_of(cls, value: Any) -> list[Any]:
        """The parameters of an instance, as ir.Type or ir.Attribute values."""
        # Parsed once per compile (oxide/ir/spelling.py): lowerings and verifiers ask this for every value.
        return list(remembered(cls.mnemonic_ref(), value, lambda: cls._parse_parameters(value)))

    @classmethod
    def _parse_parameters(cls, value: Any) -> list[Any]:
        spelled, ref = spelling(value), cls.mnemonic_ref()
        if spelled == ref:
            return []
        if not spelled.startswith(ref + "<"):
            raise TypeError(f"{spelled} is not a {ref}")
        out = []
        for index, part in enumerate(_split_params(spelled[len(ref) + 1 : -1])):
            if part[0] not in "\"#0123456789-":  # a string, attribute or number is never a type
                try:
                    out.append(ir.Type.parse(part))
                    continue
                except Exception:  # not a type: a parameter may be any attribute
                    pass
            name = cls.parameters[index].name if index < len(cls.parameters) else str(index)
            # A dense array of an element type the bindings have no class for (`array<ui32: 4>`) cannot be
            # read back in Python: that is a wrong parameter, reported where a verifier reads it.
            out.append(read_attribute(lambda: ir.Attribute.parse(part), f"parameter '{name}' of {spelled}",
                                      "an attribute of a type oxide reads"))
        return out


class TypeDef(_Parametric):
    """Base class of declared types; instances are plain ir.Type values (`SliceType.get(f32)`)."""

    sigil = "!"

    @classmethod
    def get(cls, *params: Any) -> ir.Type:
        """The type with these parameters (ir.Type, ir.Attribute or str for string parameters)."""
        return parsed("type", cls.text(*params), ir.Type.parse)


class AttrDef(_Parametric):
    """Base class of declared attributes; instances are plain ir.Attribute values."""

    sigil = "#"

    @classmethod
    def get(cls, *params: Any) -> ir.Attribute:
        """The attribute with these parameters."""
        return parsed("attribute", cls.text(*params), ir.Attribute.parse)


class Op(ir.OpView):
    """Base class of declared ops. Subclasses declare `mnemonic`, fields and a docstring."""

    dialect: ClassVar["Dialect"]
    mnemonic: ClassVar[str]
    operand_fields: ClassVar[list[Operand]] = []
    result_fields: ClassVar[list[Result]] = []
    attribute_fields: ClassVar[list[Attr]] = []
    _attribute_names: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, *operands: Any, results: Sequence[ir.Type] | None = None, loc: Any = None, ip: Any = None,
                 **attributes: Any):
        cls = type(self)
        name = cls.OPERATION_NAME
        if len(operands) != len(cls.operand_fields):
            raise TypeError(f"{name} takes {len(cls.operand_fields)} operand group(s) "
                            f"({', '.join(f.name for f in cls.operand_fields)}), got {len(operands)}")
        if attributes.keys() != cls._attribute_names:  # one comparison for the ops built right (all of them)
            missing = [a.name for a in cls.attribute_fields if a.name not in attributes]
            unknown = sorted(set(attributes) - cls._attribute_names)
            raise TypeError(f"{name}: missing attribute(s) {missing}, unknown attribute(s) {unknown}")
        attrs = {a.name: attribute_from(attributes[a.name]) for a in cls.attribute_fields}
        if results is None:
            results = cls._infer_result_types(operands, attrs)
        flat_operands = list(operands) if cls._ODS_OPERAND_SEGMENTS is not None else _flatten(operands)
        super().__init__(name, cls._ODS_REGIONS, cls._ODS_OPERAND_SEGMENTS, cls._ODS_RESULT_SEGMENTS,
                         attributes=attrs, results=list(results), operands=flat_operands, successors=None,
                         regions=None, loc=loc, ip=ip)

    @classmethod
    def _infer_result_types(cls, operands: Sequence[Any], attrs: dict[str, ir.Attribute]) -> list[ir.Type]:
        if not cls.result_fields:  # binding the operands' types parses them: nothing to infer, so skip it
            return []
        bindings: dict[TypeVar, Any] = {}
        for f, value in zip(cls.operand_fields, operands):
            for v in (list(value) if f.kind == "variadic" else [value] if value is not None else []):
                f.constraint.bind(v.type, bindings)
        types_: list[ir.Type] = []
        for f in cls.result_fields:
            inferred = f.constraint.instantiate(bindings) if f.kind == "single" else None
            if inferred is None:
                raise TypeError(f"{cls.OPERATION_NAME}: cannot infer the type of result '{f.name}' "
                                f"({f.constraint.describe()}); pass results=[...]")
            types_.append(inferred)
        return types_

    @classmethod
    def build(cls, *operands: Any, **kwargs: Any) -> Any:
        """Create the op at the current insertion point; return its result, a tuple of results, or the op."""
        op = cls(*operands, **kwargs)
        results = list(op.operation.results)
        if len(results) == 1:
            return results[0]
        return tuple(results) if results else op

    def verify_(self) -> None:
        """Checks IRDL cannot express; raise VerifyError. (Named like xDSL's: OpView.verify is MLIR's.)"""

    def _operand_group(self, index: int) -> Any:
        return self._group(self.operand_fields, self.operation.operands, self._ODS_OPERAND_SEGMENTS is not None,
                           "operandSegmentSizes", index)

    def _result_group(self, index: int) -> Any:
        return self._group(self.result_fields, self.operation.results, self._ODS_RESULT_SEGMENTS is not None,
                           "resultSegmentSizes", index)

    def operand_groups(self) -> list[Any]:
        """Every operand group, in declaration order (one read of the segment sizes for all of them)."""
        fields, values = self.operand_fields, self.operation.operands
        sizes = (list(ir.DenseI32ArrayAttr(self.operation.attributes["operandSegmentSizes"]))
                 if self._ODS_OPERAND_SEGMENTS is not None else None)
        return [_pick(f.kind, values, _group_slice(fields, len(values), sizes, i)) for i, f in enumerate(fields)]

    def _group(self, fields: list[Any], values: Any, segmented: bool, sizes_attr: str, index: int) -> Any:
        # Accessors run for every op a pass visits: read only the group's own values, not the whole list.
        sizes = list(ir.DenseI32ArrayAttr(self.operation.attributes[sizes_attr])) if segmented else None
        return _pick(fields[index].kind, values, _group_slice(fields, len(values), sizes, index))


def _pick(kind: str, values: Any, where: slice) -> Any:
    """A group's value (single), value or None (optional), or list of values (variadic)."""
    if kind == "single":
        return values[where.start]
    if kind == "optional":
        return values[where.start] if where.stop > where.start else None
    return [values[i] for i in range(where.start, where.stop)]


def _flatten(groups: Sequence[Any]) -> list[Any]:
    flat: list[Any] = []
    for g in groups:
        if isinstance(g, (list, tuple)):
            flat.extend(g)
        elif g is not None:
            flat.append(g)
    return flat


class Dialect:
    """A dialect: its name, docstring, and the types, attributes and ops declared into it."""

    def __init__(self, name: str, doc: str):
        if name in DIALECTS:
            raise DeclarationError(f"dialect '{name}' is declared twice")
        self.name = name
        self.__doc__ = doc
        self.types: list[type[TypeDef]] = []
        self.attributes: list[type[AttrDef]] = []
        self.ops: list[type[Op]] = []
        self.attribute_verifiers: dict[str, Any] = {}
        self._irdl_text: str | None = None
        self._py_dialect = _cext.register_dialect(type(f"_{name}_dialect", (ir.Dialect,), {"DIALECT_NAMESPACE": name}))
        lookup_module = f"{OPVIEW_MODULE_PREFIX}.{name}"
        if lookup_module not in sys.modules:
            # A dialect declared outside oxide.dialects (a test's, a user's) still needs an importable
            # lookup module for the bindings to consult the registered OpViews.
            sys.modules[lookup_module] = types.ModuleType(lookup_module, doc)
        DIALECTS[name] = self

    def _check_mnemonic(self, cls: type) -> None:
        if not isinstance(getattr(cls, "mnemonic", None), str) or not cls.__dict__.get("mnemonic"):
            raise DeclarationError(f"{cls.__name__} must declare a mnemonic")
        if not (cls.__doc__ or "").strip():
            raise DeclarationError(f"{cls.__name__} must have a docstring")

    def _declare_parametric(self, cls: type, registry: list[Any]) -> Any:
        self._check_mnemonic(cls)
        cls.dialect = self
        cls.parameters = tuple(_fields_of(cls, Param))
        registry.append(cls)
        self._irdl_text = None
        return cls

    def type(self, cls: type[TypeDef]) -> type[TypeDef]:
        """Class decorator: declare a type of this dialect."""
        return self._declare_parametric(cls, self.types)

    def attribute(self, cls: type[AttrDef]) -> type[AttrDef]:
        """Class decorator: declare an attribute of this dialect."""
        return self._declare_parametric(cls, self.attributes)

    def op(self, cls: type[Op]) -> type[Op]:
        """Class decorator: declare an op of this dialect and register it as the OpView of its name."""
        self._check_mnemonic(cls)
        operands = _fields_of(cls, Operand)
        results = _fields_of(cls, Result)
        attrs = _fields_of(cls, Attr)
        for group in (operands, results, attrs):
            for i, f in enumerate(group):
                if f.name in _RESERVED_FIELD_NAMES:
                    raise DeclarationError(f"{cls.__name__}.{f.name}: the name shadows an OpView member")
                f.index = i
        cls.dialect = self
        cls.operand_fields, cls.result_fields, cls.attribute_fields = operands, results, attrs
        cls._attribute_names = frozenset(a.name for a in attrs)
        cls.OPERATION_NAME = f"{self.name}.{cls.mnemonic}"
        cls._ODS_REGIONS = (0, True)
        cls._ODS_OPERAND_SEGMENTS = _segments(operands)
        cls._ODS_RESULT_SEGMENTS = _segments(results)
        _cext.register_operation(self._py_dialect, replace=True)(cls)
        self.ops.append(cls)
        self._irdl_text = None
        return cls

    def discardable_attribute(self, name: str) -> Any:
        """Decorator: `fn(op, attr)` verifies the discardable attribute `name` (e.g. `simt.contract` on a
        kernel) wherever it appears; it raises VerifyError to reject it."""
        if not name.startswith(self.name + "."):
            raise DeclarationError(f"discardable attribute '{name}' must be prefixed '{self.name}.'")

        def register(fn: Any) -> Any:
            self.attribute_verifiers[name] = fn
            return fn

        return register

    def irdl(self) -> str:
        """This dialect as IRDL text (generated once, after the last declaration)."""
        from oxide.ir.irdl_gen import dialect_to_irdl

        if self._irdl_text is None:
            self._irdl_text = dialect_to_irdl(self)
        return self._irdl_text

    def load(self, context: ir.Context) -> None:
        """Make the dialect available in `context` (IRDL dialects are per context)."""
        from mlir.dialects import irdl

        irdl.load_dialects(ir.Module.parse(self.irdl(), context))
