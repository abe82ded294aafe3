#!/usr/bin/env python3
"""Yardstick for the Rust frontend: try to compile every example crate of a cuda-oxide checkout.

Usage:
    python benchmarks/yardstick/run.py EXAMPLES_DIR [--out benchmarks/yardstick/report.md]
        [--work /tmp/oxide-yardstick] [--timeout 120] [--jobs 2] [--oxide-opt PATH] [--chip sm_90a]
        [--instantiate-generics]

EXAMPLES_DIR is the `crates/rustc-codegen-cuda/examples` folder of an extracted cuda-oxide snapshot
(see README.md). Nothing from that folder is copied into this repository: the script reads it, writes
one bundled .rs file per example under --work (outside the repository) and runs
`oxide-opt BUNDLE --emit=ptx` on it.

Layout handled: one Cargo package per example directory. The device source is `src/lib.rs` when the
package has one (the kernels live in the library, `src/main.rs` is host code), else `src/main.rs`.
Out-of-line modules (`mod x;` -> `src/x.rs` or `src/x/mod.rs`) are inlined in place; path dependencies
that are not cuda-oxide's own crates (e.g. a `kernel-lib` crate next to the example) are appended as
`mod <crate_name> { ... }` so that `use kernel_lib::...` still resolves; such examples are marked
"multi-crate". `src/bin/*.rs` extra binaries (benchmarks) are not part of the yardstick.

Scope: an example is out of scope when it needs Blackwell-only hardware (tcgen05 / TMEM / CLC /
TMA multicast with cta_group::2 / kind::f8f6f4 MMA), or LTOIR / C++ linking (C/C++/CUDA sources or an
`extern-libs` folder in the example). Examples named `error*` are negative tests (the reference
compiler must reject them); they are reported separately: oxide "passes" one when it rejects it.
"""

from __future__ import annotations

import argparse
import concurrent.futures as cf
import dataclasses
import os
import re
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

# --- scope -------------------------------------------------------------------------------------------

BLACKWELL_PATTERNS = {
    "tcgen05": re.compile(r"\btcgen05_\w+|\bTcgen05\w+"),
    "TMEM": re.compile(r"\bTmem\w*|\btmem_\w+"),
    "CLC": re.compile(r"\bclc_(try_cancel|query)\w*"),
    "TMA multicast with cta_group::2 (sm_100a)": re.compile(r"\bcp_async_bulk_tensor_\w*_multicast_cg2\b"),
    "kind::f8f6f4 MMA": re.compile(r"\w*_kind_f8f6f4_\w*"),
}
FOREIGN_SUFFIXES = {".cu", ".cuh", ".cpp", ".cc", ".c", ".h", ".hpp"}
OWN_CRATES_PREFIXES = ("cuda-", "cuda_")  # the reference project's own crates (cuda-device, cuda-host, ...)

# --- diagnostics -------------------------------------------------------------------------------------

ERROR_RE = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$", re.M)
PLAIN_ERROR_RE = re.compile(r"^error: (?P<msg>.*)$", re.M)
BACKTICK_RE = re.compile(r"`[^`]*`")
GENERIC_KERNEL_RE = re.compile(
    r"#\[kernel[^\]]*\]\s*(?:(?:#\[[^\]]*\]|///[^\n]*|//[^\n]*)\s*)*"
    r"(?:pub(?:\([a-z]+\))?\s+)?(?:unsafe\s+)?fn\s+(?P<name>\w+)\s*<(?P<params>[^{(]*?)>\s*\(",
    re.S,
)


@dataclasses.dataclass
class Example:
    name: str
    root: Path
    device_file: Path | None = None
    files: list[Path] = dataclasses.field(default_factory=list)
    multi_crate: list[str] = dataclasses.field(default_factory=list)
    scope: str = "in"  # in | blackwell | ltoir | negative | nosource
    scope_reason: str = ""
    generic_kernels: list[str] = dataclasses.field(default_factory=list)
    bundle: Path | None = None
    status: str = ""  # ok | fail | internal | timeout
    rc: int | None = None
    seconds: float = 0.0
    message: str = ""
    location: str = ""
    output: str = ""
    instantiated: dict[str, str] = dataclasses.field(default_factory=dict)


