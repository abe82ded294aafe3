"""Parse MLIR's textual pipeline syntax and build a PassManager mixing oxide passes with upstream ones.

    builtin.module(oxide-verify, canonicalize{max-iterations=3}, gpu.module(convert-gpu-to-nvvm))

oxide passes run through PassManager.add(callable) and anchor on builtin.module, so they may appear only
at the top level of the module pipeline; runs of upstream elements between them are handed to MLIR's own
parser. Every upstream element is checked when the pipeline is parsed, so a misspelt pass is reported at
its column in the pipeline text, not when the pipeline runs.

A pipeline is text, or a list of steps (an oxide pass, configured, or upstream pipeline text): code that
builds a pipeline hands over its passes as objects, so their options (a Target) are never spelt and parsed.
A named pipeline (`simt-to-ptx{chip=sm_90}`) expands to such steps.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from typing import ClassVar, Iterator, Sequence, Union

from mlir import ir
from mlir.passmanager import PassManager

from oxide.ir.registry import Registry
from oxide.diagnostics import OxideError
from oxide.passes.base import OxidePass, verify_upstream_output
from oxide.passes.registry import instantiate, pipeline_error, registered_passes

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")

# One step of a pipeline built in code: an oxide pass with its options set, or upstream pipeline text.
Step = Union[OxidePass, str]


@dataclass
class PipelineElement:
    """One pass or nested anchor of a pipeline, with where it stands in the text."""

    name: str
    offset: int
    end: int
    options: str | None = None
    options_offset: int = 0
    children: list["PipelineElement"] | None = None
    oxide: OxidePass | None = field(default=None, repr=False)
    source: str = ""


@dataclass(frozen=True)
class NamedPipeline:
    """A pipeline with a name and options (`simt-to-ptx{chip=sm_90}`) that expands to pipeline steps."""

    name: ClassVar[str]

    def expand(self) -> list[Step]:
        """The steps this name stands for."""
        raise NotImplementedError


PIPELINES: Registry[str, type[NamedPipeline]] = Registry("pipeline")


def register_pipeline(cls: type[NamedPipeline]) -> type[NamedPipeline]:
    """Class decorator: make a named pipeline usable inside pipeline text."""
    PIPELINES.add(cls.name, cls)
    return cls


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.pos = 0

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def peek(self) -> str:
        self.skip_space()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def elements(self, closing: str) -> list[PipelineElement]:
        items: list[PipelineElement] = []
        if self.peek() == closing:
            return items
        while True:
            items.append(self.element())
            nxt = self.peek()
            if nxt == ",":
                self.pos += 1
                continue
            if nxt == closing:
                return items
            what = f"'{nxt}'" if nxt else "the end of the pipeline"
            expected = "',' or ')'" if closing == ")" else "',' or the end of the pipeline"
            raise pipeline_error(f"expected {expected}, found {what}", self.pos)

    def element(self) -> PipelineElement:
        self.skip_space()
        match = _NAME.match(self.text, self.pos)
        if not match:
            found = f"'{self.text[self.pos]}'" if self.pos < len(self.text) else "the end of the pipeline"
            raise pipeline_error(f"expected a pass or anchor name, found {found}", self.pos)
        element = PipelineElement(match.group(), match.start(), match.end())
        self.pos = match.end()
        if self.pos < len(self.text) and self.text[self.pos] == "{":
            element.options_offset = self.pos + 1
            element.options = self.braced()
        if self.peek() == "(":
            if element.options is not None:
                raise pipeline_error(f"anchor '{element.name}' takes no options", element.options_offset - 1)
            self.pos += 1
            element.children = self.elements(")")
            self.pos += 1
        element.end = self.pos
        element.source = self.text[element.offset : element.end]
        return element

    def braced(self) -> str:
        start, depth = self.pos, 0
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            depth += {"{": 1, "}": -1}.get(ch, 0)
            self.pos += 1
            if depth == 0:
                return self.text[start + 1 : self.pos - 1]
        raise pipeline_error("unterminated '{' in pass options", start)


def parse_pipeline(text: str) -> list[PipelineElement]:
    """The elements run on builtin.module: `builtin.module(a, b)` and a bare `a, b` mean the same."""
    parser = _Parser(text)
    items = parser.elements(closing="")
    if len(items) == 1 and items[0].name == "builtin.module" and items[0].children is not None:
        items = items[0].children
    return _resolve(text, items, nested_in=None)


def _expand(item: PipelineElement) -> list[PipelineElement]:
    """The elements a named pipeline stands for, located at the name in the user's text."""
    named = instantiate(PIPELINES[item.name], item.options or "", item.options_offset)
    try:
        inner = steps_to_elements(named.expand())
    except OxideError as exc:
        raise pipeline_error(f"internal error in pipeline '{item.name}': {exc.diagnostics[0].message}",
                             item.offset) from None
    for element in inner:
        element.offset, element.end = item.offset, item.end
    return inner


