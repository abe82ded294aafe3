"""The raw mbarrier functions, the async-proxy fences and the ManagedBarrier typestate: the simt ops they emit,
PTX that ptxas accepts for sm_90a, every rejection, and the emulator's refusal."""

from __future__ import annotations

import shutil
import subprocess

import pytest

import oxide
from oxide.diagnostics import OxideError
from tests.unit.frontends.simt.test_constructs import build, ir, kernel

needs_ptxas = pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")

_BAR = "static mut BAR: Barrier = Barrier::UNINIT;\n"
_RAW = (_BAR + "mbarrier_init(&raw mut BAR, 32);\nfence_mbarrier_init_release_cluster();\n"
        "fence_proxy_async_shared_cta();\nfence_proxy_async_shared_cluster();\nfence_proxy_async_global();\n"
        "fence_proxy_async();\n"
        "let t = mbarrier_arrive(&raw const BAR);\nmbarrier_arrive_no_complete(&raw const BAR);\n"
        "let t2 = mbarrier_arrive_expect_tx(&raw const BAR, 1, 1024);\n"
        "let t3 = mbarrier_arrive_expect_tx(&raw const BAR, 2, 64);\n"
        "let t4 = mbarrier_arrive_expect_tx(&raw const BAR, 512);\nmbarrier_expect_tx(&raw const BAR, 16);\n"
        "let a = mbarrier_test_wait(&raw const BAR, t);\nlet b = mbarrier_try_wait(&raw const BAR, t2);\n"
        "let c = mbarrier_try_wait_parity(&raw const BAR, 0);\nmbarrier_wait(&raw const BAR, t3);\n"
        "mbarrier_wait_parity(&raw const BAR, 1);\nmbarrier_arrive_and_wait(&raw const BAR);\n"
        "mbarrier_arrive_cluster(addr);\nmbarrier_inval(&raw mut BAR);\n"
        "if a && b && c { out[0] = t4; }")
_MANAGED = (_BAR + "static mut BAR1: Barrier = Barrier::UNINIT;\n"
            "let bar = ManagedBarrier::<Uninit, TmaBarrier>::from_static(&raw mut BAR);\n"
            "let bar = unsafe { bar.init(32) };\n"
            "let other: TmaBarrier1<Uninit> = ManagedBarrier::from_static(&raw mut BAR1);\n"
            "let other = unsafe { other.init_by(1, 31) };\n"
            "let t: BarrierToken = bar.arrive();\nbar.wait(t);\n"
            "let e = other.arrive_expect_tx(256);\nlet done = other.try_wait(e) || other.test_wait(e);\n"
            "let p = bar.try_wait_parity(1);\nbar.wait_parity(0);\n"
            "let raw = bar.as_ptr();\nlet again = BarrierToken::from_raw(t.raw());\nbar.wait(again);\n"
            "let _dead = unsafe { bar.inval() };\nlet _gone = unsafe { other.inval_by(31) };\n"
            "if done && p { unsafe { mbarrier_wait(raw, again.raw()); } }")


def unsafe_kernel(params: str, body: str) -> str:
    return f"#[kernel]\npub unsafe fn k({params}) {{\n{body}\n}}\n"