# --- source discovery / bundling ---------------------------------------------------------------------

MOD_DECL_RE = re.compile(r"^(?P<indent>[ \t]*)(?P<attrs>(?:#\[[^\]]*\]\s*)*)(?P<vis>pub(?:\([a-z]+\))?\s+)?mod\s+(?P<name>\w+)\s*;", re.M)


def _strip_inner_attrs(text: str) -> str:
    """Drop crate-level inner attributes (`#![...]`), which are invalid inside an inlined `mod { }`."""
    return re.sub(r"^[ \t]*#!\[[^\]]*\][ \t]*$", "", text, flags=re.M)


def _inline_modules(path: Path, text: str, used: list[Path], depth: int = 0) -> str:
    """Replace every `mod x;` of `path` by `mod x { <contents of x.rs> }` (recursively)."""
    if depth > 8:
        return text
    base = path.parent if path.name in ("main.rs", "lib.rs", "mod.rs") else path.parent / path.stem

    def repl(m: re.Match) -> str:
        name = m.group("name")
        for cand in (base / f"{name}.rs", base / name / "mod.rs"):
            if cand.is_file():
                used.append(cand)
                inner = _inline_modules(cand, cand.read_text(errors="replace"), used, depth + 1)
                return f"{m.group('indent')}{m.group('attrs')}{m.group('vis') or ''}mod {name} {{\n{_strip_inner_attrs(inner)}\n}}"
        return m.group(0)

    return MOD_DECL_RE.sub(repl, text)


def _path_dependencies(cargo_toml: Path) -> list[tuple[str, Path]]:
    """(crate name, crate dir) for each `name = { path = "..." }` dependency outside the reference's own crates."""
    out = []
    try:
        text = cargo_toml.read_text(errors="replace")
    except OSError:
        return out
    section = ""
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("["):
            section = s
            continue
        if "dependencies" not in section or section.startswith("[build-dependencies") or section.startswith("[dev-dependencies"):
            continue
        m = re.match(r'([\w-]+)\s*=\s*\{[^}]*\bpath\s*=\s*"([^"]+)"', s)
        if not m:
            continue
        name, rel = m.group(1), m.group(2)
        if name.startswith(OWN_CRATES_PREFIXES) or rel.startswith("../../.."):
            continue
        out.append((name, (cargo_toml.parent / rel).resolve()))
    return out


def _crate_source(crate_dir: Path) -> Path | None:
    for cand in (crate_dir / "src" / "lib.rs", crate_dir / "src" / "main.rs"):
        if cand.is_file():
            return cand
    return None


def discover(examples_dir: Path) -> list[Example]:
    out = []
    for d in sorted(p for p in examples_dir.iterdir() if p.is_dir() and (p / "Cargo.toml").is_file()):
        ex = Example(d.name, d)
        ex.device_file = _crate_source(d)
        # a package may name separate device crates (`[[package.metadata.cuda-oxide.device-crates]]`)
        meta = re.findall(r'\[\[package\.metadata\.cuda-oxide\.device-crates\]\][^\[]*?manifest-path\s*=\s*"([^"]+)"',
                          (d / "Cargo.toml").read_text(errors="replace"), re.S)
        for manifest in meta:
            src = _crate_source((d / manifest).parent)
            if src is not None:
                ex.device_file = src
                ex.multi_crate.append(f"device crate {Path(manifest).parent}")
        out.append(ex)
    return out


def build_bundle(ex: Example, work: Path) -> str:
    """The single .rs text oxide-opt compiles for `ex`; records the files it used."""
    assert ex.device_file is not None
    used = [ex.device_file]
    text = _inline_modules(ex.device_file, ex.device_file.read_text(errors="replace"), used)
    for crate_name, crate_dir in _path_dependencies(ex.device_file.parent.parent / "Cargo.toml"):
        src = _crate_source(crate_dir)
        if src is None:
            continue
        ident = crate_name.replace("-", "_")
        used.append(src)
        inner = _inline_modules(src, src.read_text(errors="replace"), used)
        text += f"\n\n// ---- path dependency `{crate_name}` inlined by the yardstick ----\nmod {ident} {{\n{_strip_inner_attrs(inner)}\n}}\n"
        ex.multi_crate.append(crate_name)
    ex.files = used
    return text