def steps_to_elements(steps: Sequence[Step]) -> list[PipelineElement]:
    """The elements of a pipeline given as steps: text is parsed, pass objects are taken as they are."""
    elements: list[PipelineElement] = []
    for step in steps:
        if isinstance(step, str):
            elements.extend(parse_pipeline(step))
        else:
            elements.append(PipelineElement(step.name, 0, 0, oxide=step, source=step.name))
    return elements


def _resolve(text: str, items: list[PipelineElement], nested_in: str | None) -> list[PipelineElement]:
    """Bind oxide passes to instances, expand named pipelines, check upstream elements against MLIR."""
    oxide_passes = registered_passes()
    resolved: list[PipelineElement] = []
    for item in items:
        if item.name in PIPELINES and item.children is None:
            if nested_in is not None:
                raise pipeline_error(f"pipeline '{item.name}' runs on builtin.module and cannot be nested under "
                                     f"'{nested_in}'", item.offset)
            resolved.extend(_expand(item))
            continue
        resolved.append(item)
        if item.children is not None:
            item.children = _resolve(text, item.children, nested_in=nested_in or item.name)
            if nested_in is None:
                _check_upstream(text, item)
            continue
        cls = oxide_passes.get(item.name)
        if cls is None:
            if nested_in is None:
                _check_upstream(text, item)
            continue
        if nested_in is not None:
            raise pipeline_error(
                f"oxide pass '{item.name}' runs on builtin.module and cannot be nested under '{nested_in}'; "
                "move it to the top level of the pipeline",
                item.offset,
            )
        item.oxide = instantiate(cls, item.options or "", item.options_offset)
    return resolved


_MLIR_PIPELINE_ERROR = re.compile(r"Parser:1:(\d+): error: (.*)")
_UNKNOWN_PASS = re.compile(r"'([^']+)' does not refer to a registered pass")
_MLIR_OPTIONS_ERROR = re.compile(r"failed to add `([^`]*)` with options")


@contextlib.contextmanager
def _stderr_captured() -> Iterator[list[str]]:
    """Capture what LLVM writes straight to file descriptor 2 (its option parser reports there)."""
    captured: list[str] = []
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile(mode="w+") as sink:
        os.dup2(sink.fileno(), 2)
        try:
            yield captured
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            sink.seek(0)
            captured.append(sink.read())


def _leaves(item: PipelineElement) -> Iterator[PipelineElement]:
    if item.children is None:
        yield item
    for child in item.children or []:
        yield from _leaves(child)


def _check_upstream(text: str, item: PipelineElement) -> None:
    """Let MLIR parse one upstream element alone, and relocate its complaint into our text."""
    wrapper = "builtin.module("
    with _stderr_captured() as stderr:
        try:
            PassManager.parse(wrapper + item.source + ")")
            return
        except ValueError as exc:
            message = str(exc)
    match = _MLIR_PIPELINE_ERROR.search(message)
    if match:
        # MLIR re-parses nested pipelines as buffers of their own, so its column is only right at the top
        # level; an unknown name is found in our own tree instead.
        unknown = _UNKNOWN_PASS.match(match.group(2))
        offset = item.offset + max(int(match.group(1)) - 1 - len(wrapper), 0)
        if unknown:
            offset = next((e.offset for e in _leaves(item) if e.name == unknown.group(1)), offset)
        raise pipeline_error(match.group(2), offset)
    options = _MLIR_OPTIONS_ERROR.search(message)
    if options:
        details = [line.strip(" :") for line in (message[: options.start()] + "\n" + stderr[0]).splitlines()]
        detail = "; ".join(d.replace("<Pass-Options-Parser>: ", "") for d in details if d)
        raise pipeline_error(f"invalid options for '{options.group(1)}': {detail or 'rejected by MLIR'}",
                             item.options_offset if item.options is not None else item.offset)
    raise pipeline_error(f"invalid pipeline element: {message.strip().splitlines()[0]}", item.offset)


def build_pass_manager(pipeline: str | Sequence[Step], context: ir.Context | None = None) -> PassManager:
    """A PassManager on builtin.module running `pipeline`: pipeline text, or steps."""
    with context or ir.Context.current:
        items = parse_pipeline(pipeline) if isinstance(pipeline, str) else steps_to_elements(pipeline)
        pm = PassManager("builtin.module")
        # MLIR verifies the whole module after every pass, nested ones included: a few milliseconds each on a
        # GEMM kernel, fifteen times over. Instead each oxide pass verifies what it changed, and each run of
        # upstream passes is verified once, at its end.
        pm.enable_verifier(False)
        pending: list[str] = []

        def flush() -> None:
            if pending:
                pm.add(",".join(pending))
                pm.add(verify_upstream_output, "verify-upstream-output")
                pending.clear()

        for item in items:
            if item.oxide is not None:
                flush()
                pm.add(item.oxide.as_callable(), item.name)
            else:
                pending.append(item.source)
        flush()
        return pm


__all__ = ["NamedPipeline", "PipelineElement", "Step", "build_pass_manager", "parse_pipeline", "register_pipeline",
           "steps_to_elements"]
