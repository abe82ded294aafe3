"""The GPU a kernel is compiled for: one typed Target (chip, PTX features, LLVM optimisation level) that travels
from the command line to PTX as an object, and the capabilities its chip has.

It sits below the passes: a pass takes a Target as an option object (`convert-simt-to-nvvm{chip=sm_80}` is
parsed into one at the pipeline parser), and every question about the chip (is it sm_80 or newer? does it
have wgmma?) is a property here, never a parse of the chip's name elsewhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from oxide.diagnostics import OxideError

# The chip compiled for when none is named (the command lines, the Python API, pass and pipeline options).
DEFAULT_CHIP = "sm_90"

_CHIP = re.compile(r"sm_(\d+)([af]?)")
_FEATURES = re.compile(r"\+ptx(\d+)")
# The lowest PTX ISA that supports each architecture family (PTX ISA release notes); newer also works.
# Element types only Blackwell's tensor cores read (the block scales and fp4 data of mxfp8 / nvfp4 `mmaf_scaled`):
# no sm_90 instruction takes them, so they exist from sm_100 on.
_ELEMENT_MIN_SM = {"f8e8m0fnu": 100, "f4e2m1fn": 100, "f4e2m1fnx2": 100}
_MIN_PTX = {50: 40, 60: 50, 70: 60, 75: 63, 80: 70, 86: 71, 87: 74, 89: 78, 90: 80, 100: 86, 103: 88, 110: 90, 120: 87, 121: 88}


@dataclass(frozen=True)
class Target:
    """An NVIDIA target: `chip` (sm_90, sm_90a, ...), PTX `features` (+ptx80; by default the lowest PTX ISA
    that supports the chip) and LLVM `opt_level` (0-3). Invalid values raise OxideError when it is made."""

    chip: str = DEFAULT_CHIP
    features: str = ""
    opt_level: int = 3

    def __post_init__(self) -> None:
        match = _CHIP.fullmatch(self.chip)
        if not match or int(match.group(1)) not in _MIN_PTX:
            known = ", ".join(f"sm_{n}" for n in sorted(_MIN_PTX))
            raise OxideError(f"unknown GPU architecture '{self.chip}' (known: {known}, with an optional a/f suffix)")
        if not 0 <= self.opt_level <= 3:
            raise OxideError(f"optimisation level must be 0 to 3, got {self.opt_level}")
        if not self.features:
            object.__setattr__(self, "features", f"+ptx{_MIN_PTX[int(match.group(1))]}")
        elif not _FEATURES.fullmatch(self.features):
            raise OxideError(f"PTX features must look like +ptx80, got '{self.features}'")

    @property
    def sm(self) -> int:
        """The compute capability as a number: sm_90a -> 90."""
        return int(_CHIP.fullmatch(self.chip).group(1))  # type: ignore[union-attr]

    @property
    def arch_specific(self) -> bool:
        """Whether the chip has the `a` suffix (sm_90a): its arch-specific instructions (wgmma, setmaxnreg)
        may be used, and the PTX runs on that architecture only."""
        return self.chip.endswith("a")

    @property
    def ptx_isa(self) -> int:
        """The PTX ISA version the features name, times ten: +ptx80 -> 80."""
        return int(_FEATURES.fullmatch(self.features).group(1))  # type: ignore[union-attr]

    @property
    def tensor_cores(self) -> str | None:
        """The tensor-core instructions the tile lowering can use: "wgmma" on sm_90a (warpgroup MMA is
        arch-specific), "mma.sync" (with ldmatrix, f16/bf16 operands) from sm_80, else None."""
        if self.sm == 90 and self.arch_specific:
            return "wgmma"
        return "mma.sync" if self.sm >= 80 else None

    @property
    def shared_memory_per_block(self) -> int:
        """The most shared memory one block may use (static plus opted-in dynamic), in bytes: 227 KiB on sm_90,
        163 KiB on sm_80/sm_87, 99 KiB on sm_86/sm_89, 48 KiB before sm_80 (what CUDA lets a block declare)."""
        if self.sm >= 90:
            return 227 * 1024
        if self.sm in (80, 87):
            return 163 * 1024
        if self.sm >= 86:
            return 99 * 1024
        return 48 * 1024

    @property
    def has_tma(self) -> bool:
        """Tensor memory access (cp.async.bulk.tensor with mbarrier tx counts): sm_90 and newer."""
        return self.sm >= 90

    @property
    def has_clusters(self) -> bool:
        """Thread-block clusters (the %cluster_* registers, distributed shared memory): sm_90 and newer."""
        return self.sm >= 90

    @property
    def has_bf16(self) -> bool:
        """bf16 conversions and tensor-core operands: sm_80 and newer."""
        return self.sm >= 80

    @property
    def has_fp8(self) -> bool:
        """fp8 (e4m3/e5m2) conversions: sm_89 and newer."""
        return self.sm >= 89

    def element_type_missing(self, name: str) -> int | None:
        """The compute capability that first has element type `name` (a Rust spelling such as `f8e8m0fnu`) when
        this chip lacks it; None when the chip has it or the name is no chip-specific element type."""
        needs = _ELEMENT_MIN_SM.get(name)
        return needs if needs is not None and self.sm < needs else None