def classify(ex: Example, text: str) -> None:
    if ex.device_file is None:
        ex.scope, ex.scope_reason = "nosource", "no src/lib.rs or src/main.rs"
        return
    if ex.name.startswith("error"):
        ex.scope, ex.scope_reason = "negative", "negative test (the reference compiler rejects it)"
        return
    hits = []
    for label, pat in BLACKWELL_PATTERNS.items():
        m = pat.search(text)
        if m:
            hits.append(f"{label} (`{m.group(0)[:40]}`)")
    if hits:
        ex.scope, ex.scope_reason = "blackwell", "Blackwell-only: " + "; ".join(hits)
        return
    # C/C++/CUDA sources that the device code links against (benchmark harnesses under bench/ do not count)
    foreign = sorted({p.relative_to(ex.root).as_posix() for p in ex.root.rglob("*")
                      if p.is_file() and p.suffix in FOREIGN_SUFFIXES and "bench" not in p.relative_to(ex.root).parts})
    if foreign or (ex.root / "extern-libs").is_dir():
        ex.scope = "ltoir"
        ex.scope_reason = "LTOIR / C++ linking: " + ", ".join(foreign[:3]) + ("…" if len(foreign) > 3 else "")


# --- running -----------------------------------------------------------------------------------------


def _first_error(output: str) -> tuple[str, str]:
    m = ERROR_RE.search(output)
    if m:
        return m.group("msg").strip(), f"{Path(m.group('file')).name}:{m.group('line')}:{m.group('col')}"
    m = PLAIN_ERROR_RE.search(output)
    if m:
        return m.group("msg").strip(), ""
    lines = [l for l in output.strip().splitlines() if l.strip()]
    return (lines[-1].strip() if lines else "(no output)"), ""


def run_one(ex: Example, oxide_opt: str, timeout: float, chip: str, extra: list[str] | None = None,
            debug: bool = False) -> tuple[str, int | None, float, str]:
    ptx = ex.bundle.with_suffix(".ptx")
    cmd = [oxide_opt, str(ex.bundle), "--emit=ptx", f"--chip={chip}", "-o", str(ptx)] + (extra or [])
    env = dict(os.environ, OXIDE_DEBUG="1") if debug else None
    start = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return "timeout", None, time.perf_counter() - start, out
    secs = time.perf_counter() - start
    out = (p.stdout or "") + (p.stderr or "")
    if "Traceback (most recent call last)" in out or "internal error" in out or "this is a bug in oxide" in out:
        return "internal", p.returncode, secs, out
    if p.returncode == 0:
        return _assemble(ptx, chip, secs, out)
    if p.returncode < 0:
        return "internal", p.returncode, secs, out
    return "fail", p.returncode, secs, out


def _assemble(ptx: Path, chip: str, secs: float, out: str) -> tuple[str, int | None, float, str]:
    """An accepted example's PTX must also assemble: `ptxas -arch=<chip>` where ptxas is installed."""
    if shutil.which("ptxas") is None:
        return "ok", 0, secs, out
    p = subprocess.run(["ptxas", f"-arch={chip}", str(ptx), "-o", os.devnull], capture_output=True, text=True)
    if p.returncode:
        return "fail", p.returncode, secs, out + f"error: ptxas -arch={chip} rejected the PTX: {p.stderr.strip()}\n"
    return "ok", 0, secs, out


