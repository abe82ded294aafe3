"""Python builders of the simt warp and sync ops: inferred result types, the shuffle's default width,
typed accessors through `op.opview`, and the Python verifier."""

from mlir import ir
from mlir.dialects import func

from oxide.dialects.simt import ElectOp, ShuffleOp, SyncThreadsOp, ThreadFenceOp
from oxide.ir.verifier import python_verifier_failures


def _kernel_body(*arg_types: str):
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        fn = func.FuncOp("f", ([ir.Type.parse(t) for t in arg_types], []))
        block = fn.add_entry_block()
    return module, block


def test_shuffle_builder_defaults_to_the_whole_warp(ctx):
    module, block = _kernel_body("i32", "f64")
    mask, value = block.arguments
    with ir.InsertionPoint(block):
        result = ShuffleOp.build(mask, value, mask, kind="xor")
        narrow = ShuffleOp.build(mask, value, mask, kind="down", width=8)
        func.ReturnOp([])
    assert str(result.type) == "f64"
    view = result.owner.opview
    assert isinstance(view, ShuffleOp)
    assert (view.kind, view.width, view.value) == ("xor", 32, value)
    assert narrow.owner.opview.width == 8
    assert module.operation.verify()
    assert python_verifier_failures(module.operation) == []


def test_shuffle_width_is_checked_by_the_python_verifier(ctx):
    module, block = _kernel_body("i32")
    (mask,) = block.arguments
    with ir.InsertionPoint(block):
        ShuffleOp.build(mask, mask, mask, kind="idx", width=12)
        func.ReturnOp([])
    ((_, message),) = python_verifier_failures(module.operation)
    assert message == "'simt.shuffle' op shuffle width must be a power of two from 1 to 32, got 12"


def test_elect_and_sync_builders(ctx):
    module, block = _kernel_body("i32")
    (mask,) = block.arguments
    with ir.InsertionPoint(block):
        SyncThreadsOp.build()
        ThreadFenceOp.build(scope="device")
        leader, elected = ElectOp.build(mask)
        func.ReturnOp([])
    assert (str(leader.type), str(elected.type)) == ("i32", "i1")
    assert module.operation.verify()
