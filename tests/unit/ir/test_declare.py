"""The declaration layer: IRDL generation, OpView registration, accessors, builders, verifiers."""

import pytest
from mlir import ir

from oxide.dialects import simt
from oxide.ir import AnyOf, BaseOf, DeclarationError, Dialect, Is, Op, Result
from oxide.ir.verifier import python_verifier_failures
from tests.unit.ir import testdialect as td


def parse(text: str) -> ir.Module:
    return ir.Module.parse(text)


def test_irdl_uses_real_constraints_not_any_everywhere():
    text = simt.DIALECT.irdl()
    assert "irdl.dialect @simt {" in text
    assert "irdl.parametric @simt::@slice<" in text
    assert 'irdl.is "x"' in text and "irdl.is index" in text
    assert "irdl.parametric @simt::@thread_index<" in text
    load = text[text.index("irdl.operation @load") :].split("}")[0]
    # slice<T>, slice_mut<T> and the result share one constraint value: "same element type".
    assert load.count("irdl.any\n") == 1
    assert "irdl.results(result: %0)" in load


def test_variadic_and_optional_fields_render_with_variadicity():
    text = td.DIALECT.irdl()
    assert "irdl.operands(head: variadic %0, middle: %1, tail: variadic %6, maybe: optional %7)" in text


def test_opview_is_the_declared_class_with_named_accessors(ctx):
    module = parse(
        """
        func.func @f(%s: !simt.slice<f32>, %i: index) -> f32 {
          %v = "simt.load"(%s, %i) : (!simt.slice<f32>, index) -> f32
          %t = "simt.thread_id"() {dim = #simt.dim<"y">} : () -> i32
          return %v : f32
        }"""
    )
    ops = list(module.body.operations[0].regions[0].blocks[0].operations)
    load, tid = ops[0], ops[1]
    assert isinstance(load, simt.LoadOp)
    args = module.body.operations[0].regions[0].blocks[0].arguments
    assert load.slice == args[0] and load.index == args[1]
    assert str(load.result.type) == "f32"
    assert isinstance(tid, simt.ThreadIdOp)
    assert simt.DimAttr.parameters_of(tid.dim)[0].value == "y"


def test_builder_infers_result_type_through_parametric_type(ctx):
    module = parse("func.func @f(%s: !simt.slice_mut<i64>, %i: index) { return }")
    block = module.body.operations[0].regions[0].blocks[0]
    with ir.InsertionPoint.at_block_begin(block):
        value = simt.LoadOp.build(block.arguments[0], block.arguments[1])
        witness = simt.Index1DOp.build()
    assert str(value.type) == "i64"
    assert str(witness.type) == '!simt.thread_index<"1d">'
    assert module.operation.verify()


def test_builder_refuses_to_guess_an_uninferable_result(ctx):
    module = parse("func.func @f() { return }")
    with ir.InsertionPoint.at_block_begin(module.body.operations[0].regions[0].blocks[0]):
        with pytest.raises(TypeError, match="cannot infer the type of result 'result'"):
            simt.SharedArrayOp.build(align=16)
        with pytest.raises(TypeError, match="missing attribute"):
            simt.ThreadIdOp.build()


def test_multiple_variadic_groups_get_segment_sizes(ctx):
    module = parse("func.func @f(%a: i32, %i: index, %x: f32, %b: i1) { return }")
    block = module.body.operations[0].regions[0].blocks[0]
    a, i, x, b = block.arguments
    with ir.InsertionPoint.at_block_begin(block):
        op = td.SegmentsOp([a, a], i, [x, x, x], None)
        op2 = td.SegmentsOp([], i, [x], b)
    assert "operandSegmentSizes = array<i32: 2, 1, 3, 0>" in str(op)
    assert op.head == [a, a] and op.middle == i and op.tail == [x, x, x] and op.maybe is None
    assert op2.head == [] and op2.maybe == b
    assert module.operation.verify()


def test_single_variadic_group_needs_no_segments(ctx):
    module = parse("func.func @f(%i: index, %j: index) { return }")
    block = module.body.operations[0].regions[0].blocks[0]
    i, j = block.arguments
    with ir.InsertionPoint.at_block_begin(block):
        op = td.OneVariadicOp(i, [j, j, i], label="l", results=[ir.IndexType.get()] * 2)
    assert "operandSegmentSizes" not in str(op)
    assert op.first == i and op.rest == [j, j, i] and op.label == "l"
    assert len(op.results_) == 2


def test_type_variable_links_operand_and_result(ctx):
    module = parse('func.func @f(%b: !oxtest.box<f64>) -> f64 { %x = "oxtest.unbox"(%b) : (!oxtest.box<f64>) -> f64\n return %x : f64 }')
    assert module.operation.verify()
    with pytest.raises(ir.MLIRError, match="expected 'f64' but got 'f32'"):
        parse('func.func @f(%b: !oxtest.box<f64>) { %x = "oxtest.unbox"(%b) : (!oxtest.box<f64>) -> f32\n return }')


def test_python_verifier_failures_are_located(ctx):
    op = ir.Operation.parse(
        'func.func @f() {\n  %0 = "oxtest.even"() {value = 3 : i64} : () -> !oxtest.box<i8>\n  return\n}',
        source_name="even.mlir",
    )
    failures = python_verifier_failures(op.operation)
    assert len(failures) == 1
    location, message = failures[0]
    assert message == "'oxtest.even' op value must be even, got 3"
    assert (location.filename, location.start_line, location.start_col) == ("even.mlir", 2, 8)


def test_typedef_get_and_parameters_round_trip(ctx):
    shared = simt.SharedType.get(ir.F32Type.get(), ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 64))
    assert str(shared) == "!simt.shared<f32, 64 : i64>"
    elem, count = simt.SharedType.parameters_of(shared)
    assert str(elem) == "f32" and count.value == 64
    assert simt.SharedType.isinstance(shared) and not simt.SliceType.isinstance(shared)


def test_declarations_are_checked():
    dialect = Dialect("oxtest_bad", "Malformed declarations.")
    with pytest.raises(DeclarationError, match="docstring"):
        @dialect.op
        class NoDoc(Op):
            mnemonic = "nodoc"

    with pytest.raises(DeclarationError, match="shadows an OpView member"):
        @dialect.op
        class Shadow(Op):
            """Uses a reserved field name."""

            mnemonic = "shadow"
            operands = Result(Is("i32"))

    with pytest.raises(DeclarationError, match="declared twice"):
        Dialect("oxtest_bad", "again")

    with pytest.raises(ValueError, match="list the types with Is"):
        AnyOf(BaseOf("!builtin.integer"), Is("f32"))


def test_int_value_reads_integers_wider_than_64_bits() -> None:
    """The bindings' IntegerAttr.value aborts the process above 64 bits (a fuzz finding in a verifier)."""
    from mlir import ir

    from oxide.dialects.context import make_context
    from oxide.ir.declare import int_value, python_value

    with make_context():
        assert int_value(ir.Attribute.parse("9223372036854775808 : i65")) == 1 << 63
        assert python_value(ir.Attribute.parse("-3 : i128")) == -3
        assert int_value(ir.Attribute.parse("42 : i64")) == 42
