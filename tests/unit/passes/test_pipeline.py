"""The pass base, registry, option parsing and the textual pipeline parser."""

from dataclasses import dataclass

import pytest
from mlir import ir

from oxide.diagnostics import OxideError
from oxide.passes import OxidePass, PassError, build_pass_manager, parse_pipeline, register_pass
from oxide.passes.registry import option_group, options_text
from oxide.target import Target

SEEN: list[tuple[str, int, bool]] = []


@register_pass
@dataclass(frozen=True)
class RecordPass(OxidePass):
    """Record that it ran, with its options."""

    name = "test-record"
    label: str = "none"
    times: int = 1
    loud: bool = False

    def run(self, module: ir.Operation) -> None:
        SEEN.append((self.label, self.times, self.loud))


@register_pass
@dataclass(frozen=True)
class TargetedPass(OxidePass):
    """Take a Target as an option object, set from its chip and opt-level."""

    name = "test-targeted"
    target: Target = option_group(Target(), "chip", "opt-level")
    loud: bool = False

    def run(self, module: ir.Operation) -> None:
        SEEN.append((self.target.chip, self.target.opt_level, self.loud))


@register_pass
@dataclass(frozen=True)
class RejectPass(OxidePass):
    """Reject every func.func, at its location."""

    name = "test-reject"

    def run(self, module: ir.Operation) -> None:
        failures = []
        for op in module.regions[0].blocks[0].operations:
            failures.append((op.operation.location, "functions are not allowed here"))
        raise PassError(failures)


@register_pass
@dataclass(frozen=True)
class CrashPass(OxidePass):
    """Has a bug."""

    name = "test-crash"

    def run(self, module: ir.Operation) -> None:
        raise ZeroDivisionError("oops")


def test_parse_tree_with_anchor_options_and_nesting(ctx):
    text = "builtin.module(test-record{label=a times=2}, canonicalize{max-iterations=3}, gpu.module(cse, canonicalize))"
    items = parse_pipeline(text)
    assert [i.name for i in items] == ["test-record", "canonicalize", "gpu.module"]
    assert items[0].oxide == RecordPass(label="a", times=2)
    assert items[1].options == "max-iterations=3" and items[1].oxide is None
    assert [c.name for c in items[2].children] == ["cse", "canonicalize"]
    assert text[items[2].offset : items[2].end] == "gpu.module(cse, canonicalize)"


def test_bare_list_equals_builtin_module(ctx):
    assert [i.name for i in parse_pipeline("cse, test-record")] == [i.name for i in parse_pipeline("builtin.module(cse,test-record)")]


def test_options_convert_to_field_types(ctx):
    (item,) = parse_pipeline("test-record{label=\"two words\" times=0x10 loud=true}")
    assert item.oxide == RecordPass(label="two words", times=16, loud=True)


@pytest.mark.parametrize(
    "text, message, column",
    [
        ("test-record{times=many}", "option 'times' expects an integer, got 'many'", 19),
        ("test-record{loud=maybe}", "option 'loud' expects true or false", 18),
        ("test-record{colour=red}", "'test-record' has no option 'colour' (its options: label, loud, times)", 13),
        ("test-record{label}", "expected 'name=value'", 13),
        ("builtin.module(cse, func.func(test-record))", "cannot be nested under 'func.func'", 31),
        ("builtin.module(nope)", "'nope' does not refer to a registered pass", 16),
        ("cse)", "expected ',' or the end of the pipeline, found ')'", 4),
        ("gpu.module{x=1}(cse)", "anchor 'gpu.module' takes no options", 11),
    ],
)
def test_errors_are_located_in_the_pipeline_text(ctx, text, message, column):
    with pytest.raises(OxideError) as info:
        parse_pipeline(text)
    (diag,) = info.value.diagnostics
    assert message in diag.message
    assert diag.loc.col == column


