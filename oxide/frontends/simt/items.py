"""The SIMT frontend's reading of a crate: which functions are kernels (`#[kernel]`) and what the kernel
attributes say (`#[kernel(...)]`, `#[device]`, `#[launch_bounds]`, `#[launch_contract]`, `#[cluster_launch]`,
`#[cooperative_launch]`).
The items themselves are collected by the syntax floor (syntax/items.py).
"""

from __future__ import annotations

import math
import re
from typing import Any

from oxide.frontends.simt import contract
from oxide.frontends.syntax import ast, literals
from oxide.frontends.syntax import items
from oxide.frontends.syntax.attributes import Attribute, attribute_fields
from oxide.frontends.syntax.build import Builder
from oxide.frontends.syntax.parser import Source
from oxide.diagnostics import OxideError


def collect(source: Source, root: Any) -> items.Crate:
    """Index every item of a cuda-oxide file; its kernels are the `#[kernel]` functions."""
    return items.collect(source, root, parse_attributes, "kernel")


def parse_attributes(b: Builder, attrs: list[Attribute]) -> dict[str, Any]:
    """kernel / device / launch_bounds / launch_contract attributes as Python values."""
    out: dict[str, Any] = {}
    for attr in attrs:
        if attr.name == "kernel":
            out["kernel"] = True
            flags = [a.strip() for a in attr.args.split(",") if a.strip()]
            for flag in flags:
                if flag == "unchecked_indexing":
                    out["unchecked_indexing"] = True
                elif flag.startswith("launch_context"):
                    name = flag.partition("=")[2].strip()
                    if not re.fullmatch(r"[A-Za-z_]\w*", name):
                        raise OxideError("#[kernel(launch_context = name)] names the launch context parameter, "
                                         f"got `{flag}`", b.loc(attr.node))
                    out["launch_context"] = name
                elif re.fullmatch(r"[iu](8|16|32|64|size)|f32|f64|bool", flag):
                    # `#[kernel(f32, i32)]`: cuda-oxide's explicit instantiation list of one type parameter.
                    out.setdefault("instances", []).append([flag])
                else:
                    raise OxideError(f"unknown #[kernel] option `{flag}` (known: unchecked_indexing, "
                                     "launch_context = name, or primitive types to instantiate a generic kernel with)",
                                     b.loc(attr.node))
        elif attr.name == "device":
            out["device"] = True
        elif attr.name == "launch_bounds":
            pieces = [v.strip() for v in attr.args.split(",") if v.strip()]
            if not 1 <= len(pieces) <= 2 or not all(re.fullmatch(r"[0-9][0-9_xa-fA-F]*|\w+(::\w+)?", v) for v in pieces):
                raise OxideError("#[launch_bounds(...)] takes compile-time integers (literals, consts, `P::CONST` of "
                                 "a generic parameter): max threads[, min blocks]", b.loc(attr.node))
            # Literals now; names (consts, `P::MAX_THREADS`) when the kernel is instantiated. Both are
            # checked against the hardware's ranges then (compile._launch_bounds).
            numbers = [literals.integer(v, b.loc(attr.node)) for v in pieces if v[0].isdigit()]
            if any(n.kind != "int" for n in numbers):
                raise OxideError("#[launch_bounds(...)] takes integers, not floats: max threads[, min blocks]",
                                 b.loc(attr.node))
            out["launch_bounds"] = [literals.integer(v, b.loc(attr.node)).value if v[0].isdigit()
                                    else ast.PathExpr(b.loc(attr.node), v.split("::")) for v in pieces]
            out["launch_bounds_loc"] = b.loc(attr.node)
        elif attr.name == "launch_contract":
            out["launch_contract"] = contract.parse(attribute_fields(attr.args), b.loc(attr.node))
            out["launch_contract_loc"] = b.loc(attr.node)
        elif attr.name == "cluster_launch":
            try:
                dims = [int(v.strip(), 0) for v in attr.args.split(",")]
            except ValueError:
                dims = []
            if not 1 <= len(dims) <= 3 or any(d < 1 for d in dims):
                raise OxideError("#[cluster_launch(x[, y[, z]])] takes positive integer literals", b.loc(attr.node))
            if math.prod(dims) > 8:
                # sm_90's portable cluster size; the check also keeps each dimension within the i32 attribute.
                raise OxideError(f"#[cluster_launch({attr.args.strip()})]: a cluster has at most 8 blocks in all",
                                 b.loc(attr.node))
            out["cluster_dims"] = dims + [1] * (3 - len(dims))
        elif attr.name == "cooperative_launch":
            if attr.args.strip():
                raise OxideError("#[cooperative_launch] takes no arguments", b.loc(attr.node))
            out["cooperative"] = True
    if "launch_contract" in out:
        contract.check_launch_bounds(out["launch_contract"], out.get("launch_bounds"), out["launch_contract_loc"])
    return out
