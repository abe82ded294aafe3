"""oxide's mutation fuzzer: seeded, deterministic mutants of the project's own inputs, run the way a user runs
them in worker subprocesses, so that a crash, a hang, a traceback, an internal error, PTX that ptxas rejects
or an emulator exception is caught and reported with its reproducer.

Mutant `index` under seed `seed` is a pure function of (seed, index): `python -m tests.fuzz --seed S
--start INDEX --inputs 1` replays one finding.
"""
