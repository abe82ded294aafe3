"""The device-call registry (oxide/frontends/simt/calls/registry.py): one handler per key, a duplicate key is
refused when it is registered, a written path finds its longest registered suffix, a method its receiver's
class along the MRO, and a call no handler takes is the located error it always was."""

import pytest

from oxide.frontends.simt import types as T
from oxide.frontends.simt.compile import compile_rust
from oxide.dialects.context import make_context
from oxide.diagnostics import OxideError

with make_context():  # the handler modules build their device types (MLIR types) when imported
    from oxide.frontends.simt.calls import registry


def _rejection(src: str):
    with pytest.raises(OxideError) as info:
        compile_rust(src, "k.rs", make_context())
    return info.value.diagnostics[0]


def test_a_path_registered_twice_is_refused():
    with pytest.raises(registry.DuplicateHandler, match="`mem::replace` is registered twice"):
        registry.device_fn("mem::replace")(lambda *call: None)


def test_a_method_registered_twice_is_refused():
    with pytest.raises(registry.DuplicateHandler, match="`to_digit` on `Char` is registered twice"):
        registry.device_method(T.Char, "to_digit")(lambda *call: None)


def test_the_longest_registered_suffix_of_a_path_is_its_handler():
    # `core::mem::size_of` is the `mem::size_of` handler, not the bare `size_of` one.
    assert registry.find_path(["core", "mem", "size_of"]) is registry.find_path(["mem", "size_of"])
    assert registry.find_path(["size_of"]) is not registry.find_path(["mem", "size_of"])
    assert registry.find_path(["nowhere", "no_such_function"]) is None


def test_a_method_is_found_along_the_receivers_classes():
    char = T.PRIMITIVES["char"]
    assert registry.find_method(char, "to_digit") is not None          # (Char, to_digit)
    assert registry.find_method(char, "is_ascii_digit") is registry.find_method(T.PRIMITIVES["u8"], "is_ascii_digit")
    assert registry.find_method(T.F32, "checked_add") is None             # an integer method only


def test_the_keys_are_listed():
    paths = registry.path_keys()
    for key in ("ptr::null", "mem::replace", "mem::size_of", "size_of", "ptr::eq", "cluster::block_rank",
                "intrinsics::atomic_load", "MaybeUninit::uninit", "u32::from", "char::from_u32"):
        assert key in paths
    assert ("Int", "checked_add") in registry.method_keys()


def test_a_call_no_handler_takes_is_a_located_error():
    src = "#[kernel]\npub fn k(out: DisjointSlice<u32>) {\n    let x = warp::no_such_intrinsic(1u32);\n}\n"
    diag = _rejection(src)
    assert (diag.loc.line, diag.loc.col) == (3, 13)
    assert diag.message == "cannot find function `warp::no_such_intrinsic` in this scope"


def test_a_guard_that_fails_is_a_miss_not_another_handler():
    # `ptr::eq` takes two pointers; with one argument no handler takes the call.
    src = "#[kernel]\npub unsafe fn k(p: *const u32) {\n    let same = ptr::eq(p);\n}\n"
    assert _rejection(src).message == "cannot find function `ptr::eq` in this scope"
