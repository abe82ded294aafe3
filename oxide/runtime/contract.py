"""Launch contracts at run time: the once-per-configuration preparation against the live device and
function, and the per-launch `requires` relations over the actual argument values.

Preparation (`prepare`) checks what cuda-oxide's PreparedLaunch checks: no zero extent; the launch rank equals
the contract's `domain`; the exact `block` or the launch-bounds maximum; `coordinates = u32` ranges; the
dynamic shared memory (exact, range, alignment) and the device's shared-memory limits; grid/block extents and
threads per block against the device and the function's register-limited maximum; `min_compute_capability`.
Each failure is a LaunchContractError naming the field, the expected and the actual value.

`requires` relations are comparisons (`>= > <= < == !=`) of `+ - *` expressions over integer literals,
`p.len()` of buffer parameters and unsigned scalar parameters, evaluated in exact integers; an intermediate
outside u64 is an error, as in cuda-oxide.
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from typing import Any, Callable

from oxide.runtime.config import LaunchConfig
from oxide.runtime.errors import ArtifactError, LaunchContractError, SharedMemoryLimitError
from oxide.runtime.signature import KernelSpec

U64_MAX = (1 << 64) - 1
_UNSIGNED = {"u8", "u16", "u32", "u64", "usize"}
_COMPARE = {">=": operator.ge, ">": operator.gt, "<=": operator.le, "<": operator.lt, "==": operator.eq,
            "!=": operator.ne}
_TOKEN = re.compile(r"\s*(?:(\d[\d_]*)|([A-Za-z_]\w*)\s*\.\s*len\s*\(\s*\)|([A-Za-z_]\w*)|(>=|<=|==|!=|[-+*()<>]))")


@dataclass(frozen=True)
class DeviceLimits:
    """The limits of the device a kernel launches on (the emulator has its own, modelled on sm_90)."""

    compute_capability: tuple[int, int]
    max_block: tuple[int, int, int]
    max_grid: tuple[int, int, int]
    max_threads_per_block: int
    max_shared_per_block: int
    max_shared_per_block_optin: int
    # Streaming multiprocessors: a persistent tile kernel launches at most one block per SM.
    multiprocessors: int = 132


@dataclass(frozen=True)
class FunctionLimits:
    """A loaded function's own limits: register-limited threads per block, static shared memory."""

    max_threads_per_block: int
    static_shared_bytes: int


@dataclass(frozen=True)
class Relation:
    """One `requires` relation, compiled: `holds(values)` -> (holds, lhs, rhs)."""

    text: str
    evaluate: Callable[[dict[str, int]], tuple[bool, int, int]]
    names: frozenset[str]
    # `a OP b` over single atoms (no arithmetic, so no overflow): ((kind, value), op, (kind, value)), kinds
    # "int", "len", "var"; the specialised launch functions inline these.
    simple: tuple[tuple[str, str], str, tuple[str, str]] | None = None


def parse_requires(kernel: KernelSpec) -> list[Relation]:
    """The kernel's `requires` relations, compiled; ArtifactError for text outside the grammar."""
    text = str(kernel.contract.get("requires") or "").strip()
    if not text:
        return []
    params = {p.name: p for p in kernel.params}
    return [_relation(kernel.name, part.strip(), params) for part in _split_top(text) if part.strip()]


