"""The GPU a kernel is compiled for: chip, PTX features and LLVM optimisation level."""

from __future__ import annotations

import re
from dataclasses import dataclass

from oxide.ir.diagnostics import OxideError

_CHIP = re.compile(r"sm_(\d+)([af]?)")
# The lowest PTX ISA that supports each architecture family (PTX ISA release notes); newer also works.
_MIN_PTX = {50: 40, 60: 50, 70: 60, 75: 63, 80: 70, 86: 71, 87: 74, 89: 78, 90: 80, 100: 86, 103: 88, 110: 90, 120: 87, 121: 88}


@dataclass(frozen=True)
class Target:
    """An NVIDIA target: `chip` (sm_90, sm_90a, ...), PTX `features` (+ptx80) and LLVM `opt_level` (0-3)."""

    chip: str = "sm_90"
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
        elif not re.fullmatch(r"\+ptx\d+", self.features):
            raise OxideError(f"PTX features must look like +ptx80, got '{self.features}'")

    @property
    def sm(self) -> int:
        """The compute capability as a number: sm_90a -> 90."""
        return int(_CHIP.fullmatch(self.chip).group(1))  # type: ignore[union-attr]
