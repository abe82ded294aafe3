"""Tiny stand-in oracles for the fuzzer's own tests: each input's text says how to misbehave, so the tests
check that the parent classifies a crash, a hang and an escaped exception without needing an oxide bug."""

from __future__ import annotations

import ctypes
import os
import re
import time
from pathlib import Path

from tests.fuzz.outcome import ACCEPTED, FAILED, UNCAUGHT, Finding, Outcome


def spin_forever() -> None:
    """Loop until killed (what a hang looks like)."""
    while True:
        time.sleep(0.01)


def misbehave(path: Path) -> Outcome:
    """abort, segfault, hang, raise, or accept, as the input says."""
    text = path.read_text(encoding="utf-8")
    if text == "abort":
        os.abort()
    if text == "segfault":
        ctypes.string_at(0)
    if text == "hang":
        spin_forever()
    if text == "raise":
        raise KeyError("escaped")
    return Outcome(ACCEPTED)


def fail_on_words(path: Path) -> Outcome:
    """A finding while the input holds the word `boom` (its signature changes when `keep` is there too), a
    real abort while it holds `abort`, a real hang while it holds `hang`; anything else is accepted. The
    reducer's tests shrink around these."""
    words = path.read_text(encoding="utf-8").split()
    if "abort" in words:
        os.abort()
    if "hang" in words:
        spin_forever()
    if "boom" in words:
        return Outcome(FAILED, [Finding(UNCAUGHT, "boom with keep" if "keep" in words else "boom")])
    return Outcome(ACCEPTED)


def fail_on_fn(path: Path) -> Outcome:
    """A finding for every input with a Rust `fn` in it: a whole fuzz run's worth of findings in one bucket."""
    if re.search(r"\bfn\b", path.read_text(encoding="utf-8")):
        return Outcome(FAILED, [Finding(UNCAUGHT, "a function")])
    return Outcome(ACCEPTED)
