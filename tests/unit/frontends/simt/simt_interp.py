"""A tiny reference interpreter for the frontend's output (one thread, no GPU), so that control-flow tests can
check what a kernel computes, not only which ops it contains.

It covers the ops the frontend emits for scalar code: arith, memref (allocas), scf (if/for/while), the simt
slice ops (`load`, `store`, `len`, `trap`) and a handful of special registers; and addresses: `get_mut` on
1-D disjoint slices, element and field pointers, pointer loads and stores. Memory is Python lists: an
aggregate element is a list (of an array's elements, of a struct's or tuple's fields in order) and an address
is a `Pointer` (the list and a position in it). Integers are kept as unsigned
bit patterns of their width; signed operations reinterpret them. A `simt.trap` raises `Trap`.
"""

from __future__ import annotations

import math
import struct
from typing import Any


class Trap(Exception):
    """The kernel executed `simt.trap` (a Rust panic)."""


class _Uninit:
    """The value of a never-written local: fine to load and pass around, wrong to branch on or store out."""

    def __repr__(self) -> str:
        return "UNINIT"


UNINIT = _Uninit()


def _defined(value: Any, what: str) -> Any:
    if value is UNINIT:
        raise AssertionError(f"{what} depends on an uninitialised local")
    return value


_CMPI = {0: "eq", 1: "ne", 2: "slt", 3: "sle", 4: "sgt", 5: "sge", 6: "ult", 7: "ule", 8: "ugt", 9: "uge"}
_CMPF = {1: "oeq", 2: "ogt", 3: "oge", 4: "olt", 5: "ole", 6: "one", 7: "ord", 13: "une", 14: "uno"}


def _width(t: Any) -> int:
    s = str(t)
    if s == "index":
        return 64
    if s.startswith("i"):
        return int(s[1:])
    raise TypeError(s)


def _is_float(t: Any) -> bool:
    return str(t) in ("f32", "f64")


def _round(t: Any, x: float) -> float:
    if str(t) == "f32" and math.isfinite(x):
        try:
            return struct.unpack("f", struct.pack("f", x))[0]
        except OverflowError:
            return math.copysign(math.inf, x)
    return x


def _signed(x: int, bits: int) -> int:
    return x - (1 << bits) if x >= 1 << (bits - 1) else x


class Pointer:
    """An address: position `index` of the list `memory` (a slice, or an aggregate element of one)."""

    def __init__(self, memory: Any, index: int):
        self.memory, self.index = memory, index

    def load(self) -> Any:
        return self.memory[self.index]

    def store(self, value: Any) -> None:
        self.memory[self.index] = value


class _View:
    """`slice::from_raw_parts(p, n)`: n elements of a list from a pointer's position, in place."""

    def __init__(self, ptr: Pointer, length: int):
        self.ptr, self.length = ptr, length

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, i: int) -> Any:
        return self.ptr.memory[self.ptr.index + i]

    def __setitem__(self, i: int, value: Any) -> None:
        self.ptr.memory[self.ptr.index + i] = value


