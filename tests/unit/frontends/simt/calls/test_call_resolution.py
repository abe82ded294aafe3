"""How a call's name is resolved (oxide/frontends/simt/calls/entry.py): the user's items before the device
API, one explicit order of lookups; a receiver class's catch-all (OTHER) handler; the macro table; no dead
all-lanes mask before a device call; and the emitter Protocol the handlers see."""

import inspect

import pytest

from oxide.dialects.context import make_context
from oxide.frontends.simt import types as T
from oxide.frontends.simt.compile import compile_rust
from oxide.diagnostics import OxideError

with make_context():
    from oxide.frontends.simt.calls import entry, macros, registry
    from oxide.frontends.simt.calls.context import Emitter
    from oxide.frontends.simt.emit import FunctionEmitter


def _ir(src: str) -> str:
    return str(compile_rust(src, "k.rs", make_context()).module)


def test_the_path_resolution_order_is_one_tuple_of_lookups():
    assert [step.__name__ for step in entry._PATH_RESOLUTION] == [
        "_local_callable", "_user_function", "_tuple_struct", "_device_function", "_enum_variant",
        "_primitive_as_function", "_associated_function"]


def test_a_users_function_comes_before_a_device_function_of_its_name():
    src = ("fn lane_id() -> u32 { 7 }\n#[kernel]\npub unsafe fn k(out: &mut [u32]) {\n"
           "    out[0] = lane_id();\n}\n")
    assert "laneid" not in _ir(src)
    assert "laneid" in _ir(src.replace("fn lane_id() -> u32 { 7 }\n", ""))


def test_a_class_catch_all_takes_every_name_it_does_not_register():
    option, atomic = T.OptionTy(T.F32), T.Atomic(T.PRIMITIVES["u32"], "device")
    assert registry.find_method(option, "is_some") is not registry.find_method(option, "no_such_method")
    # `into` is registered on every type (Ty); the catch-all of Option and Atomic hides it, as before.
    assert registry.find_method(T.F32, "into") is not None
    assert registry.find_method(option, "into") is registry.find_method(option, "no_such_method")
    assert registry.find_method(atomic, "into") is registry.find_method(atomic, "fetch_add")
    assert registry.find_method(T.F32, "no_such_method") is None


def test_a_witness_refuses_a_method_it_does_not_have():
    src = ("#[kernel]\npub fn k(out: DisjointSlice<u32>) {\n    let i = thread::index_1d();\n"
           "    let j = i.clone();\n}\n")
    with pytest.raises(OxideError, match="a thread index witness is not Clone"):
        _ir(src)


def test_no_dead_all_lanes_mask_before_a_device_call():
    """A device call emits what its handler emits: the all-lanes mask (`-1 : i32`) only where a warp
    operation uses it, not before every call, and not when a `_sync` form is given its mask."""
    src = ("#[kernel]\npub unsafe fn k(bits: &mut [u32]) {\n    let (mut a, mut b) = (bits[0], bits[1]);\n"
           "    core::mem::swap(&mut a, &mut b);\n    bits[0] = warp::shuffle_xor_sync(0xffff, a + b, 1);\n}\n")
    assert "-1 : i32" not in _ir(src)
    assert _ir(src.replace("shuffle_xor_sync(0xffff, ", "shuffle_xor(")).count("-1 : i32") == 1


def test_a_macro_registered_twice_is_refused_and_an_unknown_one_is_an_error():
    with pytest.raises(registry.DuplicateHandler, match="the macro `gpu_printf!` is registered twice"):
        macros.device_macro("gpu_printf")(lambda em, e, expected: None)
    src = "#[kernel]\npub unsafe fn k(out: &mut [u32]) {\n    no_such_macro!(1);\n}\n"
    with pytest.raises(OxideError, match="the macro `no_such_macro!` is not supported in device code"):
        _ir(src)


def test_the_emitter_protocol_names_only_members_of_the_emitter():
    init = inspect.getsource(FunctionEmitter.__init__)
    for name in Emitter.__annotations__:
        assert f"self.{name}" in init, name
    methods = [n for n, v in vars(Emitter).items() if inspect.isfunction(v) and not n.startswith("__")]
    assert methods and all(inspect.isfunction(getattr(FunctionEmitter, n, None)) for n in methods)
