"""Concrete syntax tree (tree-sitter-rust) -> AST of the supported subset.

Anything outside the subset stops here with `error: <what> is not supported in device code` at the
construct. Host-only items (`fn main`, `use` lines, host modules) are skipped by items.py, not here.
"""

from __future__ import annotations

from typing import Any, Callable

from oxide.frontends.syntax import ast, literals
from oxide.frontends.syntax.asm_operands import asm_operands_as_calls
from oxide.frontends.syntax.attributes import read_attribute, unroll_count, unrolled_loop
from oxide.frontends.syntax.errors import unsupported
from oxide.frontends.syntax.macro_rules import MAX_DEPTH, expand
from oxide.frontends.syntax.parser import Source, parse, text
from oxide.diagnostics import OxideError, SourceLoc


class Builder:
    """Builds AST nodes for one Source (the file, a macro's re-parsed arguments, or a `macro_rules!`
    expansion); `macros` are the file's `macro_rules!` definitions by name."""

    def __init__(self, source: Source, macros: dict[str, Any] | None = None, depth: int = 0,
                 renames: dict[str, str] | None = None, scoped: dict[int, tuple[str, str]] | None = None):
        self.source = source
        self.macros = macros or {}
        self.depth = depth  # how many user macro expansions this source is nested in
        # Body consts sharing a name with another definition (items.scope_local_consts): `scoped` maps each
        # declaration's start byte to (name, key); `renames` holds those in scope.
        self.renames, self.scoped = dict(renames or {}), scoped or {}
        self._unrolls: dict[int, int] = {}  # loop node start byte -> its #[unroll] count (0: fully)

    def loc(self, node: Any):
        return self.source.loc(node)

    def fail(self, node: Any, what: str, hint: str = "") -> OxideError:
        return unsupported(self.source, node, what, hint)

    # Types ---------------------------------------------------------------------------------------------
    def type_(self, node: Any) -> Any:
        kind = node.type
        loc = self.loc(node)
        if kind in ("primitive_type", "type_identifier"):
            return ast.PathTy(loc, text(node))
        if kind == "scoped_type_identifier":
            return ast.PathTy(loc, text(node.child_by_field_name("name")))
        if kind == "generic_type":
            base = node.child_by_field_name("type")
            name = text(base.child_by_field_name("name")) if base.type == "scoped_type_identifier" else text(base)
            args = [self.type_arg(a) for a in node.child_by_field_name("type_arguments").named_children]
            # Lifetimes (`DisjointSlice<'a, f32>`) are no type arguments here.
            return ast.PathTy(loc, name, [a for a in args if a is not None])
        if kind == "reference_type":
            inner = node.child_by_field_name("type")
            mutable = any(c.type == "mutable_specifier" for c in node.children)
            return ast.RefTy(loc, self.type_(inner), mutable)
        if kind == "array_type":
            elem = self.type_(node.child_by_field_name("element"))
            length = node.child_by_field_name("length")
            return ast.ArrayTy(loc, elem, self.expr(length)) if length is not None else ast.SliceTy(loc, elem)
        if kind == "tuple_type":
            return ast.TupleTy(loc, [self.type_(c) for c in node.named_children])
        if kind == "unit_type":
            return ast.TupleTy(loc, [])
        if kind == "pointer_type":
            mutable = any(c.type == "mutable_specifier" for c in node.children)
            return ast.PtrTy(loc, self.type_(node.child_by_field_name("type")), mutable)
        if kind == "never_type":
            return ast.PathTy(loc, "!")
        if kind == "dynamic_type":
            raise self.fail(node, "`dyn Trait`", "use a generic parameter with a trait bound")
        if kind == "abstract_type":
            raise self.fail(node, "an `impl Trait` type", "use a generic parameter with a trait bound")
        if kind == "function_type":
            return ast.FnPtrTy(loc)
        raise self.fail(node, f"the type `{text(node)}`")

    def type_arg(self, node: Any) -> Any:
        if node.type in ("integer_literal", "block", "identifier", "unary_expression", "binary_expression"):
            return self.expr(node) if node.type != "identifier" else ast.PathTy(self.loc(node), text(node))
        if node.type == "type_binding":
            raise self.fail(node, "an associated type binding")
        if node.type == "lifetime":
            return None
        return self.type_(node)

    # Patterns ------------------------------------------------------------------------------------------
    def pattern(self, node: Any) -> Any:
        kind, loc = node.type, self.loc(node)
        if kind == "identifier":
            name = text(node)
            if name == "None":
                return ast.VariantPat(loc, ["None"])
            return ast.BindPat(loc, name)
        if kind == "mut_pattern":
            inner = self.pattern(node.named_children[-1])
            if not isinstance(inner, ast.BindPat):
                raise self.fail(node, "`mut` on a non-binding pattern")
            inner.mutable = True
            return inner
        if kind == "_" or text(node) == "_":
            return ast.WildPat(loc)
        if kind == "tuple_pattern":
            # `_` is an anonymous node in tree-sitter-rust: take every child but the punctuation.
            return ast.TuplePat(loc, [self.pattern(c) for c in node.children if c.type not in ("(", ")", ",")])
        if kind == "tuple_struct_pattern":
            path = text(node.child_by_field_name("type")).split("::")
            type_node = node.child_by_field_name("type")
            elems = [self.pattern(c) for c in node.children
                     if c.type not in ("(", ")", ",") and c != type_node]
            return ast.VariantPat(loc, path, elems)
        if kind in ("scoped_identifier",):
            return ast.VariantPat(loc, text(node).split("::"))
        if kind in ("integer_literal", "boolean_literal", "negative_literal", "char_literal"):
            return ast.LitPat(loc, self.literal_value(node))
        if kind == "range_pattern":
            return self.range_pattern(node)
        if kind == "or_pattern":
            return ast.OrPat(loc, [self.pattern(c) for c in node.named_children])
        if kind == "match_pattern":
            return self.pattern(node.named_children[0]) if node.named_children else ast.WildPat(loc)
        if kind == "remaining_field_pattern":
            return ast.RestPat(loc)
        if kind == "reference_pattern":
            return ast.RefPat(loc, self.pattern(node.named_children[-1]))
        if kind == "ref_pattern":
            raise self.fail(node, "a `ref` binding", "bind the value, or match on `&mut x`")
        if kind == "struct_pattern":
            raise self.fail(node, "a struct pattern", "bind the struct and use its fields")
        if kind == "slice_pattern":
            raise self.fail(node, "a slice pattern")
        raise self.fail(node, f"the pattern `{text(node)}`")

    def range_pattern(self, node: Any) -> ast.LitPat:
        """`1..=4` and `1..5` as the inclusive LitPat `1..=4`; open ends and `...` are refused."""
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        op = next(c.type for c in node.children if c.type in ("..", "..=", "..."))
        if op == "...":
            raise self.fail(node, "a `...` range pattern", "write an inclusive range with `..=`")
        if left is None or right is None:
            raise self.fail(node, "a range pattern with an open end", "write both bounds (`5..=9`), or bind the "
                                                                      "value and use a guard (`x if x >= 5`)")
        low, high = self.literal_value(left), self.literal_value(right)
        if op == "..":
            high -= 1  # an exclusive range `1..5` matches what `1..=4` matches
        if low > high:
            raise OxideError(f"the range pattern `{text(node)}` matches no value: its lower bound is above its "
                             f"upper bound", self.loc(node))
        return ast.LitPat(self.loc(node), low, high)

    def literal_value(self, node: Any) -> Any:
        """The value of a literal in a pattern or an enum discriminant: an integer, a bool or a char."""
        if node.type == "boolean_literal":
            return text(node) == "true"
        if node.type == "negative_literal" or (node.type == "unary_expression" and text(node.children[0]) == "-"):
            return -self.literal_value(node.named_children[-1])  # `-5` (a pattern) or `= -5` (a discriminant)
        if node.type == "char_literal":
            return self.x_char_literal(node).value
        if node.type == "integer_literal":
            number = literals.integer(text(node), self.loc(node))
            if number.kind == "int":
                return number.value
        raise self.fail(node, f"the pattern `{text(node)[:40]}`", "a literal pattern is an integer, `true`/`false` "
                                                                   "or a char; bind other values and compare them")

    # Expressions ---------------------------------------------------------------------------------------
    def expr(self, node: Any) -> ast.Expr:
        handler: Callable[[Any], ast.Expr] | None = getattr(self, "x_" + node.type, None)
        if handler is None:
            raise self.fail(node, _DESCRIPTIONS.get(node.type, f"the expression `{text(node)[:40]}`"))
        return handler(node)

    def x_parenthesized_expression(self, node: Any) -> ast.Expr:
        return self.expr(node.named_children[0])

    def x_integer_literal(self, node: Any) -> ast.Expr:
        number = literals.integer(text(node), self.loc(node))  # `2f32` is a float written without a point
        return ast.Lit(self.loc(node), number.value, number.kind, number.suffix)

    def x_float_literal(self, node: Any) -> ast.Expr:
        number = literals.float_literal(text(node), self.loc(node))
        return ast.Lit(self.loc(node), number.value, "float", number.suffix)

    def x_boolean_literal(self, node: Any) -> ast.Expr:
        return ast.Lit(self.loc(node), text(node) == "true", "bool")

    def x_string_literal(self, node: Any) -> ast.Expr:
        raw = text(node)
        # A byte string `b"..."` keeps its text here (ptx_asm! splices constant ones into PTX).
        byte = raw.startswith("b")
        body = raw[2:-1] if byte else raw[1:-1]
        return ast.Lit(self.loc(node), literals.unescape(body, self._body_loc(node, byte), byte), "str")

    def x_char_literal(self, node: Any) -> ast.Expr:
        """`'a'` (a char: its code point) or `b'a'` (a u8)."""
        raw = text(node)
        byte = raw.startswith("b")
        value = literals.char_value(raw[2:-1] if byte else raw[1:-1], self._body_loc(node, byte), byte)
        return ast.Lit(self.loc(node), value, "int", "u8" if byte else "char")

    def _body_loc(self, node: Any, byte: bool) -> SourceLoc:
        """Where a quoted literal's body starts (after `"`, `'`, `b"` or `b'`)."""
        loc = self.loc(node)
        return SourceLoc(loc.file, loc.line, loc.col + (2 if byte else 1))

    def x_identifier(self, node: Any) -> ast.Expr:
        return ast.PathExpr(self.loc(node), [self.renames.get(text(node), text(node))])

    def x_self(self, node: Any) -> ast.Expr:
        return ast.PathExpr(self.loc(node), ["self"])

    def x_scoped_identifier(self, node: Any) -> ast.Expr:
        """`a::b::c`; generic arguments on a path segment (`DynamicSharedArray::<f32, 16>::get`) are kept."""
        segments: list[str] = []
        generics: list[Any] = []

        def collect(n: Any) -> None:
            if n is None:
                return
            if n.type == "scoped_identifier" or n.type == "scoped_type_identifier":
                collect(n.child_by_field_name("path"))
                segments.append(text(n.child_by_field_name("name")))
            elif n.type == "generic_type":
                collect(n.child_by_field_name("type"))
                generics.extend(self.type_arg(a) for a in n.child_by_field_name("type_arguments").named_children)
            elif n.type in ("identifier", "type_identifier", "crate", "super", "self", "primitive_type"):
                segments.append(text(n))
            elif n.type == "bracketed_type":
                # `<Vec2 as Trait>::f` / `<T>::f`: the type is what names the impl (trait methods and consts
                # are looked up on the type; the trait only disambiguates, which one namespace here needs not).
                inner = n.named_children[0]
                collect(inner.named_children[0] if inner.type == "qualified_type" else inner)
            else:
                segments.extend(s for s in text(n).replace(" ", "").split("::") if s)

        collect(node)
        return ast.PathExpr(self.loc(node), segments, generics)

    def x_generic_function(self, node: Any) -> ast.Expr:
        func = self.expr(node.child_by_field_name("function"))
        generics = [self.type_arg(a) for a in node.child_by_field_name("type_arguments").named_children]
        if isinstance(func, ast.PathExpr):
            func.generics = ast.Args(generics, "::".join(func.segments), func.loc, "generic argument")
            return func
        if isinstance(func, ast.Field):
            return ast.MethodCall(func.loc, func.base, func.name, [], generics)
        raise self.fail(node, "a generic argument list here")

    def x_call_expression(self, node: Any) -> ast.Expr:
        callee = node.child_by_field_name("function")
        args = [self.expr(a) for a in node.child_by_field_name("arguments").named_children
                if a.type not in ("line_comment", "block_comment", "attribute_item")]
        loc = self.loc(node)
        if callee.type == "field_expression":
            receiver = self.expr(callee.child_by_field_name("value"))
            return ast.MethodCall(loc, receiver, text(callee.child_by_field_name("field")), args)
        if callee.type == "generic_function" and callee.child_by_field_name("function").type == "field_expression":
            inner = callee.child_by_field_name("function")
            generics = [self.type_arg(a) for a in callee.child_by_field_name("type_arguments").named_children]
            return ast.MethodCall(loc, self.expr(inner.child_by_field_name("value")),
                                  text(inner.child_by_field_name("field")), args, generics)
        return ast.Call(loc, self.expr(callee), args)

    def x_field_expression(self, node: Any) -> ast.Expr:
        return ast.Field(self.loc(node), self.expr(node.child_by_field_name("value")),
                         text(node.child_by_field_name("field")))

    def x_index_expression(self, node: Any) -> ast.Expr:
        base, index = node.named_children[0], node.named_children[1]
        return ast.Index(self.loc(node), self.expr(base), self.expr(index))

    def x_binary_expression(self, node: Any) -> ast.Expr:
        return ast.Binary(self.loc(node), text(node.child_by_field_name("operator")),
                          self.expr(node.child_by_field_name("left")), self.expr(node.child_by_field_name("right")))

    def x_unary_expression(self, node: Any) -> ast.Expr:
        return ast.Unary(self.loc(node), text(node.children[0]), self.expr(node.named_children[-1]))

    def x_reference_expression(self, node: Any) -> ast.Expr:
        mutable = any(c.type == "mutable_specifier" for c in node.children)
        return ast.Unary(self.loc(node), "&mut" if mutable else "&", self.expr(node.child_by_field_name("value")))

    def x_type_cast_expression(self, node: Any) -> ast.Expr:
        return ast.Cast(self.loc(node), self.expr(node.child_by_field_name("value")),
                        self.type_(node.child_by_field_name("type")))

    def x_assignment_expression(self, node: Any) -> ast.Expr:
        return ast.Assign(self.loc(node), self.expr(node.child_by_field_name("left")),
                          self.expr(node.child_by_field_name("right")))

    def x_compound_assignment_expr(self, node: Any) -> ast.Expr:
        op = text(node.child_by_field_name("operator"))[:-1]
        return ast.Assign(self.loc(node), self.expr(node.child_by_field_name("left")),
                          self.expr(node.child_by_field_name("right")), op)

    def x_block(self, node: Any, unsafe: bool = False) -> ast.Block:
        outer = self.renames
        self.renames = {**outer, **dict(self.scoped[c.start_byte] for c in node.named_children
                                        if c.start_byte in self.scoped and c.type == "const_item")}
        try:
            return self._block(node, unsafe)
        finally:
            self.renames = outer

    def _block(self, node: Any, unsafe: bool) -> ast.Block:
        stmts: list[Any] = []
        tail = None
        unroll: tuple[int | None, Any] | None = None  # a `#[unroll]` waiting for its loop
        children = [c for c in node.named_children if c.type not in ("line_comment", "block_comment", "label")]
        for i, child in enumerate(children):
            last = i == len(children) - 1
            if unroll is not None and child.type not in ("attribute_item", "empty_statement"):
                self._unroll_loop(child, *unroll)
                unroll = None
            if child.type == "attribute_item" and child.named_children and read_attribute(child).name == "unroll":
                unroll = (unroll_count(read_attribute(child), self.loc(child)), child)
                continue
            if child.type == "expression_statement":
                inner = child.named_children[0]
                has_semicolon = any(c.type == ";" for c in child.children)
                expr = self.expr(inner)
                if last and not has_semicolon:
                    tail = expr
                else:
                    stmts.append(ast.ExprStmt(self.loc(child), expr))
            elif child.type == "let_declaration":
                stmts.append(self.let(child))
            elif child.type == "static_item":
                stmts.append(self.static_shared(child))
            elif child.type in ("empty_statement", "attribute_item", "inner_attribute_item", "use_declaration"):
                continue  # statement attributes (#[unroll], #[allow]) are hints; `use` lines name nothing new
            elif child.type in ("function_item", "struct_item", "enum_item", "impl_item", "const_item"):
                continue  # local items are collected with the crate's items (items.py)
            elif child.type == "macro_invocation" or child.type.endswith("_expression") or child.type in _EXPR_NODES:
                expr = self.expr(child)
                if last:
                    tail = expr
                else:
                    stmts.append(ast.ExprStmt(self.loc(child), expr))
            else:
                raise self.fail(child, _DESCRIPTIONS.get(child.type, f"the statement `{text(child)[:40]}`"))
        if unroll is not None:
            self._unroll_loop(None, *unroll)
        return ast.Block(self.loc(node), stmts, tail, unsafe)

    def _unroll_loop(self, child: Any, count: int | None, attribute: Any) -> None:
        """Mark the loop statement `child` stands for as unrolled (count None: a hint left to LLVM)."""
        loop = unrolled_loop(child, self.loc(attribute))
        if count is not None:
            self._unrolls[loop.start_byte] = count

    def x_unsafe_block(self, node: Any) -> ast.Expr:
        return self.x_block(node.named_children[-1], unsafe=True)

    def let(self, node: Any) -> ast.Let:
        type_node, value = node.child_by_field_name("type"), node.child_by_field_name("value")
        pattern = self.pattern(node.child_by_field_name("pattern"))
        if any(c.type == "mutable_specifier" for c in node.children) and isinstance(pattern, ast.BindPat):
            pattern.mutable = True
        alternative = node.child_by_field_name("alternative")
        let = ast.Let(self.loc(node), pattern, self.type_(type_node) if type_node is not None else None,
                      self.expr(value) if value is not None else None)
        if alternative is not None:
            let.else_ = self.x_block(alternative if alternative.type == "block" else alternative.named_children[-1])
        return let

    def static_shared(self, node: Any) -> ast.StaticShared:
        if not any(c.type == "mutable_specifier" for c in node.children):
            raise self.fail(node, "a `static` inside a function other than `static mut` shared memory")
        return ast.StaticShared(self.loc(node), text(node.child_by_field_name("name")),
                                self.type_(node.child_by_field_name("type")))

    def _label(self, node: Any) -> str | None:
        label = next((c for c in node.children if c.type == "label"), None)
        return text(label).lstrip("'") if label is not None else None

    def x_if_expression(self, node: Any) -> ast.Expr:
        cond_node = node.child_by_field_name("condition")
        if cond_node.type == "let_condition":
            cond: Any = ast.LetCond(self.loc(cond_node), self.pattern(cond_node.child_by_field_name("pattern")),
                                    self.expr(cond_node.child_by_field_name("value")))
        elif cond_node.type == "let_chain":
            cond = self.let_chain(cond_node)
        else:
            cond = self.expr(cond_node)
        alternative = node.child_by_field_name("alternative")
        else_: ast.Expr | None = None
        if alternative is not None:
            inner = alternative.named_children[0]
            else_ = self.expr(inner)
        return ast.If(self.loc(node), cond, self.x_block(node.child_by_field_name("consequence")), else_)

    def let_chain(self, node: Any) -> ast.LetChain:
        """`let P = v && cond && let Q = w`: the conditions in order."""
        parts: list[Any] = []
        for child in node.named_children:
            if child.type == "let_condition":
                parts.append(ast.LetCond(self.loc(child), self.pattern(child.child_by_field_name("pattern")),
                                         self.expr(child.child_by_field_name("value"))))
            else:
                parts.append(self.expr(child))
        return ast.LetChain(self.loc(node), parts)

    def x_while_expression(self, node: Any) -> ast.Expr:
        cond_node = node.child_by_field_name("condition")
        if cond_node.type == "let_condition":
            cond: Any = ast.LetCond(self.loc(cond_node), self.pattern(cond_node.child_by_field_name("pattern")),
                                    self.expr(cond_node.child_by_field_name("value")))
        else:
            cond = self.expr(cond_node)
        return ast.While(self.loc(node), cond, self.x_block(node.child_by_field_name("body")), self._label(node),
                         self._unrolls.get(node.start_byte))

    def x_loop_expression(self, node: Any) -> ast.Expr:
        return ast.Loop(self.loc(node), self.x_block(node.child_by_field_name("body")), self._label(node),
                        self._unrolls.get(node.start_byte))

    def x_for_expression(self, node: Any) -> ast.Expr:
        return ast.For(self.loc(node), self.pattern(node.child_by_field_name("pattern")),
                       self.expr(node.child_by_field_name("value")), self.x_block(node.child_by_field_name("body")),
                       self._label(node), self._unrolls.get(node.start_byte))

    def x_break_expression(self, node: Any) -> ast.Expr:
        value = next((c for c in node.named_children if c.type != "label"), None)
        return ast.Break(self.loc(node), self._label(node), self.expr(value) if value is not None else None)

    def x_continue_expression(self, node: Any) -> ast.Expr:
        return ast.Continue(self.loc(node), self._label(node))

    def x_return_expression(self, node: Any) -> ast.Expr:
        value = node.named_children[0] if node.named_children else None
        return ast.Return(self.loc(node), self.expr(value) if value is not None else None)

    def x_range_expression(self, node: Any) -> ast.Expr:
        op_index = next(i for i, c in enumerate(node.children) if c.type in ("..", "..=", "..."))
        if node.children[op_index].type == "...":
            raise OxideError("`...` is not a range operator; write `a..b` (exclusive) or `a..=b` (inclusive)",
                             self.loc(node.children[op_index]))
        start = self.expr(node.children[0]) if op_index > 0 else None
        end = self.expr(node.children[op_index + 1]) if op_index + 1 < len(node.children) else None
        return ast.Range(self.loc(node), start, end, node.children[op_index].type == "..=")

    def x_tuple_expression(self, node: Any) -> ast.Expr:
        return ast.Tuple(self.loc(node), [self.expr(c) for c in node.named_children
                                          if c.type not in ("line_comment", "block_comment")])

    def x_unit_expression(self, node: Any) -> ast.Expr:
        return ast.Tuple(self.loc(node), [])

    def x_array_expression(self, node: Any) -> ast.Expr:
        if any(c.type == ";" for c in node.children):
            value, count = node.named_children[0], node.named_children[1]
            return ast.ArrayLit(self.loc(node), [self.expr(value)], self.expr(count))
        return ast.ArrayLit(self.loc(node), [self.expr(c) for c in node.named_children
                                             if c.type not in ("line_comment", "block_comment")])

    def x_struct_expression(self, node: Any) -> ast.Expr:
        name = text(node.child_by_field_name("name")).split("::")
        fields: list[tuple[str, ast.Expr]] = []
        for item in node.child_by_field_name("body").named_children:
            if item.type == "shorthand_field_initializer":
                ident = item.named_children[0]
                fields.append((text(ident), ast.PathExpr(self.loc(ident), [text(ident)])))
            elif item.type == "field_initializer":
                fields.append((text(item.child_by_field_name("field")), self.expr(item.child_by_field_name("value"))))
            elif item.type == "base_field_initializer":
                raise self.fail(item, "struct update syntax (`..base`)")
        return ast.StructLit(self.loc(node), name, fields)

    def x_match_expression(self, node: Any) -> ast.Expr:
        arms = []
        for arm in node.child_by_field_name("body").named_children:
            if arm.type != "match_arm":
                continue
            pattern_node = arm.child_by_field_name("pattern")
            guard_node = pattern_node.child_by_field_name("condition")
            arms.append(ast.MatchArm(self.loc(arm), self.pattern(pattern_node),
                                     self.expr(guard_node) if guard_node is not None else None,
                                     self.expr(arm.child_by_field_name("value"))))
        return ast.Match(self.loc(node), self.expr(node.child_by_field_name("value")), arms)

    def x_macro_invocation(self, node: Any) -> ast.Expr:
        name = text(node.child_by_field_name("macro")).split("::")[-1]
        tree = next(c for c in node.children if c.type == "token_tree")
        if name in self.macros:
            return self.user_macro(node, name)
        if name == "ptx_asm":
            return ast.MacroCall(self.loc(node), name, self.macro_args(tree, asm_operands_as_calls))
        return ast.MacroCall(self.loc(node), name, self.macro_args(tree) if name in _EXPR_MACROS else [])

    def user_macro(self, node: Any, name: str) -> ast.Expr:
        """A `macro_rules!` macro in expression or statement position: its expansion as a block (the
        macro's own `let`s stay inside it, as Rust's hygiene keeps them)."""
        if self.depth >= MAX_DEPTH:
            raise OxideError(f"`{name}!` expands recursively more than {MAX_DEPTH} levels deep", self.loc(node))
        expanded = expand(self.macros[name], node, self.source)
        prefix = "fn __m(){{"
        line, col, _ = expanded.origin
        sub = Source(expanded.name, prefix + expanded.text + "\n}}", (line, col, len(prefix)))
        block = parse(sub).root_node.named_children[0].child_by_field_name("body").named_children[0]
        if block.type == "expression_statement":
            block = block.named_children[0]
        return Builder(sub, self.macros, self.depth + 1, self.renames, self.scoped).x_block(block)

    def macro_args(self, tree: Any, rewrite: Callable[[str], str] | None = None) -> list[ast.Expr]:
        """Re-parse a macro's token tree as call arguments, keeping file positions (`rewrite` turns a
        non-expression syntax into call arguments without moving any text outside the operands)."""
        inner = text(tree) if rewrite is None else rewrite(text(tree))
        inner = "(" + inner[1:-1] + ")"  # `name![..]` and `name!{..}` take the same arguments as `name!(..)`
        prefix = "fn __m(){__m"
        row, byte_col = tree.start_point
        line = self.source.data.split(b"\n")[row]
        col = len(line[:byte_col].decode(errors="replace")) + 1
        first_line, first_col, base_prefix = self.source.origin
        origin = (first_line + row, (first_col - base_prefix + col - 1) if row == 0 else col, len(prefix))
        sub = Source(self.source.name, prefix + inner + ";}", origin)
        tree_root = parse(sub).root_node
        call = tree_root.named_children[0].child_by_field_name("body").named_children[0].named_children[0]
        if call.type != "call_expression":
            raise self.fail(tree, "these macro arguments", "write expressions separated by commas")
        return [Builder(sub, self.macros, self.depth, self.renames, self.scoped).expr(a)
                for a in call.child_by_field_name("arguments").named_children]

    def x_closure_expression(self, node: Any) -> ast.Expr:
        params: list[ast.Param] = []
        # `_` is an anonymous node in tree-sitter-rust's closure parameters: walk every child but `|` and `,`.
        for p in (c for c in node.child_by_field_name("parameters").children if c.type not in ("|", ",")):
            if p.type == "parameter":
                type_node = p.child_by_field_name("type")
                params.append(ast.Param(self.loc(p), self.pattern(p.child_by_field_name("pattern")),
                                        self.type_(type_node) if type_node is not None else None))
            else:
                params.append(ast.Param(self.loc(p), self.pattern(p), None))
        return ast.Closure(self.loc(node), params, self.expr(node.child_by_field_name("body")))

    def x_try_expression(self, node: Any) -> ast.Expr:
        raise self.fail(node, "the `?` operator", "use `if let` or `match`")

    def x_await_expression(self, node: Any) -> ast.Expr:
        raise self.fail(node, "`async`/`await`")

    def x_async_block(self, node: Any) -> ast.Expr:
        raise self.fail(node, "an `async` block")


_EXPR_NODES = ("block", "unsafe_block", "identifier", "integer_literal", "float_literal", "boolean_literal",
               "macro_invocation", "scoped_identifier", "self", "string_literal", "unit_expression",
               "generic_function", "negative_literal")
_EXPR_MACROS = ("gpu_printf", "printf", "gpu_assert", "assert", "assert_eq", "assert_ne", "debug_assert",
                "panic", "unreachable", "todo", "unimplemented", "addr_of", "addr_of_mut")
_DESCRIPTIONS = {
    "try_expression": "the `?` operator",
    "yield_expression": "`yield`",
    "async_block": "an `async` block",
    "const_block": "a `const` block",
    "gen_block": "a generator",
}
