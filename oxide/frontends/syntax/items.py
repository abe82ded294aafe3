"""The crate view of a Rust source file: functions, structs, enums, unions, impls, consts, modules and
`macro_rules!` definitions by name, as syntax nodes, turned into AST on first use.

Items are found in the whole file (inside `#[cuda_module] mod` wrappers and other modules too) but built
only when a kernel reaches them, so host code (`fn main`, host crates) is skipped, never rejected. What a
function's outer attributes mean is the frontend's: it passes a reader for them (`AttributeReader`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from oxide.frontends.syntax import ast
from oxide.frontends.syntax.attributes import Attribute, attributed, attribute_fields
from oxide.frontends.syntax.build import Builder
from oxide.frontends.syntax.parser import text
from oxide.frontends.syntax.macro_rules import MAX_DEPTH, MacroDef, expand
from oxide.frontends.syntax.parser import Source, parse
from oxide.diagnostics import OxideError

# A frontend's reading of a function's outer attributes (`#[kernel(...)]`, `#[launch_bounds(...)]`) into the
# values of ast.Function.attrs; called once the function's signature and body are built.
AttributeReader = Callable[[Builder, list[Attribute]], dict[str, Any]]


def no_attributes(b: Builder, attrs: list[Attribute]) -> dict[str, Any]:
    """The reader of a frontend whose functions carry no attributes it interprets."""
    return {}


@dataclass
class Crate:
    """Every item of the file by name, as syntax nodes, built on first use."""

    source: Source
    read_attributes: AttributeReader
    kernel_attribute: str  # the outer attribute that marks a kernel (`#[kernel]`)
    functions: dict[str, tuple[Any, list[Attribute]]] = field(default_factory=dict)
    structs: dict[str, Any] = field(default_factory=dict)
    item_attrs: dict[Any, list[Attribute]] = field(default_factory=dict)  # of structs and enums
    enums: dict[str, Any] = field(default_factory=dict)
    unions: dict[str, Any] = field(default_factory=dict)  # only to name them in the error (unsupported)
    consts: dict[str, Any] = field(default_factory=dict)
    impls: dict[str, list[Any]] = field(default_factory=dict)
    kernels: list[str] = field(default_factory=list)
    modules: set[str] = field(default_factory=set)
    macros: dict[str, MacroDef] = field(default_factory=dict)
    # The Source of each item a `macro_rules!` invocation expanded to (other items are in `source`).
    sources: dict[Any, Source] = field(default_factory=dict)
    # Consts declared in function bodies, (function node, name, const node), placed by scope_local_consts.
    local_consts: list[tuple[Any, str, Any]] = field(default_factory=list)
    enclosing: dict[Any, Any] = field(default_factory=dict)  # a function declared in a body -> that function
    # function node -> {const declaration's start byte: (name, key)} for its consts placed under a key
    renames: dict[Any, dict[int, tuple[str, str]]] = field(default_factory=dict)
    const_owner: dict[Any, Any] = field(default_factory=dict)  # a const placed under a key -> its function
    _built: dict[Any, Any] = field(default_factory=dict)

    def builder(self, item: Any) -> Builder:
        """A builder for the syntax of `item` (a top-level or impl item node)."""
        renames: dict[str, str] = {}
        # A const's value is read where it is declared: in its function (`TILE_BYTES = TILE_SIZE * 4`).
        scope = self.const_owner.get(item) or self.enclosing.get(item)
        while scope is not None:  # a nested function sees the consts of the bodies it is declared in
            renames = {**dict(self.renames.get(scope, {}).values()), **renames}
            scope = self.enclosing.get(scope)
        return Builder(self.sources.get(item, self.source), self.macros, renames=renames,
                       scoped=self.renames.get(item, {}))

    def function(self, name: str) -> ast.Function | None:
        """The AST of a free function (kernel, device function or helper), or None."""
        entry = self.functions.get(name)
        if entry is None:
            return None
        node, attrs = entry
        if node not in self._built:
            self._built[node] = build_function(self.builder(node), node, attrs, self.read_attributes)
        return self._built[node]

    def method(self, type_name: str, name: str) -> ast.Function | None:
        """The AST of `impl type_name { fn name }`, or None."""
        for impl in self.impls.get(type_name, []):
            body = impl.child_by_field_name("body")
            for child in body.named_children:
                if child.type == "function_item" and text(child.child_by_field_name("name")) == name:
                    if child not in self._built:
                        self._built[child] = build_function(self.builder(impl), child, [], self.read_attributes)
                    return self._built[child]
        return None

    def assoc_const(self, type_name: str, name: str) -> ast.ConstDef | None:
        """The associated const `name` of an `impl` (inherent or of a trait) for `type_name`, or None."""
        for impl in self.impls.get(type_name, []):
            for child in impl.child_by_field_name("body").named_children:
                if child.type == "const_item" and text(child.child_by_field_name("name")) == name \
                        and child.child_by_field_name("value") is not None:
                    if child not in self._built:
                        b = self.builder(impl)
                        self._built[child] = ast.ConstDef(b.loc(child), name, b.type_(child.child_by_field_name("type")),
                                                          b.expr(child.child_by_field_name("value")))
                    return self._built[child]
        return None

    def assoc_type(self, type_name: str, name: str) -> Any:
        """The type AST of `type name = T;` in an `impl` for `type_name` (`Self::Output`), or None."""
        for impl in self.impls.get(type_name, []):
            for child in impl.child_by_field_name("body").named_children:
                if child.type == "type_item" and text(child.child_by_field_name("name")) == name:
                    return self.builder(impl).type_(child.child_by_field_name("type"))
        return None

    def struct(self, name: str) -> ast.StructDef | None:
        node = self.structs.get(name)
        if node is None:
            return None
        if node not in self._built:
            self._built[node] = build_struct(self.builder(node), node, self.item_attrs.get(node, []))
        return self._built[node]

    def enum(self, name: str) -> ast.EnumDef | None:
        node = self.enums.get(name)
        if node is None:
            return None
        if node not in self._built:
            self._built[node] = build_enum(self.builder(node), node, self.item_attrs.get(node, []))
        return self._built[node]

    def const(self, name: str) -> ast.ConstDef | None:
        node = self.consts.get(name)
        if node is None:
            return None
        if node not in self._built:
            b = self.builder(node)
            self._built[node] = ast.ConstDef(b.loc(node), name, b.type_(node.child_by_field_name("type")),
                                             b.expr(node.child_by_field_name("value")))
        return self._built[node]


def collect(source: Source, root: Any, read_attributes: AttributeReader, kernel_attribute: str) -> Crate:
    """Index every item of the file; functions marked `#[<kernel_attribute>]` are its kernels."""
    crate = Crate(source, read_attributes, kernel_attribute)
    _collect_items(crate, root.named_children, source)
    scope_local_consts(crate)
    return crate


def scope_local_consts(crate: Crate) -> None:
    """Give each const declared in a function body its scope. One whose name no other const uses is indexed by
    its name as before; one whose name another const of the crate (a module-level one, or one in another
    function: `const TILE: u32` of two sizes in two kernels) also uses is indexed under a key of its own, which
    the function's builder substitutes for the name, so each function reads its own value."""
    # Even two equal texts get a key each: `TILE_BYTES = TILE_SIZE * 4` in two kernels means two values.
    counts: dict[str, int] = {name: 1 for name in crate.consts}
    for _, name, _ in crate.local_consts:
        counts[name] = counts.get(name, 0) + 1
    for function, name, node in crate.local_consts:
        if counts[name] == 1:
            crate.consts[name] = node
            continue
        key = f"{name}@{text(function.child_by_field_name('name'))}:{node.start_byte}"  # never a Rust name
        crate.renames.setdefault(function, {})[node.start_byte] = (name, key)
        crate.consts[key] = node
        crate.const_owner[node] = function


