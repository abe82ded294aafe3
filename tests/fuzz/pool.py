"""Worker subprocesses and the parent's watch over them: one input in flight per worker, a time limit per
input, and a dead or hung worker turned into a finding (crash with its signal and last words, hang with the
stack it was stuck in) and replaced by a fresh one."""

from __future__ import annotations

import json
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from tests.fuzz.outcome import CRASH, FAILED, HANG, Finding, Outcome
from tests.fuzz.signature import crash_signature, stack_location
from tests.fuzz.worker import DEFAULT_ORACLE

REPO = Path(__file__).resolve().parents[2]
STARTUP_LIMIT_S = 120.0
STACK_DUMP_WAIT_S = 1.0
DETAIL_CHARS = 3000


@dataclass(frozen=True)
class Job:
    """One input for a worker: a key the caller chooses (the mutant index), a file name and its text."""

    key: Any
    name: str
    text: str


@dataclass(eq=False)  # compared and hashed by identity: one object per process
class Worker:
    """One worker process, its stderr log, and the job it is running (with its deadline)."""

    process: subprocess.Popen[str]
    log: IO[str]
    job: Job | None = None
    deadline: float = 0.0
    log_offset: int = 0
    started: float = field(default_factory=time.monotonic)

    def stderr_since(self) -> str:
        """What the worker wrote to stderr since its current job started."""
        self.log.flush()
        with open(self.log.name, encoding="utf-8", errors="replace") as f:
            f.seek(self.log_offset)
            return f.read()


class Pool:
    """`jobs` workers running `oracle` (module:function) with `time_limit_s` per input."""

    def __init__(self, jobs: int, time_limit_s: float, oracle: str = DEFAULT_ORACLE):
        self.jobs, self.time_limit_s, self.oracle = max(1, jobs), time_limit_s, oracle
        self.workers: list[Worker] = []
        self.restarts = 0

    def __enter__(self) -> "Pool":
        return self

    def __exit__(self, *_: object) -> None:
        for worker in self.workers:
            self._stop(worker)
        self.workers.clear()

    def _start(self) -> Worker:
        log = tempfile.NamedTemporaryFile("w+", prefix="oxide-fuzz-worker-", suffix=".log", delete=False)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
               "PYTHONFAULTHANDLER": "1", "OXIDE_DEBUG": ""}
        process = subprocess.Popen([sys.executable, "-m", "tests.fuzz.worker", "--oracle", self.oracle],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True,
                                   encoding="utf-8", cwd=REPO, env=env, bufsize=1)
        worker = Worker(process, log)
        ready = self._read_line(worker, time.monotonic() + STARTUP_LIMIT_S)
        if not ready or not json.loads(ready).get("ready"):  # None: no line in time; "": the worker exited
            self._stop(worker)
            raise RuntimeError(f"a fuzz worker did not start:\n{worker.stderr_since()[-DETAIL_CHARS:]}")
        return worker

    @staticmethod
    def _read_line(worker: Worker, deadline: float) -> str | None:
        assert worker.process.stdout is not None
        with selectors.DefaultSelector() as sel:
            sel.register(worker.process.stdout, selectors.EVENT_READ)
            if not sel.select(max(0.0, deadline - time.monotonic())):
                return None
        return worker.process.stdout.readline()

    def _stop(self, worker: Worker) -> None:
        if worker.process.poll() is None:
            worker.process.kill()
        worker.process.wait()
        for stream in (worker.process.stdin, worker.process.stdout):
            if stream is not None:
                stream.close()
        worker.log.close()
        os.unlink(worker.log.name)

    def _send(self, worker: Worker, job: Job) -> None:
        assert worker.process.stdin is not None
        worker.log.flush()
        worker.log_offset = os.path.getsize(worker.log.name)
        worker.job, worker.deadline = job, time.monotonic() + self.time_limit_s
        worker.process.stdin.write(json.dumps({"name": job.name, "text": job.text}) + "\n")
        worker.process.stdin.flush()

    def _died(self, worker: Worker) -> Outcome:
        status = worker.process.wait()
        stderr = worker.stderr_since()
        how = f"killed by {signal.Signals(-status).name}" if status < 0 else f"exit status {status}"
        return Outcome(FAILED, [Finding(CRASH, f"{how}: {crash_signature(stderr)}", stderr[-DETAIL_CHARS:])])

    def _hung(self, worker: Worker) -> Outcome:
        worker.process.send_signal(signal.SIGUSR1)  # faulthandler dumps the stack it is stuck in
        time.sleep(STACK_DUMP_WAIT_S)
        worker.process.kill()
        worker.process.wait()
        stderr = worker.stderr_since()
        # The function, not the line: a loop is caught at a different line each time.
        where = stack_location(stderr, with_line=False) or "outside oxide"
        return Outcome(FAILED, [Finding(HANG, f"over the time limit in {where}", stderr[-DETAIL_CHARS:])])

    def _replace(self, worker: Worker) -> None:
        self._stop(worker)
        self.workers[self.workers.index(worker)] = self._start()
        self.restarts += 1

    def run(self, jobs: Iterable[Job]) -> Iterator[tuple[Job, Outcome]]:
        """Run every job; yield (job, outcome) as they finish (not in order)."""
        pending = iter(jobs)
        while len(self.workers) < self.jobs:
            self.workers.append(self._start())
        exhausted = False
        with selectors.DefaultSelector() as sel:
            while True:
                for worker in self.workers:
                    if worker.job is None and not exhausted:
                        job = next(pending, None)
                        if job is None:
                            exhausted = True
                        else:
                            self._send(worker, job)
                busy = [w for w in self.workers if w.job is not None]
                if not busy:
                    return
                for key in list(sel.get_map().values()):
                    sel.unregister(key.fileobj)
                for worker in busy:
                    sel.register(worker.process.stdout, selectors.EVENT_READ, worker)  # type: ignore[arg-type]
                timeout = max(0.0, min(w.deadline for w in busy) - time.monotonic())
                ready = {key.data for key, _ in sel.select(timeout)}
                for worker in busy:
                    job = worker.job
                    assert job is not None
                    if worker in ready:
                        assert worker.process.stdout is not None
                        line = worker.process.stdout.readline()
                        try:
                            outcome = Outcome.from_json(json.loads(line))
                        except (ValueError, KeyError):  # EOF or a reply cut short: the worker died
                            outcome = self._died(worker)
                            sel.unregister(worker.process.stdout)
                            self._replace(worker)
                    elif time.monotonic() >= worker.deadline:
                        sel.unregister(worker.process.stdout)
                        outcome = self._hung(worker)
                        self._replace(worker)
                    else:
                        continue
                    worker.job = None
                    yield job, outcome
