"""The corpus and the mutants: deterministic by (seed, index), and every mutator changes its input."""

import random

import pytest

from tests.fuzz.corpus import load_corpus
from tests.fuzz.generate import Generator
from tests.fuzz.mutators import MUTATORS
from tests.fuzz.tokens import tokenize

RUST = """#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let i = thread::index_1d(); // index
    if let Some(o) = out.get_mut(i) { *o = x[i.get()] * 2.5 + 1.0; }
}
"""
MLIR = """func.func @f(%p: !simt.ptr<i32, 1>, %x: i32) {
  %0 = "simt.atomic_load"(%p) {scope = "device", ordering = "relaxed"} : (!simt.ptr<i32, 1>) -> i32
  return
}
"""


@pytest.fixture(scope="module")
def generator() -> Generator:
    return Generator()


def test_corpus_has_rust_and_mlir_seeds_in_a_fixed_order():
    corpus = load_corpus()
    assert {s.suffix for s in corpus} == {".rs", ".mlir"}
    assert any(s.origin.startswith("examples/tile/") for s in corpus)
    assert [s.origin for s in corpus] == sorted(s.origin for s in corpus)
    assert all("// -----" not in s.text for s in corpus)


def test_mutant_is_a_function_of_seed_and_index(generator: Generator):
    again = Generator()
    assert [generator.mutant(7, i) for i in range(50)] == [again.mutant(7, i) for i in range(50)]
    assert generator.mutant(7, 3) != generator.mutant(8, 3)
    assert len({generator.mutant(7, i).text for i in range(50)}) > 40


def test_mutant_differs_from_its_seed(generator: Generator):
    by_origin = {s.origin: s.text for s in generator.corpus}
    for i in range(200):
        m = generator.mutant(1, i)
        assert m.text != by_origin[m.origin] and 1 <= len(m.mutations)


@pytest.mark.parametrize("name", sorted(MUTATORS))
@pytest.mark.parametrize("suffix,text", [(".rs", RUST), (".mlir", MLIR)])
def test_each_mutator_changes_the_input(name: str, suffix: str, text: str):
    rng, vocab = random.Random(name), ["foo", "(", "i64", "%z"]
    results = [MUTATORS[name](text, suffix, rng, vocab) for _ in range(20)]
    changed = [r for r in results if r is not None]
    assert changed, f"{name} never applied to {suffix}"
    assert all(r != text for r in changed)


def test_lexer_keeps_literals_and_comments_whole():
    kinds = {t.text: t.kind for t in tokenize(RUST, ".rs")}
    assert kinds["2.5"] == "number" and kinds["// index"] == "comment" and kinds["get_mut"] == "ident"
    mlir = {t.text: t.kind for t in tokenize(MLIR, ".mlir")}
    assert mlir['"simt.atomic_load"'] == "string" and mlir["!simt.ptr"] == "ident" and mlir["%p"] == "ident"