def _collect_items(crate: Crate, nodes: list[Any], source: Source, depth: int = 0) -> None:
    for node, attrs in attributed(nodes):
        _collect_item(crate, node, attrs, source, depth)


def _collect_item(crate: Crate, node: Any, attrs: list[Attribute], source: Source, depth: int) -> None:
    """Index one item (`attrs`: the outer attributes written before it)."""
    if source is not crate.source:
        crate.sources[node] = source
    if node.type == "macro_definition":
        name = text(node.child_by_field_name("name"))
        crate.macros[name] = MacroDef(name, source, node)
        return
    invocation = node.named_children[0] if node.type == "expression_statement" and node.named_children \
        else node
    if invocation.type == "macro_invocation":
        name = text(invocation.child_by_field_name("macro")).split("::")[-1]
        if name in crate.macros:  # other item macros are host ones (or unknown): nothing for the device
            if depth >= MAX_DEPTH:
                raise OxideError(f"`{name}!` expands recursively more than {MAX_DEPTH} levels deep",
                                 source.loc(invocation))
            expanded = expand(crate.macros[name], invocation, source)
            _collect_items(crate, parse(expanded).root_node.named_children, expanded, depth + 1)
        return
    if node.type == "function_item":
        name = text(node.child_by_field_name("name"))
        if _first_definition(crate, crate.functions.get(name, (None,))[0], node, name, source):
            crate.functions[name] = (node, attrs)
        if any(a.name == crate.kernel_attribute for a in attrs):
            crate.kernels.append(name)
        body = node.child_by_field_name("body")
        if body is not None:
            # Items declared inside a function body (in any nested block) share the crate's namespace here,
            # but for consts, which scope_local_consts places once every item is known.
            for item, item_attrs in _local_items(body):
                if item.type == "const_item":
                    crate.local_consts.append((node, text(item.child_by_field_name("name")), item))
                else:
                    if item.type == "function_item":
                        crate.enclosing[item] = node
                    _collect_item(crate, item, item_attrs, source, depth)
    elif node.type == "mod_item":
        crate.modules.add(text(node.child_by_field_name("name")))
        body = node.child_by_field_name("body")
        if body is not None:
            _collect_items(crate, body.named_children, source, depth)
    elif node.type in _TABLES:
        table = getattr(crate, _TABLES[node.type])
        name = text(node.child_by_field_name("name"))
        if _first_definition(crate, table.get(name), node, name, source):
            table[name] = node
            crate.item_attrs[node] = attrs
    elif node.type == "impl_item":
        type_node = node.child_by_field_name("type")
        if type_node.type == "reference_type":
            # `impl Mul for &Foo`: `&a * &b` of Foo values (a `&Foo` is used by value here).
            type_node = type_node.child_by_field_name("type")
        base = type_node.child_by_field_name("type") if type_node.type == "generic_type" else type_node
        crate.impls.setdefault(text(base), []).append(node)
    # use lines, traits, macro_rules, extern crate: nothing the device code needs


