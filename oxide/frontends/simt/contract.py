"""`#[launch_contract(...)]`: parse and validate at compile time, with the errors cuda-oxide's macro reports.

Fields: domain (1..3), block = (x, y, z), coordinates = u32, dynamic_shared = N,
dynamic_shared_range = (min, max), dynamic_shared_alignment = N (a power of two),
min_compute_capability = (major, minor) or NN, requires = (relation, ...).
A `requires` relation compares (`>= > <= < == !=`) two expressions built with `+ - *` from integer
literals, `.len()` of slice and DisjointSlice parameters, and unsigned integer scalar parameters. The
runtime evaluates them at every launch with the actual arguments (oxide.runtime).
"""

from __future__ import annotations

import re
from typing import Any

from oxide.frontends.simt import types as T
from oxide.diagnostics import OxideError

FIELDS = ("domain", "block", "coordinates", "dynamic_shared", "dynamic_shared_range", "dynamic_shared_alignment",
          "min_compute_capability", "requires")
_TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_]\w*)\s*\.\s*len\s*\(\s*\)|([A-Za-z_]\w*)|(>=|<=|==|!=|>|<)|([-+*])|(\S))")


def parse(fields: list[tuple[str, str]], loc: Any) -> dict[str, Any]:
    """The contract as Python values (`dynamic_shared_range` becomes dynamic_shared_min/max)."""
    contract: dict[str, Any] = {}
    seen: set[str] = set()
    for key, raw in fields:
        if key not in FIELDS:
            raise OxideError(f"unknown #[launch_contract] field `{key}` (known: {', '.join(FIELDS)})", loc)
        if key in seen:
            raise OxideError(f"#[launch_contract] field `{key}` is given twice", loc)
        seen.add(key)
        if key == "requires":
            contract[key] = raw[1:-1].strip() if raw.startswith("(") else raw
        elif key == "coordinates":
            if raw != "u32":
                raise OxideError(f"#[launch_contract] `coordinates` can only be `u32`, got `{raw}`", loc)
            contract[key] = raw
        else:
            contract[key] = _integers(key, raw, loc)
    _check_values(contract, loc)
    if "dynamic_shared_range" in contract:
        contract["dynamic_shared_min"], contract["dynamic_shared_max"] = contract.pop("dynamic_shared_range")
    return contract


def _integers(key: str, raw: str, loc: Any) -> int | list[int]:
    try:
        if raw.startswith("("):
            return [int(v.strip().replace("_", ""), 0) for v in raw[1:-1].split(",") if v.strip()]
        return int(raw.replace("_", ""), 0)
    except ValueError:
        raise OxideError(f"#[launch_contract] field `{key}` must be an integer literal (or a tuple of them), "
                         f"got `{raw}`", loc) from None


def _check_values(c: dict[str, Any], loc: Any) -> None:
    if "domain" not in c:
        raise OxideError("#[launch_contract(...)] must state `domain = 1`, `2` or `3`", loc)
    domain = c["domain"]
    if domain not in (1, 2, 3):
        raise OxideError(f"#[launch_contract] `domain` must be 1, 2 or 3, got {domain}", loc)
    if "block" in c:
        block = c["block"]
        if not isinstance(block, list) or len(block) != 3 or min(block) < 1 or block[0] * block[1] * block[2] > 1024:
            raise OxideError(f"#[launch_contract] `block` must be (x, y, z) with every dimension at least 1 and at "
                             f"most 1024 threads in all, got {tuple(block) if isinstance(block, list) else block}", loc)
        inactive = block[domain:]
        if any(d != 1 for d in inactive):
            raise OxideError(f"#[launch_contract] block {tuple(block)} uses more dimensions than `domain = {domain}`: "
                             f"the dimensions past the domain must be 1", loc)
    if "dynamic_shared" in c and "dynamic_shared_range" in c:
        raise OxideError("#[launch_contract] takes `dynamic_shared` or `dynamic_shared_range`, not both", loc)
    if "dynamic_shared_range" in c:
        rng = c["dynamic_shared_range"]
        if not isinstance(rng, list) or len(rng) != 2 or rng[0] < 0 or rng[0] > rng[1]:
            raise OxideError(f"#[launch_contract] `dynamic_shared_range` must be (min, max) with 0 <= min <= max, "
                             f"got {tuple(rng) if isinstance(rng, list) else rng}", loc)
    if isinstance(c.get("dynamic_shared", 0), list):
        raise OxideError(f"#[launch_contract] `dynamic_shared` is one number of bytes, got {_shown(c['dynamic_shared'])}; "
                         "for a range write `dynamic_shared_range = (min, max)`", loc)
    for key in ("dynamic_shared", "dynamic_shared_range"):
        values = c.get(key, [])
        if any(not 0 <= v <= _MAX_DYNAMIC_SHARED for v in (values if isinstance(values, list) else [values])):
            raise OxideError(f"#[launch_contract] `{key}` is out of range, got {_shown(values)}: a launch's dynamic "
                             f"shared memory is from 0 to {_MAX_DYNAMIC_SHARED} bytes", loc)
    align = c.get("dynamic_shared_alignment")
    if align is not None and (not isinstance(align, int) or align < 1 or align & (align - 1)):
        raise OxideError(f"#[launch_contract] `dynamic_shared_alignment` must be a non-zero power of two, got {align}",
                         loc)
    if align is not None and align > _MAX_DYNAMIC_SHARED_ALIGN:
        raise OxideError(f"#[launch_contract] `dynamic_shared_alignment` {align} is out of range: the largest is "
                         f"{_MAX_DYNAMIC_SHARED_ALIGN}", loc)
    if "min_compute_capability" in c:
        c["min_compute_capability"] = _compute_capability(c["min_compute_capability"], loc)


