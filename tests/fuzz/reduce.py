"""Delta reduction of a bucket's reproducer: ddmin over lines (halves, quarters, ... single lines), then over
the tokens that remain, and last the whitespace the removed tokens left, keeping a removal only when the
smaller input still gives a finding with the same bucket signature. Candidates run through the fuzzer's own
worker pool, so a crash or a hang while reducing is caught the same way and under the same time limit as
while fuzzing; a budget of oracle calls bounds it.

Candidates are tried in a fixed order and the first that still fails is kept (a batch of `jobs` runs at a
time, and the lowest failing one in the batch wins), so the result does not depend on which worker finishes
first.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.fuzz.pool import Job, Pool
from tests.fuzz.tokens import tokenize

DEFAULT_MAX_CALLS = 200


@dataclass(frozen=True)
class Reduction:
    """The smallest input found that still fails in the bucket, and the oracle calls it took."""

    text: str
    calls: int


class _Reducer:
    """Tests candidates of one input against one bucket signature, caching answers and counting calls."""

    def __init__(self, pool: Pool, name: str, bucket: str, max_calls: int):
        self.pool, self.name, self.bucket, self.max_calls = pool, name, bucket, max_calls
        self.calls = 0
        self.answers: dict[str, bool] = {}

    @property
    def spent(self) -> bool:
        """Whether the budget of oracle calls is used up."""
        return self.calls >= self.max_calls

    def first_failing(self, texts: Sequence[str]) -> int | None:
        """The index of the first text (in order) that still fails in the bucket; None if none does or the
        budget ran out before one was found."""
        for begin in range(0, len(texts), self.pool.jobs):
            batch = range(begin, min(begin + self.pool.jobs, len(texts)))
            # Distinct untried texts only: removing different chunks can leave the same text (repeated lines).
            fresh = list(dict.fromkeys(texts[i] for i in batch if texts[i] not in self.answers))
            fresh = fresh[:self.max_calls - self.calls]
            self.calls += len(fresh)
            for job, outcome in self.pool.run(Job(i, self.name, text) for i, text in enumerate(fresh)):
                self.answers[job.text] = any(f.bucket == self.bucket for f in outcome.findings)
            for i in batch:
                answer = self.answers.get(texts[i])
                if answer:
                    return i
                if answer is None:  # not run: the budget is spent
                    return None
        return None

    def ddmin(self, count: int, render: Callable[[list[int]], str]) -> list[int]:
        """The pieces (indices into `count`) left after removing chunks of halving size for as long as the
        rendered rest still fails: classic ddmin, by complements."""
        kept = list(range(count))
        parts = 2
        while len(kept) > 1 and not self.spent:
            size = -(-len(kept) // parts)
            rests = [kept[:start] + kept[start + size:] for start in range(0, len(kept), size)]
            found = self.first_failing([render(rest) for rest in rests])
            if found is not None:
                kept, parts = rests[found], max(parts - 1, 2)
            elif parts >= len(kept):
                break
            else:
                parts = min(parts * 2, len(kept))
        return kept


def _by_lines(reducer: _Reducer, text: str) -> str:
    lines = text.splitlines(keepends=True)
    kept = reducer.ddmin(len(lines), lambda rest: "".join(lines[i] for i in rest))
    return "".join(lines[i] for i in kept)


def _by_tokens(reducer: _Reducer, text: str, suffix: str) -> str:
    # Whitespace and comments' surroundings stay put, so removing a token never glues its neighbours
    # together into a different token.
    tokens = tokenize(text, suffix)
    gaps = [text[prev.end if prev else 0:tok.start] for prev, tok in zip([None, *tokens], tokens)]
    tail = text[tokens[-1].end:] if tokens else text

    def render(rest: list[int]) -> str:
        keep = set(rest)
        return "".join(gap + (tok.text if i in keep else "") for i, (gap, tok) in enumerate(zip(gaps, tokens))) + tail

    return render(reducer.ddmin(len(tokens), render))


def _tidied(reducer: _Reducer, text: str) -> str:
    # Removed tokens leave their whitespace behind (indentation included: it no longer matches any nesting);
    # one more call checks the input without it.
    lines = [re.sub(r"\s{2,}", " ", line).strip() for line in text.splitlines()]
    tidy = "".join(line + "\n" for line in lines if line)
    if tidy == text or reducer.spent or reducer.first_failing([tidy]) is None:
        return text
    return tidy


def reduce(pool: Pool, text: str, name: str, bucket: str, max_calls: int = DEFAULT_MAX_CALLS) -> Reduction:
    """Shrink `text` (run as file `name`, whose suffix picks the lexer) while it still fails in `bucket`,
    with at most `max_calls` oracle calls."""
    reducer = _Reducer(pool, name, bucket, max_calls)
    reduced = _by_lines(reducer, text)
    reduced = _by_tokens(reducer, reduced, Path(name).suffix)
    reduced = _tidied(reducer, reduced)
    return Reduction(reduced, reducer.calls)