def test_mixed_pipeline_runs_oxide_and_upstream_passes_in_order(ctx):
    SEEN.clear()
    module = ir.Module.parse("func.func @f() -> index { %a = arith.constant 1 : index\n %b = arith.addi %a, %a : index\n return %b : index }")
    pm = build_pass_manager("test-record{label=first}, canonicalize, test-record{label=second}", ctx)
    pm.run(module.operation)
    assert [s[0] for s in SEEN] == ["first", "second"]
    assert "arith.constant 2 : index" in str(module)


def test_pass_error_becomes_located_mlir_diagnostic(ctx):
    op = ir.Operation.parse("func.func @f() {\n  return\n}", source_name="k.mlir")
    module = ir.Module.create()
    module.body.append(op.operation)
    with pytest.raises(ir.MLIRError) as info:
        build_pass_manager("test-reject", ctx).run(module.operation)
    (diag,) = info.value.error_diagnostics
    assert diag.message == "functions are not allowed here"
    assert str(diag.location) == 'loc("k.mlir":1:1)'


def test_unexpected_exception_is_an_internal_error_not_a_traceback(ctx):
    module = ir.Module.parse("")
    with pytest.raises(ir.MLIRError) as info:
        build_pass_manager("test-crash", ctx).run(module.operation)
    assert "internal error in pass 'test-crash': ZeroDivisionError: oops" in str(info.value)


def test_passes_are_frozen_dataclasses_with_docstrings():
    with pytest.raises(TypeError, match="frozen dataclass"):
        @register_pass
        class NotADataclass(OxidePass):
            """Doc."""

            name = "test-bad"

    with pytest.raises(TypeError, match="registered twice"):
        @register_pass
        @dataclass(frozen=True)
        class Again(OxidePass):
            """Doc."""

            name = "test-record"


def test_options_text_round_trips(ctx):
    instance = RecordPass(label="x", times=3, loud=True)
    (item,) = parse_pipeline(f"test-record{options_text(instance)}")
    assert item.oxide == instance


def test_an_option_object_is_made_once_from_its_fields(ctx):
    (item,) = parse_pipeline("test-targeted{chip=sm_80 loud=true}")
    assert item.oxide == TargetedPass(Target("sm_80"), loud=True)
    assert item.oxide.target.features == "+ptx70"  # what the chip needs, not the default chip's
    (default,) = parse_pipeline("test-targeted")
    assert default.oxide.target == Target()
    instance = TargetedPass(Target("sm_90a", opt_level=2))
    assert options_text(instance) == "{chip=sm_90a opt-level=2 loud=false}"
    (item,) = parse_pipeline(f"test-targeted{options_text(instance)}")
    assert item.oxide == instance


@pytest.mark.parametrize(
    "text, message, column",
    [
        ("test-targeted{chip=sm_13}", "unknown GPU architecture 'sm_13'", 20),
        ("test-targeted{opt-level=7}", "optimisation level must be 0 to 3, got 7", 25),
        ("test-targeted{features=+ptx80}", "'test-targeted' has no option 'features' (its options: chip, loud, "
                                           "opt-level)", 15),
    ],
)
def test_a_bad_option_object_is_located_at_its_option(ctx, text, message, column):
    with pytest.raises(OxideError) as info:
        parse_pipeline(text)
    (diag,) = info.value.diagnostics
    assert message in diag.message
    assert diag.loc.col == column


def test_a_pipeline_of_steps_takes_pass_objects_as_they_are(ctx):
    SEEN.clear()
    module = ir.Module.parse("")
    build_pass_manager([TargetedPass(Target("sm_80", opt_level=1)), "canonicalize", RecordPass(label="x")],
                       ctx).run(module.operation)
    assert SEEN == [("sm_80", 1, False), ("x", 1, False)]


def test_pass_error_is_an_oxide_error_with_located_diagnostics(ctx):
    op = ir.Operation.parse("func.func @f() {\n  return\n}", source_name="k.mlir")
    error = PassError([(op.location, "no")])
    assert isinstance(error, OxideError)
    assert [str(d.loc) for d in error.diagnostics] == ["k.mlir:1:1"] and error.failures == [(op.location, "no")]