# The driver takes a launch's dynamic shared memory size as a 32-bit unsigned count of bytes.
_MAX_DYNAMIC_SHARED = (1 << 32) - 1
_MAX_DYNAMIC_SHARED_ALIGN = 1 << 31


def _shown(value: int | list[int]) -> str:
    return str(tuple(value)) if isinstance(value, list) else str(value)


def _compute_capability(value: int | list[int], loc: Any) -> list[int]:
    """`(major, minor)` or `NN` (major NN // 10, minor NN % 10, as in `sm_NN`) as [major, minor]."""
    pair = [value // 10, value % 10] if isinstance(value, int) else value
    if len(pair) != 2 or not 1 <= pair[0] <= 99 or not 0 <= pair[1] <= 9:
        raise OxideError(f"#[launch_contract] `min_compute_capability` must be (major, minor) with major 1 to 99 "
                         f"and minor 0 to 9, or `NN` as in sm_NN (90 for sm_90), got {_shown(value)}", loc)
    return pair


def check_launch_bounds(contract: dict[str, Any], bounds: list[int] | None, loc: Any) -> None:
    """An exact block must fit the `#[launch_bounds]` maximum."""
    block = contract.get("block")
    if block and bounds and block[0] * block[1] * block[2] > bounds[0]:
        raise OxideError(f"#[launch_contract] block {tuple(block)} has {block[0] * block[1] * block[2]} threads, more "
                         f"than `#[launch_bounds({bounds[0]})]` allows", loc)


def check_parameters(contract: dict[str, Any], params: list[tuple[str, T.Ty]], loc: Any) -> None:
    """Parameter-dependent rules: a well-formed `requires`."""
    requires = contract.get("requires")
    if requires:
        types = dict(params)
        for relation in _split(requires):
            _check_relation(relation, types, loc)


def _split(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for ch in text + ",":
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            if current.strip():
                parts.append(current.strip())
            current = ""
        else:
            current += ch
    return parts


def _check_relation(relation: str, types: dict[str, T.Ty], loc: Any) -> None:
    comparisons = 0
    expect_operand = True
    for match in _TOKEN.finditer(relation):
        number, length_of, name, compare, arith_op, other = match.groups()
        if other is not None:
            raise OxideError(f"`requires` relation `{relation}`: `{other}` is not allowed (use integer literals, "
                             "`p.len()` of slice parameters, unsigned scalar parameters, `+ - *` and one comparison)",
                             loc)
        if compare or arith_op:
            if expect_operand:
                raise OxideError(f"`requires` relation `{relation}` is malformed near `{compare or arith_op}`", loc)
            comparisons += bool(compare)
            expect_operand = True
            continue
        if not expect_operand:
            raise OxideError(f"`requires` relation `{relation}` is malformed: two operands in a row", loc)
        expect_operand = False
        if length_of:
            ty = types.get(length_of)
            if ty is None:
                raise OxideError(f"`requires` relation `{relation}`: no parameter named `{length_of}`", loc)
            if not isinstance(ty, (T.Slice, T.Disjoint)):
                raise OxideError(f"`requires` relation `{relation}`: `{length_of}.len()` needs a slice or "
                                 f"DisjointSlice parameter, `{length_of}` is `{ty.rust()}`", loc)
        elif name:
            ty = types.get(name)
            if ty is None:
                raise OxideError(f"`requires` relation `{relation}`: no parameter named `{name}`", loc)
            if isinstance(ty, (T.Slice, T.Disjoint)):
                raise OxideError(f"`requires` relation `{relation}`: use `{name}.len()` for the length of a slice", loc)
            if not (isinstance(ty, T.Int) and not ty.signed):
                raise OxideError(f"`requires` relation `{relation}`: `{name}` is `{ty.rust()}`; only unsigned integer "
                                 "scalar parameters can appear (a negative value has no length meaning)", loc)
    if comparisons != 1 or expect_operand:
        raise OxideError(f"`requires` relation `{relation}` must be one comparison (`>=`, `>`, `<=`, `<`, `==`, `!=`) "
                         "between two expressions", loc)