def process(ex: Example, args: argparse.Namespace) -> Example:
    status, rc, secs, out = run_one(ex, args.oxide_opt, args.timeout, args.chip)
    if status == "fail" and "none was instantiated" in out and args.instantiate_generics and ex.generic_kernels:
        # Every kernel is generic, so there is nothing to compile without instantiations: compile them all as f32.
        extra = [a for g in ex.generic_kernels for a in ("--instantiate", f"{g}=f32")]
        status, rc, secs, out = run_one(ex, args.oxide_opt, args.timeout, args.chip, extra)
        if status == "ok":
            ex.instantiated = {g: "ok" for g in ex.generic_kernels}
    if status == "internal" and "Traceback" not in out:
        # rerun with OXIDE_DEBUG=1 for the traceback; its verdict replaces the first one
        status, rc, secs, out = run_one(ex, args.oxide_opt, args.timeout, args.chip, debug=True)
    ex.status, ex.rc, ex.seconds, ex.output = status, rc, secs, out
    if status == "internal" and "Traceback" in out:
        exc = re.findall(r"^internal error: (.*)$", out, re.M) or re.findall(r"^(\w+(?:Error|Exception)\b.*)$", out, re.M)
        ex.message = "internal error: " + (exc[-1].strip() if exc else "?")
        frames = re.findall(r'File "([^"]*?oxide/[^"]+)", line (\d+), in (\w+)', out)
        ex.location = f"{frames[-1][0].split('oxide/', 1)[1]}:{frames[-1][1]} ({frames[-1][2]})" if frames else ""
    elif status in ("fail", "internal"):
        ex.message, ex.location = _first_error(out)
    elif status == "timeout":
        ex.message = f"timeout after {args.timeout:.0f}s"
    if args.instantiate_generics and ex.generic_kernels and status == "ok":
        for g in ex.generic_kernels:
            st, _, _, o = run_one(ex, args.oxide_opt, args.timeout, args.chip, ["--instantiate", f"{g}=f32"])
            ex.instantiated[g] = "ok" if st == "ok" else (_first_error(o)[0] if st != "timeout" else "timeout")
    (args.work / f"{ex.name}.log").write_text(out)
    return ex



# --- construct census (approximate, regex over the device part of each source) ------------------------

CENSUS = {
    "`let` chain (`if let .. && ..`)": r"\b(?:if|while)\s+let\b[^{;]*?&&|&&\s*let\b",
    "`let ... else`": r"\blet\b[^;{}]*=[^;{}]*\belse\s*\{",
    "closure": r"(?:=|\(|,)\s*(?:move\s*)?\|(?:[^|\n]*\||\|\s*[\w{(])",
    "raw pointer type (`*mut T` / `*const T`)": r"\*\s*(?:mut|const)\s+[\w(\[]",
    "`addr_of!` / `&raw`": r"\baddr_of(?:_mut)?!|&raw\s+(?:const|mut)",
    "inline asm (`asm!`/`ptx_asm!`)": r"\b(?:asm|ptx_asm|global_asm)!",
    "`#[unroll]`": r"#\[unroll",
    "enum with payload": r"\benum\s+\w+[^{]*\{[^}]*?\b[A-Z]\w*\s*[({]",
    "`union`": r"\bunion\s+\w+\s*\{",
    "trait impl (`impl Tr for T`)": r"\bimpl(?:<[^>]*>)?\s+[\w:]+(?:<[^>]*>)?\s+for\s+\w",
    "trait definition": r"\btrait\s+\w+",
    "operator trait impl (`impl Mul for`...)": r"\bimpl(?:<[^>]*>)?\s+(?:core::ops::|std::ops::)?(?:Add|Sub|Mul|Div|Neg|Rem|BitAnd|BitOr|BitXor|Shl|Shr)(?:Assign)?\b",
    "generic function": r"\bfn\s+\w+\s*<",
    "const generic parameter": r"<\s*const\s+\w+\s*:|,\s*const\s+\w+\s*:",
    "`ConstantMemory`": r"\bConstantMemory\b",
    "`DynamicSharedArray`": r"\bDynamicSharedArray\b",
    "`SharedArray`": r"\bSharedArray\b",
    "mbarrier / `Barrier`": r"\bmbarrier\w*|\bBarrier\b",
    "atomic types": r"\b(?:Device|Block|System)?Atomic[A-Z]\w*",
    "`core::ptr::` / `ptr::` functions": r"\b(?:core|std)::ptr::\w+|\bptr::(?:read|write|copy)\w*",
    "`transmute`": r"\btransmute\b",
    "`MaybeUninit`": r"\bMaybeUninit\b",
    "f16 / bf16 types": r"\b(?:f16|bf16)\b",
    "128-bit integers": r"\b[iu]128\b",
    "`char`": r"\bchar\b",
    "`static` item (other than `static mut X: SharedArray`)": r"^\s*(?:pub\s+)?static\s+(?:mut\s+)?\w+\s*:\s*(?!SharedArray)",
    "function pointer type": r":\s*(?:unsafe\s+)?(?:extern\s+\"C\"\s+)?fn\s*\(",
    "range slicing (`&x[a..b]`)": r"&(?:mut\s+)?\w+\[[^\]\n]*\.\.[^\]\n]*\]",
    "array of arrays/structs/tuples": r"\[\s*(?:\[|\(|[A-Z]\w*\s*;)",
    "`extern \"C\"` block": r"extern\s+\"C\"\s*\{",
    "`gpu_printf!`/`printf!`": r"\b(?:gpu_)?printf!",
    "cluster API (`cluster::`)": r"\bcluster::\w+",
    "`debug::` / `trap`": r"\bdebug::\w+|\btrap\(\)",
    "integer overflow methods (`checked_`/`overflowing_`/`wrapping_`)": r"\.(?:checked|overflowing|wrapping|saturating|carrying)_\w+\(",
    "`libm::` / `libdevice`": r"\blibm::\w+|\b__nv_\w+",
    "`#[launch_contract]`": r"#\[launch_contract",
}
CENSUS_RE = {k: re.compile(v, re.M) for k, v in CENSUS.items()}


