"""Launch functions specialised per kernel and configuration, for the GPU.

The general launch path (Binder, check_overlaps, check_requires) loops over parameters and builds objects
per launch. For a prepared configuration, `specialise` generates one straight-line Python function that does
the same checks for the common exact types only (DeviceBuffer of the right dtype, or of a struct element's
one scalar type, int/float/bool scalars,
a Stream of the kernel's device or None), packs the parameters and calls cuLaunchKernel. Any argument it does
not recognise returns None, and the caller takes the general path, which raises the precise error. So the
fast path never accepts what the general path rejects, and it never reports an error itself, except the
`requires` failures and driver errors that both paths report the same way.
"""

from __future__ import annotations

import threading
from typing import Any, Callable

from oxide.runtime.contract import check_requires
from oxide.runtime.driver import raise_for
from oxide.runtime.elements import element_of, unpassable
from oxide.runtime.inflight import CAPTURE_THREADS
from oxide.runtime.memory import DeviceBuffer
from oxide.runtime.scalars import SCALARS
from oxide.runtime.stream import Stream


def specialise(kernel: Any, config: Any) -> Callable[[tuple, Any], bool | None] | None:
    """The fast launch function `fast(args, stream) -> True` (None when an argument needs the general path),
    or None when this kernel's signature has a parameter the fast path does not cover."""
    spec, fn = kernel.spec, kernel.function
    params = spec.params
    if spec.cluster or spec.cooperative:  # launched through cuLaunchKernelEx (launch_ex.py)
        return None
    if any(p.kind in ("struct", "ptr", "tensor_map") or p.space == "runtime_2d" or unpassable(p)
           or (p.layout and element_of(p).plain is None) for p in params):
        return None
    env: dict[str, Any] = {"DeviceBuffer": DeviceBuffer, "Stream": Stream, "DEVICE": kernel.device,
                           "NAME": spec.name, "PACK": fn.packer.pack_into, "BLOCK": fn.block,
                           "LAUNCH": kernel.executor._launch_kernel, "HANDLE": fn.handle,
                           "ADDRESS": fn.params_address, "raise_for": raise_for, "SYNC": kernel.executor.synchronize,
                           "check_requires": check_requires, "RELATIONS": kernel.requires,
                           "CAPTURES": CAPTURE_THREADS, "IDENT": threading.get_ident}
    lines = ["def fast(args, stream):", f"    if len(args) != {len(params)}:", "        return None"]
    packed: list[str] = []
    buffers: list[tuple[int, bool]] = []
    values: list[str] = []
    for i, p in enumerate(params):
        lines.append(f"    a{i} = args[{i}]")
        if p.kind == "scalar":
            t = SCALARS[p.elem]
            if t.kind == "int":
                lines += [f"    if type(a{i}) is not int or not {t.low} <= a{i} <= {t.high}:", "        return None"]
                values.append(f"{p.name!r}: a{i}")
            elif t.kind == "float":
                lines += [f"    if type(a{i}) is not float:", "        return None"]
            else:
                lines += [f"    if type(a{i}) is not bool:", "        return None"]
            packed.append(f"a{i}")
        else:
            if p.layout:
                # A buffer of structs/arrays held as a flat DeviceBuffer of their one scalar type.
                element = element_of(p)
                env[f"D{i}"] = element.plain
                per, align = element.per_element, element.align
                lines += [f"    if type(a{i}) is not DeviceBuffer or a{i}.dtype != D{i} or a{i}.size % {per} "
                          f"or a{i}.ptr % {align}:", "        return None", f"    s{i} = a{i}.size // {per}"]
            else:
                env[f"D{i}"] = SCALARS[p.elem].dtype
                lines += [f"    if type(a{i}) is not DeviceBuffer or a{i}.dtype != D{i}:", "        return None",
                          f"    s{i} = a{i}.size"]
            lines += [f"    p{i} = a{i}.ptr", f"    e{i} = p{i} + a{i}.nbytes"]
            packed += [f"p{i}", f"s{i}"]
            buffers.append((i, p.mutable))
            values.append(f"{p.name + '.len()'!r}: s{i}")
    for x, (i, mutable_i) in enumerate(buffers):
        for j, mutable_j in buffers[x + 1:]:
            if mutable_i or mutable_j:  # an overlap: the general path raises OverlapError naming both
                lines += [f"    if p{i} < e{j} and p{j} < e{i} and s{i} and s{j}:", "        return None"]
    names = {p.name: i for i, p in enumerate(params)}
    inline = [r.simple for r in kernel.requires]
    if kernel.requires and all(inline):
        # Atom-to-atom comparisons inline; a failure takes check_requires, which raises the precise error.
        atoms = {"int": lambda v: v, "len": lambda v: f"s{names[v]}", "var": lambda v: f"a{names[v]}"}
        tests = [f"{atoms[l[0]](l[1])} {op} {atoms[r[0]](r[1])}" for l, op, r in inline]  # type: ignore[misc]
        lines += [f"    if not ({' and '.join(tests)}):",
                  f"        check_requires(NAME, RELATIONS, {{{', '.join(values)}}})"]
    elif kernel.requires:
        lines.append(f"    check_requires(NAME, RELATIONS, {{{', '.join(values)}}})")
    # A synchronous launch inside a graph capture, and any stream but oxide's own of this device, take the
    # general path (which raises GraphError, or resolves the foreign stream).
    lines += ["    if stream is None:", "        if CAPTURES and IDENT() in CAPTURES:", "            return None",
              "        handle = None",
              "    elif type(stream) is Stream and stream.device is DEVICE:",
              "        handle = stream.handle", "        stream.last_kernel = NAME",
              "    else:", "        return None"]
    if packed:
        lines.append(f"    PACK(BLOCK, 0, {', '.join(packed)})")
    g, b = config.grid, config.block
    lines += [f"    err, = LAUNCH(HANDLE, {g[0]}, {g[1]}, {g[2]}, {b[0]}, {b[1]}, {b[2]}, {config.shared_mem_bytes}, "
              "handle, ADDRESS, 0)",
              "    if err:", "        raise_for(err, 'the launch', NAME)",
              "    if stream is None:", "        SYNC(NAME)", "    else:", "        stream.inflight.hold(args)",
              "    return True"]
    exec(compile("\n".join(lines), f"<oxide launch of {spec.entry}>", "exec"), env)
    return env["fast"]