_LOCAL_ITEMS = ("function_item", "struct_item", "enum_item", "impl_item", "const_item")
# The crate table each kind of named item is indexed in.
_TABLES = {"struct_item": "structs", "union_item": "unions", "enum_item": "enums", "const_item": "consts",
           "static_item": "consts"}


def _first_definition(crate: Crate, earlier: Any, node: Any, name: str, source: Source) -> bool:
    """Whether `node` is the first definition of `name`. Items of every module and function body share one
    namespace here, so a second, different definition (`const N` in two kernels with two values) would
    silently replace the first everywhere: it is an error. The same text again (a helper duplicated by a
    macro, the same constant in two kernels) is the same item."""
    if earlier is None:
        return True
    if text(earlier) == text(node):
        return False
    first = crate.sources.get(earlier, crate.source).loc(earlier)
    raise OxideError(f"`{name}` is defined twice with different definitions (the first at {first}); oxide "
                     "resolves the items of every module and function body in one namespace, so rename one of "
                     "them", source.loc(node.child_by_field_name("name") or node))


def _local_items(node: Any) -> list[tuple[Any, list[Attribute]]]:
    """The items declared in a function body with their attributes, also inside nested blocks (not inside
    nested functions, whose own bodies are collected when those functions are)."""
    found = []
    for child, attrs in attributed(node.named_children):
        if child.type in _LOCAL_ITEMS:
            found.append((child, attrs))
        elif child.type != "closure_expression":
            found.extend(_local_items(child))
    return found


def build_function(b: Builder, node: Any, attrs: list[Attribute], read_attributes: AttributeReader) -> ast.Function:
    """The AST of a function item, with its outer attributes `attrs` read by `read_attributes`."""
    if any(c.type == "function_modifiers" and "async" in text(c) for c in node.children):
        raise b.fail(node, "`async fn`")
    name = text(node.child_by_field_name("name"))
    generics = _generics(b, node.child_by_field_name("type_parameters"))
    params: list[ast.Param] = []
    self_param = None
    for p in node.child_by_field_name("parameters").named_children:
        if p.type == "self_parameter":
            raw = text(p).replace(" ", "")
            self_param = "&mut self" if raw.startswith("&mut") else "&self" if raw.startswith("&") else "self"
            continue
        if p.type == "variadic_parameter":
            raise b.fail(p, "a variadic parameter")
        if p.type != "parameter":
            continue
        pattern = b.pattern(p.child_by_field_name("pattern"))
        if any(c.type == "mutable_specifier" for c in p.children) and isinstance(pattern, ast.BindPat):
            pattern.mutable = True
        params.append(ast.Param(b.loc(p), pattern, b.type_(p.child_by_field_name("type"))))
    ret_node = node.child_by_field_name("return_type")
    body = b.x_block(node.child_by_field_name("body"))
    attributes = read_attributes(b, attrs)
    modifiers = next((c for c in node.children if c.type == "function_modifiers"), None)
    if modifiers is not None and "unsafe" in text(modifiers):
        attributes["unsafe"] = True
    return ast.Function(b.loc(node), name, generics, params, b.type_(ret_node) if ret_node is not None else None,
                        body, attributes, self_param)


