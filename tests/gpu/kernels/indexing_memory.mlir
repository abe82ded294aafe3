// GPU test kernels for the indexing, memory and shared-memory families (tests/gpu/test_indexing_memory.py).
module attributes {gpu.container_module} {
  gpu.module @kernels {
    // out[i] = x[i] * a, one thread per element (DisjointSlice + index_1d, proven 1-D).
    gpu.func @scale(%x: !simt.slice<f32>, %out: !simt.disjoint<f32, "1d">, %a: f32) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<f32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f32>)
      scf.if %ok {
        %i = "simt.index_value"(%w) : (!simt.thread_index<"1d">) -> index
        %v = "simt.load"(%x, %i) : (!simt.slice<f32>, index) -> f32
        %y = arith.mulf %v, %a : f32
        "simt.ref_store"(%r, %y) : (!simt.ref<f32>, f32) -> ()
      }
      gpu.return
    }

    // Without a contract: out[i] = i + 1 only when the launch is really 1-D.
    gpu.func @unproven(%out: !simt.disjoint<i32, "1d">) kernel {
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok {
        %i = "simt.index_value"(%w) : (!simt.thread_index<"1d">) -> index
        %i32 = arith.index_cast %i : index to i32
        %c1 = arith.constant 1 : i32
        %v = arith.addi %i32, %c1 : i32
        "simt.ref_store"(%r, %v) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }

    // 32-bit index arithmetic under a u32 contract: out[i] = 3 * i.
    gpu.func @narrow(%out: !simt.disjoint<i32, "1d">) kernel attributes {simt.contract = {domain = 1 : i64, coordinates = "u32"}} {
      %w = "simt.index_1d_u32"() : () -> !simt.thread_index<"1d">
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<i32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<i32>)
      scf.if %ok {
        %i = "simt.index_value"(%w) : (!simt.thread_index<"1d">) -> index
        %i32 = arith.index_cast %i : index to i32
        %c3 = arith.constant 3 : i32
        %v = arith.muli %i32, %c3 : i32
        "simt.ref_store"(%r, %v) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }

    // Index2D<64>: out[row * 64 + col] = row * 1000 + col; columns >= 64 are invalid witnesses.
    gpu.func @fill_2d(%out: !simt.disjoint<i32, "2d:64">) kernel attributes {simt.contract = {domain = 2 : i64}} {
      %w = "simt.index_2d"() : () -> !simt.thread_index<"2d:64">
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<i32, "2d:64">, !simt.thread_index<"2d:64">) -> (i1, !simt.ref<i32>)
      scf.if %ok {
        %i = "simt.index_value"(%w) : (!simt.thread_index<"2d:64">) -> index
        %c64 = arith.constant 64 : index
        %row = arith.divui %i, %c64 : index
        %col = arith.remui %i, %c64 : index
        %c1000 = arith.constant 1000 : index
        %rv = arith.muli %row, %c1000 : index
        %v = arith.addi %rv, %col : index
        %v32 = arith.index_cast %v : index to i32
        "simt.ref_store"(%r, %v32) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }

    // Runtime 2-D: the row width comes with the slice; out[row * width + col] = row * 1000 + col.
    gpu.func @fill_runtime_2d(%out: !simt.disjoint<i32, "runtime_2d">) kernel attributes {simt.contract = {domain = 2 : i64}} {
      %w = "simt.index_2d_runtime"() : () -> !simt.thread_index<"runtime_2d">
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<i32, "runtime_2d">, !simt.thread_index<"runtime_2d">) -> (i1, !simt.ref<i32>)
      scf.if %ok {
        %row = "simt.index_row"(%w) : (!simt.thread_index<"runtime_2d">) -> index
        %col = "simt.index_col"(%w) : (!simt.thread_index<"runtime_2d">) -> index
        %c1000 = arith.constant 1000 : index
        %rv = arith.muli %row, %c1000 : index
        %v = arith.addi %rv, %col : index
        %v32 = arith.index_cast %v : index to i32
        "simt.ref_store"(%r, %v32) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }

    // One element per warp: out[warp] = warp + 7 (partial warps counted).
    gpu.func @per_warp(%out: !simt.disjoint<i32, "warp">) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %w = "simt.warp_index"() : () -> !simt.thread_index<"warp">
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<i32, "warp">, !simt.thread_index<"warp">) -> (i1, !simt.ref<i32>)
      scf.if %ok {
        %i = "simt.index_value"(%w) : (!simt.thread_index<"warp">) -> index
        %i32 = arith.index_cast %i : index to i32
        %c7 = arith.constant 7 : i32
        %v = arith.addi %i32, %c7 : i32
        "simt.ref_store"(%r, %v) : (!simt.ref<i32>, i32) -> ()
      }
      gpu.return
    }

    // Vector copy: dst.as_vectors_mut()[i] = src.as_vectors()[i] * 2 for i < len / 4 (unsafe &mut output).
    gpu.func @vector_double(%src: !simt.slice<f32>, %dst: !simt.slice_mut<f32>) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %i = "simt.index_value"(%w) : (!simt.thread_index<"1d">) -> index
      %n = "simt.len"(%src) : (!simt.slice<f32>) -> index
      %c4 = arith.constant 4 : index
      %vectors = arith.divui %n, %c4 : index
      %inb = arith.cmpi ult, %i, %vectors : index
      scf.if %inb {
        %v = "simt.vector_load"(%src, %i) : (!simt.slice<f32>, index) -> vector<4xf32>
        %two = arith.constant dense<2.0> : vector<4xf32>
        %d = arith.mulf %v, %two : vector<4xf32>
        "simt.vector_store"(%dst, %i, %d) : (!simt.slice_mut<f32>, index, vector<4xf32>) -> ()
      }
      gpu.return
    }

    // Mutable slice, raw and volatile pointers: m[i] = m[i] * 10 + i via the pointer forms, i64 data.
    gpu.func @pointers(%m: !simt.slice_mut<i64>) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %i = "simt.index_value"(%w) : (!simt.thread_index<"1d">) -> index
      %n = "simt.len"(%m) : (!simt.slice_mut<i64>) -> index
      %inb = arith.cmpi ult, %i, %n : index
      scf.if %inb {
        %base = "simt.slice_ptr"(%m) : (!simt.slice_mut<i64>) -> !simt.ptr<i64, 1>
        %p = "simt.ptr_offset"(%base, %i) : (!simt.ptr<i64, 1>, index) -> !simt.ptr<i64, 1>
        %x = "simt.volatile_load"(%p) : (!simt.ptr<i64, 1>) -> i64
        %c10 = arith.constant 10 : i64
        %i64 = arith.index_cast %i : index to i64
        %y = arith.muli %x, %c10 : i64
        %z = arith.addi %y, %i64 : i64
        "simt.ptr_store"(%p, %z) : (!simt.ptr<i64, 1>, i64) -> ()
        %back = "simt.load"(%m, %i) : (!simt.slice_mut<i64>, index) -> i64
        %c1 = arith.constant 1 : i64
        %plus = arith.addi %back, %c1 : i64
        "simt.store"(%m, %i, %plus) : (!simt.slice_mut<i64>, index, i64) -> ()
      }
      gpu.return
    }

    // Static and dynamic shared memory, each thread through its own slot: out[i] = x[i] + 1 + 2.
    gpu.func @shared_roundtrip(%x: !simt.slice<f32>, %out: !simt.disjoint<f32, "1d">) kernel attributes {simt.contract = {domain = 1 : i64, block = array<i32: 128, 1, 1>}} {
      %s = "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f32, 128 : i64>
      %c0 = arith.constant 0 : index
      %dyn = "simt.dynamic_shared"(%c0) {align = 16 : i64} : (index) -> !simt.ptr<f32, 3>
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<f32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f32>)
      scf.if %ok {
        %i = "simt.index_value"(%w) : (!simt.thread_index<"1d">) -> index
        %t32 = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
        %t = arith.index_cast %t32 : i32 to index
        %v = "simt.load"(%x, %i) : (!simt.slice<f32>, index) -> f32
        %one = arith.constant 1.0 : f32
        %v1 = arith.addf %v, %one : f32
        "simt.shared_store"(%s, %t, %v1) : (!simt.shared<f32, 128 : i64>, index, f32) -> ()
        %a = "simt.shared_load"(%s, %t) : (!simt.shared<f32, 128 : i64>, index) -> f32
        %slot = "simt.ptr_offset"(%dyn, %t) : (!simt.ptr<f32, 3>, index) -> !simt.ptr<f32, 3>
        %two = arith.constant 2.0 : f32
        %a2 = arith.addf %a, %two : f32
        "simt.ptr_store"(%slot, %a2) : (!simt.ptr<f32, 3>, f32) -> ()
        %b = "simt.ptr_load"(%slot) : (!simt.ptr<f32, 3>) -> f32
        "simt.ref_store"(%r, %b) : (!simt.ref<f32>, f32) -> ()
      }
      gpu.return
    }

    // Reads x[i] for every thread of the launch, without checking the length first: a thread past the
    // end traps (Rust's out-of-bounds panic).
    gpu.func @out_of_bounds(%x: !simt.slice<f32>, %out: !simt.slice_mut<f32>) kernel {
      %t32 = "simt.thread_id"() {dim = #simt.dim<"x">} : () -> i32
      %t = arith.index_cast %t32 : i32 to index
      %v = "simt.load"(%x, %t) : (!simt.slice<f32>, index) -> f32
      %c0 = arith.constant 0 : index
      "simt.store"(%out, %c0, %v) : (!simt.slice_mut<f32>, index, f32) -> ()
      gpu.return
    }
  }
}