def _skip_balanced(text: str, i: int) -> int:
    """Index just past the `}` matching the `{` at text[i] (comments, strings and char literals skipped)."""
    depth, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            continue
        if c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == "\\" else 1
        elif c == "'" and re.match(r"'(?:\\.|[^\\'])'", text[i:i + 4]):
            i = text.index("'", i + 2) if text[i + 1] != "\\" else text.index("'", i + 3)
        elif c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def device_region(text: str) -> str:
    """Approximately the device part of a source: the bodies of `#[cuda_module]` modules and top-level
    `#[kernel]`/`#[device]` items; the whole file minus `fn main` when there is no `#[cuda_module]`."""
    parts = []
    for m in re.finditer(r"#\[(?:[\w:]*cuda_module)[^\]]*\]\s*(?:pub\s+)?mod\s+\w+\s*\{", text):
        parts.append(text[m.end() - 1:_skip_balanced(text, m.end() - 1)])
    for m in re.finditer(r"^#\[(?:kernel|device)[^\]]*\][^{;]*\{", text, re.M):
        parts.append(text[m.end() - 1:_skip_balanced(text, m.end() - 1)])
    if parts:
        return "\n".join(parts)
    m = re.search(r"^fn\s+main\s*\([^)]*\)[^{]*\{", text, re.M)
    if m:
        return text[:m.start()] + text[_skip_balanced(text, m.end() - 1):]
    return text


def census(ex: "Example") -> list[str]:
    text = device_region(ex.bundle.read_text()) if ex.bundle else ""
    text = re.sub(r"//[^\n]*", "", text)
    return [k for k, r in CENSUS_RE.items() if r.search(text)]


# --- report ------------------------------------------------------------------------------------------


def pattern_of(msg: str) -> str:
    """`cannot find function `foo`` -> `cannot find function `…``; numbers folded too."""
    p = BACKTICK_RE.sub("`…`", msg)
    p = re.sub(r"\b\d+\b", "N", p)
    return p


