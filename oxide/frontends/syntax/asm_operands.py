"""`ptx_asm!` operands (`out("=r") x, in("r") y`) rewritten as call arguments, so the expression parser reads
them (the macro builder, build.py, turns the calls into the asm's operand list)."""

from __future__ import annotations


def asm_operands_as_calls(tree: str) -> str:
    """`ptx_asm!("...", out("=r") x, in("r") y + 1)` as call arguments `"...", out("=r",x), i_("r",y + 1)`:
    the `)` closing the constraint becomes `,` and one blank after it moves to the operand's end as `)`, so
    every other operand keeps its columns. (Operands written without that blank are left for the parser to
    report.)"""
    out, depth, quoted, pending, i = [], 0, False, False, 0
    while i < len(tree):
        ch = tree[i]
        if quoted:
            out.append(ch)
            if ch == "\\" and i + 1 < len(tree):
                out.append(tree[i + 1])
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
            out.append(ch)
        elif ch in "([{":
            depth += 1
            out.append(ch)
        elif ch in ")]}":
            depth -= 1
            if depth == 1 and ch == ")" and tree[i + 1:i + 2] == " " and tree[i + 2:i + 3] not in (",", ")"):
                out.append(",")
                i += 1  # the blank, re-added as the closing parenthesis below
                pending = True
            elif depth == 0 and pending:
                out.append(")")
                out.append(ch)
                pending = False
            else:
                out.append(ch)
        elif ch == "," and depth == 1 and pending:
            out.append("),")
            pending = False
        elif depth == 1 and tree[i:i + 3] == "in(" and "".join(out).rstrip()[-1:] in (",", "("):
            out.append("i_")  # `in` is a keyword; the operand kind keeps its width as `i_`
            i += 1
        else:
            out.append(ch)
        i += 1
    return "".join(out)