def _generics(b: Builder, node: Any) -> list[ast.Generic]:
    out: list[ast.Generic] = []
    if node is None:
        return out
    for g in node.named_children:
        if g.type == "type_parameter" or g.type == "constrained_type_parameter":
            name_node = g.child_by_field_name("name") or g.child_by_field_name("left") or g.named_children[0]
            out.append(ast.Generic(b.loc(g), text(name_node)))
        elif g.type == "type_identifier":
            out.append(ast.Generic(b.loc(g), text(g)))
        elif g.type == "const_parameter":
            out.append(ast.Generic(b.loc(g), text(g.child_by_field_name("name")), b.type_(g.child_by_field_name("type"))))
        elif g.type == "lifetime_parameter" or g.type == "lifetime":
            continue
    return out


def build_struct(b: Builder, node: Any, attrs: list[Attribute]) -> ast.StructDef:
    name = text(node.child_by_field_name("name"))
    generics = _generics(b, node.child_by_field_name("type_parameters"))
    body = node.child_by_field_name("body")
    fields: list[tuple[str, Any]] = []
    align, transparent = _struct_repr(b, name, attrs)
    if body is None:
        return ast.StructDef(b.loc(node), name, generics, fields, align)
    if body.type == "field_declaration_list":
        for f in body.named_children:
            if f.type == "field_declaration":
                fields.append((text(f.child_by_field_name("name")), b.type_(f.child_by_field_name("type"))))
    else:  # tuple struct
        for i, t in enumerate(c for c in body.named_children if c.type not in ("visibility_modifier",)):
            fields.append((str(i), b.type_(t)))
    if transparent is not None and len(fields) != 1:
        raise OxideError(f"`#[repr(transparent)]` on `{name}`, which has {len(fields)} fields: oxide supports it "
                         "on structs of exactly one field (whose layout it then has); remove the attribute or "
                         "the other fields", b.loc(transparent.node))
    return ast.StructDef(b.loc(node), name, generics, fields, align)


_REPR_ALIGN = re.compile(r"align\s*\(\s*([0-9_]+)\s*\)")


def _struct_repr(b: Builder, name: str, attrs: list[Attribute]) -> tuple[int, Attribute | None]:
    """The `#[repr(..)]` attributes of a struct: its `align(N)` (0 when none) and the `transparent` one.

    Fields are always laid out in declaration order at their alignment (C layout), so `C` and `Rust` need
    nothing; a repr that would change the layout in a way oxide does not model is refused, never ignored."""
    align, transparent = 0, None
    for attr in attrs:
        if attr.name != "repr":
            continue
        for part in _top_level(attr.args):
            if part in ("C", "Rust"):
                continue
            if part == "transparent":
                transparent = attr
                continue
            match = _REPR_ALIGN.fullmatch(part)
            if match is not None:
                n = int(match.group(1).replace("_", ""))
                if n < 1 or n & (n - 1) or n > 1 << 29:
                    raise OxideError(f"`#[repr(align({n}))]` on `{name}`: the alignment must be a power of two "
                                     "from 1 to 2^29", b.loc(attr.node))
                align = max(align, n)  # several align reprs: the largest wins, as in rustc
                continue
            if part.startswith("packed"):
                raise OxideError(f"`#[repr({part})]` on `{name}`: packed structs are not supported (their fields "
                                 "would be misaligned for the GPU's loads and stores); remove `packed` and lay "
                                 "the fields out yourself, e.g. order them by decreasing size", b.loc(attr.node))
            raise OxideError(f"`#[repr({part})]` on struct `{name}` is not supported; oxide knows `C`, `Rust`, "
                             "`align(N)` and `transparent` (on one-field structs)", b.loc(attr.node))
    return align, transparent


def _top_level(args: str) -> list[str]:
    """`C, align(16)` split at top-level commas, stripped."""
    return [key if not value else f"{key}={value}" for key, value in attribute_fields(args)]


_INT_REPRS = ("i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "isize", "usize")


def build_enum(b: Builder, node: Any, attrs: list[Attribute]) -> ast.EnumDef:
    variants: list[tuple[str, int | None]] = []
    fields: dict[str, list[Any]] = {}
    for v in node.child_by_field_name("body").named_children:
        if v.type != "enum_variant":
            continue
        name = text(v.child_by_field_name("name"))
        body = v.child_by_field_name("body")
        if body is not None:
            if body.type != "ordered_field_declaration_list":
                raise b.fail(v, "an enum variant with named fields", "use a tuple variant: `V(T, U)`")
            fields[name] = [b.type_(t) for t in body.named_children if t.type not in ("visibility_modifier",)]
        value = v.child_by_field_name("value")
        variants.append((name, b.literal_value(value) if value is not None else None))
    # `#[repr(C)]` counts only without an integer repr: `#[repr(C, u8)]` is a u8.
    reprs = [part for attr in attrs if attr.name == "repr" for part in _top_level(attr.args)
             if part in _INT_REPRS or part == "C"]
    reprs = [r for r in reprs if r != "C"] or reprs
    return ast.EnumDef(b.loc(node), text(node.child_by_field_name("name")), variants, fields, reprs[-1] if reprs else "")
