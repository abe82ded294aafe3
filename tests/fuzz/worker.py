"""A fuzz worker: imports oxide once, then examines input after input sent by the parent over stdin (one JSON
line each: file name and text) and answers each with one JSON line (the Outcome).

The protocol runs on a private copy of stdout; fd 1 itself goes to stderr, so that whatever MLIR or LLVM
print cannot corrupt it. faulthandler writes the Python stack to stderr on a fatal signal, and on SIGUSR1
(the parent asks for it before killing a hung worker), which is how a crash or hang gets its oxide frame.
"""

from __future__ import annotations

import argparse
import faulthandler
import importlib
import json
import os
import signal
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from tests.fuzz.outcome import FAILED, UNCAUGHT, Finding, Outcome
from tests.fuzz.signature import exception_signature

DEFAULT_ORACLE = "tests.fuzz.oracle:examine"


def load_oracle(spec: str) -> Callable[[Path], Outcome]:
    """The oracle function named `module:function`, after the module's `warm_up()` if it has one (imports
    and first-time setup must not count against the first input's time limit)."""
    module_name, _, name = spec.partition(":")
    module = importlib.import_module(module_name)
    if hasattr(module, "warm_up"):
        module.warm_up()
    return getattr(module, name)


def serve(oracle: Callable[[Path], Outcome], requests: TextIO, replies: TextIO) -> None:
    """Answer requests until stdin closes."""
    with tempfile.TemporaryDirectory(prefix="oxide-fuzz-") as tmp:
        for line in requests:
            request = json.loads(line)
            path = Path(tmp) / request["name"]
            path.write_text(request["text"], encoding="utf-8")
            try:
                outcome = oracle(path)
            except Exception as exc:  # noqa: BLE001 - the oracle's own escape is a finding too
                outcome = Outcome(FAILED, [Finding(UNCAUGHT, exception_signature(exc), repr(exc)[:2000])])
            finally:
                path.unlink(missing_ok=True)
            replies.write(json.dumps(outcome.to_json()) + "\n")
            replies.flush()


def main() -> None:
    """Worker entry point (`python -m tests.fuzz.worker --oracle module:function`)."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--oracle", default=DEFAULT_ORACLE)
    args = parser.parse_args()
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    faulthandler.enable(sys.stderr)
    faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=False)
    oracle = load_oracle(args.oracle)
    replies.write(json.dumps({"ready": True}) + "\n")
    replies.flush()
    serve(oracle, sys.stdin, replies)


if __name__ == "__main__":
    main()