def md_escape(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def names(lst: list[str], k: int = 6) -> str:
    s = ", ".join(lst[:k])
    return s + (f", … (+{len(lst) - k})" if len(lst) > k else "")


def write_report(examples: list[Example], args: argparse.Namespace, elapsed: float) -> str:
    total = len(examples)
    by_scope = defaultdict(list)
    for ex in examples:
        by_scope[ex.scope].append(ex)
    ins = by_scope["in"]
    ok = [e for e in ins if e.status == "ok"]
    failed = [e for e in ins if e.status != "ok"]
    internal = [e for e in examples if e.status in ("internal", "timeout")]
    pct = 100.0 * len(ok) / len(ins) if ins else 0.0
    L: list[str] = []
    L.append("# Rust frontend yardstick: cuda-oxide examples\n")
    L.append(f"Examples directory: `{args.examples}`  ")
    if args.snapshot:
        L.append(f"Snapshot: {args.snapshot}  ")
    L.append(f"Command: `oxide-opt BUNDLE.rs --emit=ptx --chip={args.chip}` (timeout {args.timeout:.0f}s); "
             f"wall time {elapsed:.0f}s. Host code is skipped by the frontend.\n")
    L.append("## Summary\n")
    L.append("| | count |\n|---|---|")
    L.append(f"| example crates | {total} |")
    L.append(f"| out of scope: Blackwell-only | {len(by_scope['blackwell'])} |")
    L.append(f"| out of scope: LTOIR / C++ linking | {len(by_scope['ltoir'])} |")
    L.append(f"| negative tests (`error*`, reported separately) | {len(by_scope['negative'])} |")
    if by_scope["nosource"]:
        L.append(f"| no device source found | {len(by_scope['nosource'])} |")
    L.append(f"| **in scope** | **{len(ins)}** |")
    L.append(f"| **compiled OK** | **{len(ok)}** |")
    L.append(f"| failed (diagnostic) | {sum(e.status == 'fail' for e in ins)} |")
    L.append(f"| failed (internal error / crash) | {sum(e.status == 'internal' for e in ins)} |")
    L.append(f"| failed (timeout) | {sum(e.status == 'timeout' for e in ins)} |")
    L.append(f"| **compiled %** | **{pct:.1f}%** (target 80%) |\n")

    gen_ok = [e for e in ok if e.generic_kernels]
    if gen_ok:
        L.append(f"Of the compiled examples, {len(gen_ok)} contain generic kernels that oxide-opt skips without "
                 "`--instantiate` (so their PTX lacks those kernels): "
                 + ", ".join(f"{e.name} ({', '.join(e.generic_kernels)})" for e in gen_ok) + ".\n")
        if args.instantiate_generics:
            inst = [(e.name, g, r) for e in gen_ok for g, r in e.instantiated.items()]
            good = sum(r == "ok" for _, _, r in inst)
            L.append(f"Instantiating each with `--instantiate NAME=f32`: {good}/{len(inst)} compile "
                     "(a failure can just mean that `f32` is the wrong kind of argument).\n")
    only_generic = [e for e in ok if e.generic_kernels and _all_kernels_generic(e)]
    if only_generic:
        L.append("Compiled only because every kernel is generic (nothing emitted): "
                 + ", ".join(e.name for e in only_generic) + ".\n")
    multi = [e for e in ins if e.multi_crate]
    if multi:
        L.append("Multi-crate examples (path dependencies inlined as modules by the yardstick): "
                 + ", ".join(f"{e.name} [{e.status}]" for e in multi) + ".\n")

    # failures grouped by pattern
    L.append("## Failure causes (first error, grouped by pattern)\n")
    groups: dict[str, list[Example]] = defaultdict(list)
    for e in failed:
        groups[pattern_of(e.message)].append(e)
    L.append("| # | count | first error pattern | examples |\n|---|---|---|---|")
    for i, (pat, exs) in enumerate(sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])), 1):
        L.append(f"| {i} | {len(exs)} | {md_escape(pat)} | {names([e.name for e in exs])} |")
    L.append("")

    L.append("## Failure causes (first error, exact message)\n")
    exact: dict[str, list[Example]] = defaultdict(list)
    for e in failed:
        exact[e.message].append(e)
    L.append("| count | first error | examples |\n|---|---|---|")
    for msg, exs in sorted(exact.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        L.append(f"| {len(exs)} | {md_escape(msg)} | {names([e.name for e in exs])} |")
    L.append("")

    L.append("## Construct census (approximate)\n")
    L.append("A regex scan of the device part of each in-scope source (the `#[cuda_module]` bodies and top-level "
             "`#[kernel]`/`#[device]` items). A construct used by an example is not necessarily unsupported; the "
             "columns show how many in-scope examples use it and how many of those failed (on whatever first "
             "error). Constructs common among failed examples but rare among compiled ones are the likely second "
             "and third blockers behind the first errors above.\n")
    L.append("| construct | in-scope examples using it | of which failed | of which compiled | failed examples |\n|---|---|---|---|---|")
    cen = {e.name: census(e) for e in ins}
    rows = []
    for k in CENSUS:
        users = [e for e in ins if k in cen[e.name]]
        fails = [e for e in users if e.status != "ok"]
        rows.append((len(fails), len(users), k, fails))
    for nf, nu, k, fails in sorted(rows, key=lambda r: (-r[0], -r[1], r[2])):
        if nu:
            L.append(f"| {md_escape(k)} | {nu} | {nf} | {nu - nf} | {names([e.name for e in fails], 5)} |")
    L.append("")

    L.append("## Internal errors and crashes (frontend bugs)\n")
    if internal:
        L.append("| example | scope | where | message |\n|---|---|---|---|")
        for e in internal:
            L.append(f"| {e.name} | {e.scope} | {e.location} | {md_escape(e.message)[:300]} |")
        L.append(f"\nFull outputs: `{args.work}/<example>.log`.\n")
    else:
        L.append("None.\n")

    L.append("## Negative tests (`error*` examples: the reference compiler rejects them)\n")
    L.append("| example | oxide | first error |\n|---|---|---|")
    for e in by_scope["negative"]:
        verdict = {"ok": "accepted (compiled)", "fail": "rejected", "internal": "internal error", "timeout": "timeout"}[e.status]
        L.append(f"| {e.name} | {verdict} | {md_escape(e.message)[:200]} |")
    L.append("")

    L.append("## Out of scope\n")
    L.append("| example | reason | oxide result (informational) |\n|---|---|---|")
    for e in by_scope["blackwell"] + by_scope["ltoir"] + by_scope["nosource"]:
        res = e.status if e.status == "ok" else f"{e.status}: {md_escape(e.message)[:120]}"
        L.append(f"| {e.name} | {md_escape(e.scope_reason)} | {res} |")
    L.append("")

    L.append("## All in-scope examples\n")
    L.append("| example | result | where | first error | generic kernels | time (s) |\n|---|---|---|---|---|---|")
    for e in ins:
        L.append(f"| {e.name} | {e.status} | {e.location} | {md_escape(e.message)[:160]} | "
                 f"{', '.join(e.generic_kernels)} | {e.seconds:.1f} |")
    L.append("")
    return "\n".join(L)


def _all_kernels_generic(e: Example) -> bool:
    text = e.bundle.read_text() if e.bundle else ""
    return len(re.findall(r"#\[kernel", text)) == len(e.generic_kernels)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("examples", type=Path)
    here = Path(__file__).resolve().parent
    ap.add_argument("--out", type=Path, default=here / "report.md")
    ap.add_argument("--work", type=Path, default=Path("/tmp/oxide-yardstick"))
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2)))
    ap.add_argument("--oxide-opt", default=str(Path(sys.executable).parent / "oxide-opt"))
    ap.add_argument("--chip", default="sm_90a")
    ap.add_argument("--only", nargs="*", help="run only these examples")
    ap.add_argument("--snapshot", default="", help="free text naming the snapshot (commit), put in the report")
    ap.add_argument("--instantiate-generics", action="store_true",
                    help="also try `--instantiate NAME=f32` on each generic kernel of a compiled example")
    args = ap.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    examples = discover(args.examples)
    if args.only:
        examples = [e for e in examples if e.name in set(args.only)]
    runnable = []
    for ex in examples:
        if ex.device_file is None:
            classify(ex, "")
            continue
        text = build_bundle(ex, args.work)
        classify(ex, text)
        ex.generic_kernels = [m.group("name") for m in GENERIC_KERNEL_RE.finditer(text)]
        ex.bundle = args.work / f"{ex.name}.rs"
        ex.bundle.write_text(text)
        runnable.append(ex)
    start = time.perf_counter()
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for ex in pool.map(lambda e: process(e, args), runnable):
            print(f"{ex.name:40s} {ex.scope:9s} {ex.status:8s} {ex.message[:100]}", flush=True)
    elapsed = time.perf_counter() - start
    report = write_report(examples, args, elapsed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(report)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