class Interpreter:
    """Runs one gpu.func of a frontend result for one thread (thread 0 of block 0 unless told otherwise)."""

    def __init__(self, thread: int = 0, block: int = 0, block_dim: int = 1):
        self.env: dict[Any, Any] = {}
        self.thread, self.block, self.block_dim = thread, block, block_dim

    def run(self, func: Any, args: list[Any]) -> None:
        block = func.regions[0].blocks[0]
        for arg, value in zip(block.arguments, args):
            if isinstance(value, bool):
                value = int(value)
            if isinstance(value, int) and not isinstance(value, bool):
                value &= (1 << _width(arg.type)) - 1
            self.env[arg] = value
        self.block_ops(block)

    def block_ops(self, block: Any) -> list[Any]:
        for op in block.operations:
            name = op.operation.name
            if name in ("scf.yield", "scf.condition"):
                return [self.env[v] for v in op.operation.operands]
            if name == "gpu.return":
                return []
            self.op(op.operation)
        return []

    def op(self, op: Any) -> None:
        name = op.name
        ins = [self.env[v] for v in op.operands]
        out = op.results
        handler = getattr(self, "op_" + name.replace(".", "_"), None)
        if any(v is UNINIT for v in ins) and name.startswith(("arith.", "math.")) and name != "arith.select":
            result = UNINIT
        elif handler is not None:
            result = handler(op, ins)
        elif name.startswith("arith."):
            result = self.arith(op, name[6:], ins)
        else:
            raise NotImplementedError(name)
        if len(out) == 1:
            self.env[out[0]] = result
        elif len(out) > 1:
            for r, v in zip(out, result):
                self.env[r] = v

    # arith ----------------------------------------------------------------------------------------------
    def arith(self, op: Any, kind: str, ins: list[Any]) -> Any:
        t = op.results[0].type if len(op.results) else None
        if kind == "constant":
            attr = op.attributes["value"]
            if _is_float(t):
                from mlir import ir

                return _round(t, ir.FloatAttr(attr).value)
            text = str(attr).split(" : ")[0]
            value = 1 if text == "true" else 0 if text == "false" else int(text)
            return value & ((1 << _width(t)) - 1)
        if kind in ("cmpi", "cmpf"):
            pred_value = int(str(op.attributes["predicate"]).split(" : ")[0])
            a, b = ins
            if kind == "cmpf":
                pred = _CMPF[pred_value]
                unordered = math.isnan(a) or math.isnan(b)
                if pred == "uno":
                    return int(unordered)
                if pred == "ord":
                    return int(not unordered)
                base = {"oeq": a == b, "ogt": a > b, "oge": a >= b, "olt": a < b, "ole": a <= b,
                        "one": a != b, "une": a != b}[pred]
                return int(base or (unordered and pred.startswith("u")))
            pred = _CMPI[pred_value]
            bits = _width(op.operands[0].type)
            if pred[0] == "s":
                a, b = _signed(a, bits), _signed(b, bits)
            op_ = pred[-2:]
            return int({"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b}[op_])
        if kind == "bitcast" and (_is_float(t) or _is_float(op.operands[0].type)):
            return _bitcast(ins[0], op.operands[0].type, t)
        if t is not None and _is_float(t):
            return self.float_op(kind, ins, t, op)
        bits = _width(t)
        mask = (1 << bits) - 1
        if kind in ("index_cast", "index_castui", "extui", "trunci", "bitcast"):
            if kind == "index_cast":
                src = _width(op.operands[0].type)
                return _signed(ins[0], src) & mask
            return ins[0] & mask
        if kind == "extsi":
            return _signed(ins[0], _width(op.operands[0].type)) & mask
        if kind in ("fptosi", "fptoui"):
            # LLVM gives poison for NaN; the frontend's saturating cast selects 0 then, so any value does.
            return 0 if ins[0] != ins[0] else int(ins[0]) & mask
        a = ins[0]
        b = ins[1] if len(ins) > 1 else None
        sa, sb = _signed(a, bits), (_signed(b, bits) if b is not None else None)
        if kind == "select":
            return ins[1] if _defined(ins[0], "a select") else ins[2]
        result = {
            "addi": lambda: a + b, "subi": lambda: a - b, "muli": lambda: a * b,
            "divui": lambda: a // b, "remui": lambda: a % b,
            "divsi": lambda: int(sa / sb), "remsi": lambda: sa - int(sa / sb) * sb,
            "andi": lambda: a & b, "ori": lambda: a | b, "xori": lambda: a ^ b,
            "shli": lambda: a << b, "shrui": lambda: a >> b, "shrsi": lambda: sa >> b,
            "minsi": lambda: min(sa, sb), "maxsi": lambda: max(sa, sb), "minui": lambda: min(a, b),
            "maxui": lambda: max(a, b),
        }[kind]()
        return result & mask

    def float_op(self, kind: str, ins: list[Any], t: Any, op: Any) -> float:
        if kind in ("sitofp", "uitofp"):
            bits = _width(op.operands[0].type)
            return _round(t, float(_signed(ins[0], bits) if kind == "sitofp" else ins[0]))
        if kind == "select":
            return ins[1] if _defined(ins[0], "a select") else ins[2]
        a = ins[0]
        b = ins[1] if len(ins) > 1 else None
        value = {
            "addf": lambda: a + b, "subf": lambda: a - b, "mulf": lambda: a * b,
            "divf": lambda: a / b if b else math.copysign(math.inf, a) if a else math.nan,
            "negf": lambda: -a, "extf": lambda: a, "truncf": lambda: a,
            "minimumf": lambda: math.nan if math.isnan(a) or math.isnan(b) else min(a, b),
            "maximumf": lambda: math.nan if math.isnan(a) or math.isnan(b) else max(a, b),
            "minnumf": lambda: b if math.isnan(a) else a if math.isnan(b) else min(a, b),
            "maxnumf": lambda: b if math.isnan(a) else a if math.isnan(b) else max(a, b),
        }[kind]()
        return _round(t, value)

    # memref ---------------------------------------------------------------------------------------------
    def op_memref_alloca(self, op: Any, ins: list[Any]) -> Any:
        # Row-major storage of any rank; the shape travels with the list for multi-index addressing.
        shape = list(op.results[0].type.shape)
        size = 1
        for dim in shape:
            size *= dim
        return _Memory([None] * size, shape)

    def op_memref_load(self, op: Any, ins: list[Any]) -> Any:
        cell = ins[0]
        offset = cell.offset([_defined(i, "an index") for i in ins[1:]])
        return UNINIT if cell.data[offset] is None else cell.data[offset]

    def op_memref_store(self, op: Any, ins: list[Any]) -> None:
        value, cell = ins[0], ins[1]
        cell.data[cell.offset(ins[2:])] = value

    # scf ------------------------------------------------------------------------------------------------
    def op_scf_if(self, op: Any, ins: list[Any]) -> Any:
        region = op.regions[0] if _defined(ins[0], "an scf.if condition") else op.regions[1]
        results = self.block_ops(region.blocks[0]) if len(region.blocks) else []
        return results[0] if len(results) == 1 else results

    def op_scf_for(self, op: Any, ins: list[Any]) -> None:
        lb, ub, step = (_defined(v, "an scf.for bound") for v in ins[:3])
        body = op.regions[0].blocks[0]
        i = lb
        while i < ub:
            self.env[body.arguments[0]] = i
            self.block_ops(body)
            i += step

    def op_scf_while(self, op: Any, ins: list[Any]) -> None:
        before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
        for _ in range(1_000_000):
            (go,) = self.block_ops(before)
            if not _defined(go, "an scf.while condition"):
                return
            self.block_ops(after)
        raise AssertionError("scf.while did not terminate")

    # simt -----------------------------------------------------------------------------------------------
    def op_simt_trap(self, op: Any, ins: list[Any]) -> None:
        raise Trap()

    def op_simt_assert(self, op: Any, ins: list[Any]) -> None:
        if not _defined(ins[0], "an assertion"):
            raise Trap()

    def op_simt_inline_ptx(self, op: Any, ins: list[Any]) -> None:
        asm = op.attributes["asm"].value
        if not asm.lstrip().startswith("//"):
            raise NotImplementedError(f"inline PTX {asm!r}")  # only PTX comments have no effect to model

    def op_simt_len(self, op: Any, ins: list[Any]) -> int:
        return len(ins[0])

    def op_simt_load(self, op: Any, ins: list[Any]) -> Any:
        if not 0 <= _defined(ins[1], "a load index") < len(ins[0]):
            raise Trap()
        return ins[0][ins[1]]

    op_simt_load_unchecked = op_simt_load

    def op_simt_store(self, op: Any, ins: list[Any]) -> None:
        if not 0 <= _defined(ins[1], "a store index") < len(ins[0]):
            raise Trap()
        ins[0][ins[1]] = _defined(ins[2], "a stored value")

    # addresses ------------------------------------------------------------------------------------------
    def op_arith_bitcast(self, op: Any, ins: list[Any]) -> Any:
        source, target = str(op.operands[0].type), str(op.results[0].type)
        codes = {"f32": "f", "i32": "I", "f64": "d", "i64": "Q"}
        return struct.unpack(codes[target], struct.pack(codes[source], ins[0]))[0]

    def op_simt_index_1d(self, op: Any, ins: list[Any]) -> tuple:
        return (self.block * self.block_dim + self.thread, 1)

    op_simt_index_1d_u32 = op_simt_index_1d

    def op_simt_index_value(self, op: Any, ins: list[Any]) -> int:
        return ins[0][0]

    def op_simt_index_valid(self, op: Any, ins: list[Any]) -> int:
        return ins[0][1]

    def op_simt_get_unchecked_mut(self, op: Any, ins: list[Any]) -> Pointer:
        return Pointer(ins[0], ins[1])

    def op_simt_ref_load(self, op: Any, ins: list[Any]) -> Any:
        return ins[0].load()

    def op_simt_ref_store(self, op: Any, ins: list[Any]) -> None:
        ins[0].store(_defined(ins[1], "a stored value"))

    def op_simt_get_mut(self, op: Any, ins: list[Any]) -> list:
        (i, valid), memory = ins[1], ins[0]
        return [int(bool(valid) and i < len(memory)), Pointer(memory, i)]

    def op_simt_elem_ptr(self, op: Any, ins: list[Any]) -> Pointer:
        if not 0 <= _defined(ins[1], "an element index") < len(ins[0]):
            raise Trap()
        return Pointer(ins[0], ins[1])

    def op_simt_slice_ptr(self, op: Any, ins: list[Any]) -> Pointer:
        return Pointer(ins[0], 0)

    def op_simt_ref_ptr(self, op: Any, ins: list[Any]) -> Pointer:
        return ins[0]

    def op_simt_ptr_cast(self, op: Any, ins: list[Any]) -> Pointer:
        source, target = (str(t).split("<", 1)[1] for t in (op.operands[0].type, op.results[0].type))
        if not source.startswith("!llvm.array<"):
            raise NotImplementedError(f"reinterpreting {op.operands[0].type} as {op.results[0].type}")
        # From an array to its first element: the element list itself, from position 0.
        return Pointer(ins[0].load(), 0)

    def op_simt_ptr_offset(self, op: Any, ins: list[Any]) -> Pointer:
        return Pointer(ins[0].memory, ins[0].index + _signed(ins[1], 64))

    def op_simt_field_ptr(self, op: Any, ins: list[Any]) -> Pointer:
        return Pointer(ins[0].load(), int(str(op.attributes["field"]).split(":")[0]))

    def op_simt_ptr_load(self, op: Any, ins: list[Any]) -> Any:
        return ins[0].load()

    def op_simt_ptr_store(self, op: Any, ins: list[Any]) -> None:
        ins[0].store(_defined(ins[1], "a stored value"))

    def op_simt_slice_from_ptr(self, op: Any, ins: list[Any]) -> _View:
        return _View(ins[0], ins[1])

    def op_simt_ptr_to_int(self, op: Any, ins: list[Any]) -> int:
        # A made-up address: (which memory + 1) << 32 | position, so addresses compare as the pointers do
        # and int_to_ptr finds the memory again; 0 stays null.
        if isinstance(ins[0], int):
            return ins[0]
        memories = self.env.setdefault("memories", [])
        number = next((i for i, m in enumerate(memories) if m is ins[0].memory), None)
        if number is None:
            memories.append(ins[0].memory)
            number = len(memories) - 1
        return (number + 1) << 32 | ins[0].index

    def op_simt_from_generic(self, op: Any, ins: list[Any]) -> Any:
        return ins[0]

    def op_simt_int_to_ptr(self, op: Any, ins: list[Any]) -> Any:
        address = ins[0]
        if isinstance(address, Pointer) or address == 0:
            return address
        return Pointer(self.env["memories"][(address >> 32) - 1], address & 0xFFFFFFFF)

    # math -----------------------------------------------------------------------------------------------
    def op_math_absi(self, op: Any, ins: list[Any]) -> int:
        bits = _width(op.results[0].type)
        return abs(_signed(ins[0], bits)) & ((1 << bits) - 1)

    def op_math_ctpop(self, op: Any, ins: list[Any]) -> int:
        return bin(ins[0]).count("1")

    def op_llvm_intr_ctpop(self, op: Any, ins: list[Any]) -> int:
        return bin(ins[0]).count("1")

    def op_llvm_intr_ctlz(self, op: Any, ins: list[Any]) -> int:
        bits = _width(op.results[0].type)
        return bits - ins[0].bit_length()

    def op_llvm_intr_cttz(self, op: Any, ins: list[Any]) -> int:
        bits = _width(op.results[0].type)
        return (ins[0] & -ins[0]).bit_length() - 1 if ins[0] else bits

    def op_math_fma(self, op: Any, ins: list[Any]) -> float:
        return _round(op.results[0].type, ins[0] * ins[1] + ins[2])

    def op_simt_thread_id(self, op: Any, ins: list[Any]) -> int:
        return self.thread if "x" in str(op.attributes["dim"]) else 0

    def op_simt_block_id(self, op: Any, ins: list[Any]) -> int:
        return self.block if "x" in str(op.attributes["dim"]) else 0

    def op_simt_block_dim(self, op: Any, ins: list[Any]) -> int:
        return self.block_dim if "x" in str(op.attributes["dim"]) else 1


    # device intrinsics --------------------------------------------------------------------------------
    def op_llvm_intr_bitreverse(self, op: Any, ins: list[Any]) -> int:
        bits = _width(op.results[0].type)
        return int(format(ins[0], f"0{bits}b")[::-1], 2)

    def op_llvm_intr_bswap(self, op: Any, ins: list[Any]) -> int:
        size = _width(op.results[0].type) // 8
        return int.from_bytes(ins[0].to_bytes(size, "little"), "big")


_FLOAT_FORMATS = {"f16": ("e", "H"), "f32": ("f", "I"), "f64": ("d", "Q")}


def _bitcast(value: Any, src: Any, dst: Any) -> Any:
    """The same bits read as another type (floats are Python floats, integers unsigned bit patterns)."""
    if _is_float(src) or str(src) == "f16":
        float_code, int_code = _FLOAT_FORMATS[str(src)]
        value = struct.unpack(int_code, struct.pack(float_code, value))[0]
    if _is_float(dst) or str(dst) == "f16":
        float_code, int_code = _FLOAT_FORMATS[str(dst)]
        return struct.unpack(float_code, struct.pack(int_code, value))[0]
    return value


class _Memory:
    """A memref's elements, row-major, and its shape."""

    def __init__(self, data: list[Any], shape: list[int]):
        self.data, self.shape = data, shape

    def offset(self, indices: list[int]) -> int:
        flat = 0
        for index, dim in zip(indices, self.shape):
            flat = flat * dim + index
        return flat


def run_kernel(result: Any, args: list[Any], entry: str | None = None, **where: int) -> None:
    """Run the kernel `entry` (the first one by default) of a compile_rust result on `args` (lists for slices;
    they are updated in place)."""
    module = result.module.body.operations[0]
    for func in module.regions[0].blocks[0].operations:
        if func.operation.name == "gpu.func" and (entry is None or func.name.value == entry):
            Interpreter(**where).run(func, args)
            return
    raise KeyError(entry)


def to_signed(values: list[int], bits: int = 32) -> list[int]:
    """Bit patterns read back as signed integers."""
    return [_signed(v, bits) for v in values]
