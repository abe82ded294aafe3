"""oxide.target: the one Target, its validation and the capabilities its chip has."""

import pytest

from oxide.diagnostics import OxideError
from oxide.target import DEFAULT_CHIP, Target


def test_default_and_derived_features():
    assert Target().chip == DEFAULT_CHIP
    assert Target("sm_80").features == "+ptx70" and Target("sm_90a").features == "+ptx80"
    assert Target("sm_80", "+ptx85").ptx_isa == 85
    assert Target("sm_80") == Target("sm_80", "+ptx70")  # made equal however it was spelt


@pytest.mark.parametrize("chip, features, opt, message", [
    ("sm_13", "", 3, "unknown GPU architecture 'sm_13'"),
    ("gfx90a", "", 3, "unknown GPU architecture 'gfx90a'"),
    ("sm_90", "ptx80", 3, r"PTX features must look like \+ptx80"),
    ("sm_90", "", 4, "optimisation level must be 0 to 3, got 4"),
])
def test_invalid_targets_are_refused(chip, features, opt, message):
    with pytest.raises(OxideError, match=message):
        Target(chip, features, opt)


def test_capabilities_follow_the_chip():
    sm75, sm80, sm89, sm90, sm90a, sm100a = (Target(c) for c in ("sm_75", "sm_80", "sm_89", "sm_90", "sm_90a",
                                                                 "sm_100a"))
    assert (sm90a.sm, sm90a.arch_specific, sm90.arch_specific) == (90, True, False)
    assert [t.tensor_cores for t in (sm75, sm80, sm90, sm90a, sm100a)] == [None, "mma.sync", "mma.sync", "wgmma",
                                                                           "mma.sync"]
    assert (sm80.has_tma, sm90.has_tma, sm80.has_clusters, sm90.has_clusters) == (False, True, False, True)
    assert (sm75.has_bf16, sm80.has_bf16, sm80.has_fp8, sm89.has_fp8) == (False, True, False, True)