def _assemble(src: str, tmp_path) -> str:
    ptx = oxide.compile(src, name="k.rs", chip="sm_90a").ptx["sm_90a"]
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    result = subprocess.run(["ptxas", "-arch=sm_90a", str(path), "-o", str(tmp_path / "k.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return ptx


def test_raw_functions_emit_the_mbarrier_ops():
    text = ir(unsafe_kernel("addr: u64, out: &mut [u64]", _RAW))
    for op in ("mbarrier_init", "mbarrier_arrive", "mbarrier_arrive_no_complete", "mbarrier_arrive_expect_tx",
               "mbarrier_expect_tx", "mbarrier_test_wait", "mbarrier_try_wait", "mbarrier_try_wait_parity",
               "mbarrier_wait", "mbarrier_wait_parity", "mbarrier_arrive_cluster", "mbarrier_inval",
               "fence_mbarrier_init"):
        assert f'"simt.{op}"(' in text, op
    for space in ("shared_cta", "shared_cluster", "global", "all"):
        assert f'"simt.fence_proxy_async"() {{space = "{space}"}}' in text
    assert "simt.inline_ptx" not in text
    # A constant count of 1 is the single-arrival form; 2 arrivals keep their count operand.
    assert text.count('"simt.mbarrier_arrive_expect_tx"(%') == 3
    assert "(!simt.ptr<i64, 3 : i64>, i32, i32) -> i64" in text


@needs_ptxas
def test_raw_functions_assemble_for_sm_90a(tmp_path):
    ptx = _assemble(unsafe_kernel("addr: u64, out: &mut [u64]", _RAW), tmp_path)
    for text in ("mbarrier.init.shared.b64", "mbarrier.arrive.noComplete.shared.b64",
                 "mbarrier.arrive.expect_tx.shared.b64", "mbarrier.expect_tx.relaxed.cta.shared.b64",
                 "mbarrier.test_wait.shared.b64", "mbarrier.try_wait.parity.shared.b64",
                 "mbarrier.arrive.release.cluster.shared::cluster.b64", "mbarrier.inval.shared.b64",
                 "fence.mbarrier_init.release.cluster;", "fence.proxy.async.shared::cta;",
                 "fence.proxy.async.shared::cluster;", "fence.proxy.async.global;", "fence.proxy.async;"):
        assert text in ptx, text


def test_managed_barrier_emits_ops_and_thread_guarded_init():
    text = ir(kernel("", _MANAGED))
    assert text.count('"simt.mbarrier_init"') == 2 and text.count('"simt.mbarrier_inval"') == 2
    # init_by/inval_by act in one thread (an scf.if on threadIdx.x) between block syncs, as in cuda-oxide.
    assert text.count("scf.if") >= 4 and text.count('"simt.sync_threads"') == 6
    assert text.count('"simt.fence_proxy_async"() {space = "shared_cta"}') == 2
    assert '"simt.mbarrier_wait_parity"' in text and '"simt.mbarrier_try_wait_parity"' in text


@needs_ptxas
def test_managed_barrier_assembles_for_sm_90a(tmp_path):
    ptx = _assemble(kernel("", _MANAGED), tmp_path)
    assert "mbarrier.init.shared.b64" in ptx and "mbarrier.arrive.expect_tx.shared.b64" in ptx
    assert "mbarrier.try_wait.shared.b64" in ptx and "bar.sync" in ptx


def test_kernel_with_mbarriers_runs_on_the_emulator_to_a_located_deadlock():
    # One thread cannot complete a phase that expects 32 arrivals: the emulator reports where it waits.
    import numpy as np

    from oxide.backend.emulator import emit_program
    from oxide.runtime.emulator import Deadlock, launch

    program = emit_program(build(unsafe_kernel("addr: u64, out: &mut [u64]", _RAW)).module, strict=False)
    with pytest.raises(Deadlock, match=r"waits for the mbarrier at shared address 0x400 .* at k.rs:\d+:\d+"):
        launch(program, "k", (1,), (1,), [np.uint64(0), np.zeros(1, np.uint64)])


def _rejects(src: str, message: str) -> None:
    with pytest.raises(OxideError, match=message):
        build(src)


@pytest.mark.parametrize("body, message", [
    (_BAR + "mbarrier_init(&raw mut BAR, 1);", r"`mbarrier_init` is unsafe"),
    (_BAR + "unsafe { fence_proxy_async_shared_cta(); }\nfence_mbarrier_init_release_cluster();",
     r"`fence_mbarrier_init_release_cluster` is unsafe"),
    (_BAR + "let t = unsafe { mbarrier_arrive(&raw const BAR, 1) };", r"`mbarrier_arrive` takes 1 argument"),
    ("static mut S: SharedArray<u32, 4> = SharedArray::UNINIT;\n"
     "unsafe { mbarrier_inval(&raw mut S as *mut u32); }", r"takes a pointer to a `Barrier` \(a 64-bit object\)"),
    ("unsafe { mbarrier_inval(p); }", r"takes a pointer to a `Barrier` in shared memory; this one is a global"),
    ("unsafe { mbarrier_inval(x); }", r"takes a raw pointer to a `Barrier` in shared memory"),
    (_BAR + "let t = unsafe { mbarrier_arrive_expect_tx(&raw const BAR) };", r"takes \(barrier, tx_bytes\)"),
    (_BAR + "unsafe { fence_proxy_async(1); }", r"`fence_proxy_async` takes no arguments"),
    (_BAR + "unsafe { mbarrier_arrive_cluster(&raw const BAR, 1); }", r"`mbarrier_arrive_cluster` takes 1"),
    (_BAR + "unsafe { mbarrier_arrive_no_complete(); }", r"`mbarrier_arrive_no_complete` takes 1"),
    (_BAR + "unsafe { mbarrier_arrive_and_wait(); }", r"`mbarrier_arrive_and_wait` takes 1"),
])
def test_raw_rejections(body, message):
    _rejects(kernel("p: *mut u64, x: u32", body), message)


_UNINIT = _BAR + "let bar = ManagedBarrier::<Uninit, GeneralBarrier>::from_static(&raw mut BAR);\n"
_READY = _UNINIT + "let bar = unsafe { bar.init(1) };\n"


@pytest.mark.parametrize("body, message", [
    (_UNINIT + "let t = bar.arrive();", r"`arrive` needs a `ManagedBarrier<Ready, _>`; this one is "
                                        r"`ManagedBarrier<Uninit, GeneralBarrier>`"),
    (_READY + "let again = unsafe { bar.init(1) };", r"`init` needs a `ManagedBarrier<Uninit, _>`"),
    (_READY + "let dead = unsafe { bar.inval() };\nlet t = dead.arrive();",
     r"`arrive` needs a `ManagedBarrier<Ready, _>`; this one is `ManagedBarrier<Invalidated, GeneralBarrier>`"),
    (_UNINIT + "let b = bar.init(1);", r"`ManagedBarrier::init` is unsafe"),
    (_READY + "let d = bar.inval_by(3);", r"`ManagedBarrier::inval_by` is unsafe"),
    (_UNINIT + "let ready = unsafe { bar.init(1) };\nlet t = bar.arrive();", r"use of moved value `bar`"),
    (_READY + "let dead = unsafe { bar.inval() };\nbar.wait_parity(0);", r"use of moved value `bar`"),
    (_UNINIT + "let moved = bar;\nlet b = unsafe { bar.init(1) };", r"use of moved value `bar`"),
    (_READY + "bar.wait(7);", r"`wait` takes the `BarrierToken` an `arrive` returned, not `"),
    (_READY + "let t = bar.arrive();\nbar.wait(t, t);", r"`wait` takes 1 argument\(s\) but 2"),
    (_BAR + "let bar = ManagedBarrier::<Uninit, Fancy>::from_static(&raw mut BAR);", r"Kind is\s+TmaBarrier"),
    (_BAR + "let bar = ManagedBarrier::<Ready, TmaBarrier>::from_static(&raw mut BAR);",
     r"`from_static` makes a `ManagedBarrier<Uninit, _>`"),
    (_BAR + "let bar = ManagedBarrier::from_static(&raw mut BAR);", r"`from_static` needs the handle's type"),
    ("let bar = ManagedBarrier::<Uninit, TmaBarrier>::from_static(p);", r"this one is a global pointer"),
    (_BAR + "let b: TmaBarrierHandle<Ready, TmaBarrier> = ManagedBarrier::from_static(&raw mut BAR);",
     r"`TmaBarrierHandle<State>` takes one state"),
    ("let t = BarrierToken::from_raw();", r"`BarrierToken::from_raw` takes 1 argument"),
])
def test_typestate_rejections(body, message):
    _rejects(kernel("p: *mut u64", body), message)


def test_a_move_in_one_branch_does_not_stop_the_other():
    body = _READY + "if p.is_null() {\nlet d = unsafe { bar.inval() };\n} else {\nlet t = bar.arrive();\n}"
    assert '"simt.mbarrier_arrive"' in ir(kernel("p: *mut u64", body))
