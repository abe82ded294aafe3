"""Mutant (seed, index): a seed input picked and mutated 1-3 times (mostly once) by a Random seeded from
both numbers, so a finding is reproduced by (seed, index) alone."""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cached_property

from tests.fuzz.corpus import Seed, load_corpus
from tests.fuzz.mutators import MUTATORS
from tests.fuzz.tokens import tokenize

MAX_VOCAB_TOKEN = 40  # long tokens (doc strings) add size, not variety
# Most lit and rejection seeds are invalid on purpose; mutants of the examples, which compile, reach the
# lowering, ptxas and the emulator, where the worst bugs live.
EXAMPLE_WEIGHT = 5
# How often a mutant has 1, 2 or 3 mutations: one mutation keeps more mutants valid enough to reach the
# backend; several make the odd combinations.
MUTATION_COUNT_WEIGHTS = (6, 3, 1)


@dataclass(frozen=True)
class Mutant:
    """One fuzz input: (seed, index), the seed input it came from, the mutations applied, the text."""

    seed: int
    index: int
    origin: str
    suffix: str
    mutations: tuple[str, ...]
    text: str

    @property
    def stem(self) -> str:
        """A file name stem that says where the input came from."""
        base = self.origin.rsplit("/", 1)[-1].split("#")[0].rsplit(".", 1)[0]
        return "".join(c if c.isalnum() or c in "_-" else "_" for c in base) or "input"


class Generator:
    """Mutants of one corpus; the vocabulary (every non-comment token, per suffix) is computed once."""

    def __init__(self, corpus: list[Seed] | None = None):
        self.corpus = corpus if corpus is not None else load_corpus()

    @cached_property
    def weights(self) -> list[int]:
        """How likely each seed is to be picked."""
        return [EXAMPLE_WEIGHT if s.origin.startswith("examples/") else 1 for s in self.corpus]

    @cached_property
    def vocab(self) -> dict[str, list[str]]:
        """Sorted distinct tokens of the corpus, per suffix."""
        found: dict[str, set[str]] = {}
        for s in self.corpus:
            found.setdefault(s.suffix, set()).update(
                t.text for t in tokenize(s.text, s.suffix) if t.kind != "comment" and len(t.text) <= MAX_VOCAB_TOKEN)
        return {suffix: sorted(tokens) for suffix, tokens in found.items()}

    def mutant(self, seed: int, index: int) -> Mutant:
        """Mutant `index` under `seed`: always different from the seed input it came from."""
        rng = random.Random(f"oxide-fuzz:{seed}:{index}")
        source = rng.choices(self.corpus, self.weights)[0]
        vocab = self.vocab[source.suffix]
        text, applied = source.text, []
        wanted = rng.choices((1, 2, 3), weights=MUTATION_COUNT_WEIGHTS)[0]
        names = sorted(MUTATORS)
        while len(applied) < wanted or text == source.text:
            name = rng.choice(names)
            changed = MUTATORS[name](text, source.suffix, rng, vocab)
            if changed is not None and changed != text:
                text = changed
                applied.append(name)
        return Mutant(seed, index, source.origin, source.suffix, tuple(applied), text)
