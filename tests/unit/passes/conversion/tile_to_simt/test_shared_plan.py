"""The block's shared-memory plan (shared_plan.py): static arrays stay static within 48 KiB, move into the
dynamic shared memory after the ring beyond it (at offsets of their alignment), and a plan past the chip's
opt-in limit is refused naming both numbers."""

from __future__ import annotations

from oxide.passes.conversion.tile_to_simt.shared_plan import MAX_STATIC_SHARED, SharedArray, check_shared, plan_shared
from oxide.target import Target


def _array(nbytes: int, align: int = 16, movable: bool = True) -> SharedArray:
    return SharedArray(None, nbytes, align, movable)  # type: ignore[arg-type]


def test_arrays_within_48_kib_stay_static_beside_the_ring():
    arrays = [_array(32768), _array(16384)]
    plan = plan_shared(arrays, ring=100000)
    assert plan.moved == () and plan.static == MAX_STATIC_SHARED
    assert plan.dynamic == 100000 and plan.total == 100000 + MAX_STATIC_SHARED
    assert check_shared(plan, Target("sm_90a"), stages=4) is None


def test_arrays_past_48_kib_move_after_the_ring_at_aligned_offsets():
    scratch, barriers, box = _array(40000, 16), _array(64, 8), _array(16384, 1024)
    plan = plan_shared([scratch, barriers, box], ring=1000)
    # Largest alignment first: the box at the first 1024-byte boundary after the ring, then the scratch, then
    # the mbarriers.
    assert plan.moved == ((box, 1024), (scratch, 1024 + 16384), (barriers, 1024 + 16384 + 40000))
    assert plan.static == 0 and plan.dynamic == 1024 + 16384 + 40000 + 64
    assert check_shared(plan, Target("sm_80"), stages=None) is None


def test_arrays_whose_address_escapes_stay_static():
    kept, moved = _array(30000, movable=False), _array(30000)
    plan = plan_shared([kept, moved], ring=0)
    assert plan.moved == ((moved, 0),) and plan.static == 30000 and plan.total == 60000


def test_a_plan_past_the_chips_limit_is_refused_naming_both_numbers():
    plan = plan_shared([_array(120 * 1024)], ring=0)
    assert check_shared(plan, Target("sm_90a"), stages=None) is None  # 227 KiB on sm_90
    problem = check_shared(plan, Target("sm_86"), stages=None)  # 99 KiB on sm_86
    assert problem is not None and f"needs {120 * 1024} bytes" in problem and f"the {99 * 1024} a block of sm_86" \
        in problem and "smaller tiles" in problem
    assert check_shared(plan_shared([_array(60 * 1024)], ring=0), Target("sm_75"), stages=None) is not None


def test_a_gemm_ring_past_the_limit_asks_for_fewer_stages():
    plan = plan_shared([_array(40000)], ring=200000)
    problem = check_shared(plan, Target("sm_90a"), stages=5)
    assert problem is not None and "beside its GEMM's 5-stage ring of 200000 bytes" in problem
    assert "knob stages=4" in problem


def test_static_arrays_that_cannot_move_past_48_kib_are_refused():
    plan = plan_shared([_array(50000, movable=False)], ring=0)
    problem = check_shared(plan, Target("sm_90a"), stages=None)
    assert problem is not None and "50000 bytes of static shared memory" in problem and "49152" in problem
