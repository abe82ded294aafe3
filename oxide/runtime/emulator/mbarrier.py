"""The mbarrier model: a 64-bit barrier object in shared memory counting arrivals and transaction bytes
through phases (PTX ISA, "mbarrier").

A phase completes when its pending arrival count and its tx count are both zero; then the phase number
advances, the pending count is reset to the expected count, and the window's bytes that the phase's TMA
loads wrote become readable. A token is the phase number an arrive happened in; a wait on it is satisfied
once that phase completed; a parity wait names the parity of the phase it waits on.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from oxide.runtime.emulator.errors import EmulatorError
from oxide.runtime.emulator.schedule import Until
from oxide.runtime.emulator.shared_window import SharedWindow

# The PTX ISA's range of an mbarrier's expected arrival count and of its tx count.
MAX_COUNT = (1 << 20) - 1
MAX_TX = (1 << 20) - 1


class MbarrierError(EmulatorError):
    """An mbarrier used wrongly (uninitialised, invalidated, counts out of range); a rule re-raises it
    located at the op."""


@dataclass
class Mbarrier:
    """One mbarrier at shared address `address` of `window`."""

    address: int
    window: SharedWindow | None = None
    expected: int = 0
    pending: int = 0
    tx: int = 0
    phase: int = 0
    state: str = "uninitialised"  # or "valid", "invalidated"
    waiters: list[Any] = field(default_factory=list)

    def _valid(self, what: str) -> None:
        if self.state != "valid":
            raise MbarrierError(f"{what} on the {self.state} mbarrier at shared address {self.address:#x} "
                                "(initialise it with mbarrier init first)" if self.state == "uninitialised" else
                                f"{what} on the invalidated mbarrier at shared address {self.address:#x}")

    def init(self, count: int) -> None:
        if not 1 <= count <= MAX_COUNT:
            raise MbarrierError(f"mbarrier init with count {count}: the expected arrival count is 1 to {MAX_COUNT}")
        self.expected = self.pending = count
        self.tx, self.phase, self.state = 0, 0, "valid"

    def inval(self) -> None:
        self._valid("mbarrier inval")
        self.state = "invalidated"

    def arrive(self, count: int = 1) -> int:
        """Arrive `count` times; the token is the phase arrived in."""
        self._valid("mbarrier arrive")
        if not 1 <= count <= self.pending:
            raise MbarrierError(f"mbarrier arrive with count {count} on the mbarrier at shared address "
                                f"{self.address:#x}, which waits for {self.pending} more arrivals this phase")
        token = self.phase
        self.pending -= count
        self._maybe_complete()
        return token

    def expect_tx(self, nbytes: int) -> None:
        self._valid("mbarrier expect_tx")
        self._move_tx(nbytes, f"mbarrier expect_tx of {nbytes} bytes")

    def complete_tx(self, nbytes: int) -> None:
        """A TMA copy's bytes arrived. The tx count may go below zero for a while (PTX allows down to
        -(2^20 - 1)): a copy issued before its expect_tx, as kernels commonly do, completes first here."""
        self._valid("a TMA copy's complete_tx")
        self._move_tx(-nbytes, f"a TMA copy completing {nbytes} bytes")
        self._maybe_complete()

    def _move_tx(self, delta: int, what: str) -> None:
        if not -MAX_TX <= self.tx + delta <= MAX_TX:
            raise MbarrierError(f"{what} takes the tx count of the mbarrier at shared address {self.address:#x} "
                                f"out of range (now {self.tx}; the range is +-{MAX_TX})")
        self.tx += delta

    def _maybe_complete(self) -> None:
        if self.pending == 0 and self.tx == 0:
            self.phase += 1
            self.pending = self.expected
            if self.window is not None:
                self.window.complete(self.address)

    def test_wait(self, token: int) -> bool:
        """Whether the phase of `token` has completed."""
        self._valid("a wait on a phase token")
        return token < self.phase

    def test_wait_parity(self, parity: int) -> bool:
        """Whether the phase of parity `parity` (the current one or the one before it) has completed."""
        self._valid("a parity wait")
        return (self.phase & 1) != (parity & 1)

    def encode(self) -> int:
        """The 64-bit state word (phase parity in bit 63, tx count, pending and expected counts)."""
        return ((self.phase & 1) << 63) | (self.tx << 42) | (self.pending << 21) | self.expected

    def describe(self, parity: int | None = None, token: int | None = None) -> str:
        phase = f"phase {token}" if token is not None else f"the phase of parity {parity}"
        text = (f"the mbarrier at shared address {self.address:#x} to complete {phase} (now in phase {self.phase}: "
                f"{self.pending} of {self.expected} arrivals and {self.tx} transaction bytes outstanding)")
        if self.pending == 0 and self.tx != 0:
            text += ("; every arrival is in, but the tx count never reaches zero: the copies completed "
                     f"{'fewer' if self.tx > 0 else 'more'} bytes than expect_tx announced")
        return text


class Mbarriers:
    """A block's mbarriers by shared address (an address not yet initialised is an uninitialised one)."""

    def __init__(self, window: SharedWindow | None = None):
        self.window = window
        self.by_address: dict[int, Mbarrier] = {}

    def at(self, address: int) -> Mbarrier:
        if address % 8:
            raise MbarrierError(f"an mbarrier is 8-byte aligned: shared address {address:#x} is not")
        if self.window is not None:
            self.window.view(address, np.uint64, 1)  # inside the window
        barrier = self.by_address.get(address)
        if barrier is None:
            barrier = self.by_address[address] = Mbarrier(address, self.window)
        return barrier


def wait_parity(barrier: Mbarrier, parity: int, mask: Any, loc: int) -> Until:
    """What a warp yields to wait for the phase of `parity` (scheduled mode): ready once it completed.
    A wait on an invalidated barrier fails at the wait."""
    barrier.test_wait_parity(parity)
    return Until(mask, loc, lambda: barrier.test_wait_parity(parity), lambda: barrier.describe(parity=parity))


def wait_token(barrier: Mbarrier, token: int, mask: Any, loc: int) -> Until:
    """What a warp yields to wait for the phase of `token` to complete."""
    barrier.test_wait(token)
    return Until(mask, loc, lambda: barrier.test_wait(token), lambda: barrier.describe(token=token))