def _split_top(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    return parts + [current]


def _relation(kernel: str, text: str, params: dict[str, Any]) -> Relation:
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            if text[pos:].strip() == "":
                break
            raise ArtifactError(f"kernel `{kernel}`: cannot read `requires` relation `{text}` at `{text[pos:]}`")
        number, length_of, name, symbol = m.groups()
        if number is not None:
            tokens.append(("int", number.replace("_", "")))
        elif length_of is not None:
            p = params.get(length_of)
            if p is None or not p.is_buffer or p.kind == "ptr":
                raise ArtifactError(f"kernel `{kernel}`: `requires` uses `{length_of}.len()`, but `{length_of}` "
                                    "is not a slice parameter")
            tokens.append(("len", length_of))
        elif name is not None:
            p = params.get(name)
            if p is None or p.kind != "scalar" or p.elem not in _UNSIGNED:
                raise ArtifactError(f"kernel `{kernel}`: `requires` uses `{name}`, which is not an unsigned "
                                    "scalar parameter")
            tokens.append(("var", name))
        else:
            tokens.append(("op", symbol))
        pos = m.end()
    parser = _Parser(kernel, text, tokens)
    lhs = parser.sum()
    op = parser.take_op(set(_COMPARE))
    rhs = parser.sum()
    if parser.pos != len(tokens):
        raise ArtifactError(f"kernel `{kernel}`: `requires` relation `{text}` has trailing tokens")
    compare = _COMPARE[op]
    names = frozenset(v for kind, v in tokens if kind in ("len", "var"))

    def evaluate(values: dict[str, int]) -> tuple[bool, int, int]:
        left, right = lhs(values), rhs(values)
        return compare(left, right), left, right

    simple = None
    if len(tokens) == 3 and tokens[0][0] != "op" and tokens[2][0] != "op":
        simple = (tokens[0], op, tokens[2])
    return Relation(text, evaluate, names, simple)


class _Parser:
    """Recursive descent over the token list; builds closures that evaluate in checked u64 arithmetic."""

    def __init__(self, kernel: str, text: str, tokens: list[tuple[str, str]]):
        self.kernel, self.text, self.tokens, self.pos = kernel, text, tokens, 0

    def _fail(self, what: str) -> ArtifactError:
        return ArtifactError(f"kernel `{self.kernel}`: `requires` relation `{self.text}`: {what}")

    def take_op(self, allowed: set[str]) -> str:
        if self.pos < len(self.tokens) and self.tokens[self.pos][0] == "op" and self.tokens[self.pos][1] in allowed:
            self.pos += 1
            return self.tokens[self.pos - 1][1]
        raise self._fail(f"expected one of {' '.join(sorted(allowed))}")

    def _peek_op(self, allowed: set[str]) -> str | None:
        if self.pos < len(self.tokens) and self.tokens[self.pos][0] == "op" and self.tokens[self.pos][1] in allowed:
            return self.tokens[self.pos][1]
        return None

    def sum(self) -> Callable[[dict[str, int]], int]:
        term = self.product()
        while (op := self._peek_op({"+", "-"})):
            self.pos += 1
            term = _checked(operator.add if op == "+" else operator.sub, term, self.product(), op)
        return term

    def product(self) -> Callable[[dict[str, int]], int]:
        factor = self.atom()
        while self._peek_op({"*"}):
            self.pos += 1
            factor = _checked(operator.mul, factor, self.atom(), "*")
        return factor

    def atom(self) -> Callable[[dict[str, int]], int]:
        if self.pos >= len(self.tokens):
            raise self._fail("expression ends early")
        kind, value = self.tokens[self.pos]
        self.pos += 1
        if kind == "int":
            number = int(value)
            return lambda _values: number
        if kind in ("len", "var"):
            key = f"{value}.len()" if kind == "len" else value
            return lambda values: values[key]
        if value == "(":
            inner = self.sum()
            self.take_op({")"})
            return inner
        raise self._fail(f"unexpected `{value}`")


class RequirementOverflow(ArithmeticError):
    """An intermediate value of a `requires` expression left the u64 range."""


def _checked(op: Callable[[int, int], int], a: Callable, b: Callable, symbol: str) -> Callable[[dict[str, int]], int]:
    def run(values: dict[str, int]) -> int:
        left, right = a(values), b(values)
        result = op(left, right)
        if not 0 <= result <= U64_MAX:
            raise RequirementOverflow(f"{left} {symbol} {right} = {result} leaves the u64 range")
        return result

    return run


def check_requires(kernel: str, relations: list[Relation], values: dict[str, int]) -> None:
    """Evaluate every relation on this launch's values; LaunchContractError for the first that fails."""
    for relation in relations:
        try:
            holds, left, right = relation.evaluate(values)
        except RequirementOverflow as exc:
            raise LaunchContractError(kernel, "requires", relation.text, "an overflow", str(exc)) from None
        if not holds:
            shown = ", ".join(f"{n} = {values[n]}" for n in sorted(k for k in values if _mentions(relation, k)))
            raise LaunchContractError(kernel, "requires", relation.text, f"{left} vs {right}", shown)


def _mentions(relation: Relation, key: str) -> bool:
    return key.removesuffix(".len()") in relation.names


def prepare(kernel: KernelSpec, config: LaunchConfig, device: DeviceLimits, function: FunctionLimits,
            contracted: bool = True) -> int:
    """Check `config` once against the contract (when `contracted`) and the device and function limits;
    return the dynamic shared memory the function must be allowed (0 when the default limit suffices)."""
    name, contract = kernel.name, kernel.contract
    grid, block, shared = config.grid, config.block, config.shared_mem_bytes
    if min(grid) < 1 or min(block) < 1:
        raise LaunchContractError(name, "grid/block", "every extent >= 1", f"grid {grid}, block {block}")
    if shared < 0:
        raise LaunchContractError(name, "dynamic_shared", "a byte count >= 0", shared)
    threads = block[0] * block[1] * block[2]
    if contracted:
        domain = int(contract["domain"])
        if config.rank != domain:
            raise LaunchContractError(name, "domain", f"a {domain}-D launch (LaunchConfig{domain}D)",
                                      f"a {config.rank}-D launch")
        if "block" in contract:
            exact = tuple((list(contract["block"]) + [1, 1])[:3])
            if tuple(block) != exact:
                raise LaunchContractError(name, "block", exact, tuple(block))
        elif kernel.launch_bounds and threads > kernel.launch_bounds[0]:
            raise LaunchContractError(name, "launch_bounds", f"at most {kernel.launch_bounds[0]} threads per block",
                                      threads)
        if contract.get("coordinates") == "u32":
            for axis, (g, b) in enumerate(zip(grid, block)):
                if g * b > 1 << 32:
                    raise LaunchContractError(name, "coordinates", f"grid*block <= 2^32 on axis {'xyz'[axis]}", g * b)
        if "dynamic_shared" in contract and shared != int(contract["dynamic_shared"]):
            raise LaunchContractError(name, "dynamic_shared", int(contract["dynamic_shared"]), shared)
        shared_range = _shared_range(contract)
        if shared_range is not None:
            low, high = shared_range
            if not low <= shared <= high:
                raise LaunchContractError(name, "dynamic_shared_range", f"{low}..={high} bytes", shared)
        if "min_compute_capability" in contract:
            need = tuple(contract["min_compute_capability"])
            if tuple(device.compute_capability) < need:
                raise LaunchContractError(name, "min_compute_capability", f"sm_{need[0]}{need[1]} or newer",
                                          "sm_{}{}".format(*device.compute_capability))
    for axis in range(3):
        if block[axis] > device.max_block[axis]:
            raise LaunchContractError(name, "block", f"{'xyz'[axis]} extent <= {device.max_block[axis]} (device limit)",
                                      block[axis])
        if grid[axis] > device.max_grid[axis]:
            raise LaunchContractError(name, "grid", f"{'xyz'[axis]} extent <= {device.max_grid[axis]} (device limit)",
                                      grid[axis])
    if threads > device.max_threads_per_block:
        raise LaunchContractError(name, "block", f"at most {device.max_threads_per_block} threads (device limit)", threads)
    if threads > function.max_threads_per_block:
        raise LaunchContractError(name, "block", f"at most {function.max_threads_per_block} threads (this kernel's "
                                                 "register use limits it)", threads)
    limit = (_shared_range(contract) or (0, shared))[1] if contracted else shared
    total = function.static_shared_bytes + max(limit, shared)
    if total > device.max_shared_per_block_optin:
        raise LaunchContractError(name, "dynamic_shared", f"static + dynamic shared memory <= "
                                  f"{device.max_shared_per_block_optin} bytes (device limit)", total)
    return max(limit, shared) if total > device.max_shared_per_block else 0


def check_shared_fits(kernel: str, static: int, dynamic: int, device: DeviceLimits) -> None:
    """SharedMemoryLimitError unless `static` + `dynamic` bytes of shared memory fit one block of `device` (its
    opt-in limit, which CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES may raise a function to)."""
    if static + dynamic > device.max_shared_per_block_optin:
        raise SharedMemoryLimitError(kernel, static, dynamic, device.max_shared_per_block_optin)


def _shared_range(contract: dict[str, Any]) -> tuple[int, int] | None:
    """The contract's dynamic shared memory range, written `dynamic_shared_range = (min, max)` in Rust and
    `dynamic_shared_min`/`dynamic_shared_max` on the simt kernel."""
    if "dynamic_shared_range" in contract:
        low, high = contract["dynamic_shared_range"]
        return int(low), int(high)
    if "dynamic_shared_min" in contract or "dynamic_shared_max" in contract:
        return int(contract.get("dynamic_shared_min", 0)), int(contract.get("dynamic_shared_max", 1 << 62))
    return None
