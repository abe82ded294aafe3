"""`--instantiate KERNEL=ARGS`: parsing it (arguments split at top-level commas, so a tile shape `[64, 64]`
stays one argument) and checking it against the generic kernels the sources declare, and refusing a build
that instantiated nothing at all."""

from __future__ import annotations

from typing import Any, Mapping

from oxide.diagnostics import OxideError

_HOW = ("instantiate a generic kernel with `--instantiate KERNEL=T1,T2` on the command line, "
        "`instances={'KERNEL': [['T1', 'T2']]}` in the Python API, or `#[kernel(T)]` in the source")


def parse_instances(specs: tuple[str, ...]) -> dict[str, list[list[str]]]:
    """`--instantiate scale=f32 --instantiate gemm=bf16,[64, 64]` -> {"scale": [["f32"]], "gemm": [["bf16",
    "[64, 64]"]]}; OxideError for a spec that is not KERNEL=ARGS."""
    instances: dict[str, list[list[str]]] = {}
    for spec in specs:
        kernel, sep, args = spec.partition("=")
        parts = _split_arguments(args)
        if not sep or not kernel.strip() or parts is None or not all(parts):
            raise OxideError(f"--instantiate expects KERNEL=T1,T2 (arguments separated by commas, brackets "
                             f"balanced, none empty), got '{spec}'")
        instances.setdefault(kernel.strip(), []).append(parts)
    return instances


def _split_arguments(args: str) -> list[str] | None:
    """`bf16, [64, 64], (f32, u8)` split at the commas outside brackets; None when the brackets do not match."""
    closing = {"[": "]", "(": ")", "<": ">", "{": "}"}
    parts, stack, current = [], [], ""
    for ch in args:
        if ch in closing:
            stack.append(closing[ch])
        elif ch in closing.values():
            if not stack or stack.pop() != ch:
                return None
        if ch == "," and not stack:
            parts.append(current.strip())
            current = ""
        else:
            current += ch
    if stack:
        return None
    parts.append(current.strip())
    return [] if parts == [""] else parts


def generic_kernels(text: str, name: str) -> list[str]:
    """The generic kernels (SIMT `#[kernel]`s or tile `#[cutile::entry]`s) a Rust source declares."""
    from oxide.frontends.syntax.parser import Source, parse
    from oxide.frontends.tile.compile import is_tile_source

    source = Source(name, text)
    if is_tile_source(text):
        from oxide.frontends.tile.module import collect as collect_tile

        crate: Any = collect_tile(source, parse(source).root_node)
        kernels = crate.entries
    else:
        from oxide.frontends.simt.items import collect

        crate = collect(source, parse(source).root_node)
        kernels = crate.kernels
    return [k for k in kernels if crate.function(k).generics]


def check_instances(instances: Mapping[str, Any], sources: Mapping[str, str]) -> None:
    """OxideError when an instantiated name is not a generic kernel of any of `sources` (name -> text)."""
    if not instances:
        return
    generic = {name: generic_kernels(text, name) for name, text in sources.items()}
    declared = {k for kernels in generic.values() for k in kernels}
    for kernel in instances:
        if kernel not in declared:
            listing = "; ".join(f"`{'`, `'.join(kernels)}` in {name}" for name, kernels in generic.items() if kernels)
            raise OxideError(f"--instantiate {kernel}=...: there is no generic kernel `{kernel}` in "
                             f"{', '.join(sources)}; " + (f"the generic kernels are {listing}" if listing else
                                                         "there are no generic kernels (a kernel without type "
                                                         "parameters is compiled as it is)"))


def require_kernels(kernels: list[Any], skipped_generic: list[str], name: str) -> None:
    """OxideError when a source compiled to no kernel because every kernel is generic and none was
    instantiated (its PTX would be empty)."""
    if not kernels and skipped_generic:
        raise OxideError(f"nothing to compile in {name}: its kernels ({', '.join(skipped_generic)}) are all "
                         f"generic and none was instantiated; {_HOW}, e.g. `--instantiate {skipped_generic[0]}=f32`")
