// simt memory ops lower to global loads and stores; read-only slices read through the
// non-coherent cache (ld.global.nc) and get noalias/readonly parameters; out-of-bounds traps.
// RUN: %oxide-opt %s --emit=ptx | FileCheck %s
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-simt-to-nvvm)' | FileCheck %s --check-prefix=NVVM

module attributes {gpu.container_module} {
  gpu.module @k {
    // NVVM-LABEL: gpu.func @copy(
    // NVVM-SAME: %{{.*}}: !llvm.ptr<1> {llvm.noalias, llvm.readonly}, %{{.*}}: i64, %{{.*}}: !llvm.ptr<1> {llvm.noalias}, %{{.*}}: i64
    // NVVM: llvm.load %{{.*}} invariant {alignment = 4 : i64} : !llvm.ptr<1> -> f32
    // NVVM: llvm.intr.trap
    // CHECK-LABEL: .entry copy(
    // CHECK: ld.global.nc.b32
    // CHECK: st.global.b32
    // CHECK: trap;
    gpu.func @copy(%src: !simt.slice<f32>, %dst: !simt.disjoint<f32, "1d">) kernel attributes {simt.contract = {domain = 1 : i64}} {
      %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
      %ok, %r = "simt.get_mut"(%dst, %w) : (!simt.disjoint<f32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f32>)
      scf.if %ok {
        %i = "simt.index_value"(%w) : (!simt.thread_index<"1d">) -> index
        %x = "simt.load"(%src, %i) : (!simt.slice<f32>, index) -> f32
        "simt.ref_store"(%r, %x) : (!simt.ref<f32>, f32) -> ()
      }
      gpu.return
    }

    // A &mut [T] is read coherently (plain ld.global) and written with a bounds check.
    // CHECK-LABEL: .entry mutable(
    // CHECK-NOT: ld.global.nc
    // CHECK: ld.global.b64
    // CHECK: st.global.b64
    gpu.func @mutable(%m: !simt.slice_mut<i64>, %i: index, %j: index) kernel {
      %x = "simt.load"(%m, %i) : (!simt.slice_mut<i64>, index) -> i64
      "simt.store"(%m, %j, %x) : (!simt.slice_mut<i64>, index, i64) -> ()
      gpu.return
    }

    // Unchecked access has no bounds check and no trap.
    // CHECK-LABEL: .entry unchecked(
    // CHECK-NOT: trap
    // CHECK: ld.global.nc.b32
    // CHECK-NOT: trap
    // CHECK: ret;
    gpu.func @unchecked(%src: !simt.slice<f32>, %dst: !simt.disjoint<f32, "1d">, %i: index) kernel {
      %x = "simt.load_unchecked"(%src, %i) : (!simt.slice<f32>, index) -> f32
      %r = "simt.get_unchecked_mut"(%dst, %i) : (!simt.disjoint<f32, "1d">, index) -> !simt.ref<f32>
      "simt.ref_store"(%r, %x) : (!simt.ref<f32>, f32) -> ()
      gpu.return
    }

    // Aligned vector access: one 16-byte load and store.
    // CHECK-LABEL: .entry vectors(
    // CHECK: ld.global.nc.v4.b32
    // CHECK: st.global.v4.b32
    gpu.func @vectors(%src: !simt.slice<f32>, %dst: !simt.slice_mut<f32>, %i: index) kernel {
      %v = "simt.vector_load"(%src, %i) : (!simt.slice<f32>, index) -> vector<4xf32>
      "simt.vector_store"(%dst, %i, %v) : (!simt.slice_mut<f32>, index, vector<4xf32>) -> ()
      gpu.return
    }

    // Raw and volatile pointer access.
    // CHECK-LABEL: .entry pointers(
    // CHECK: ld.volatile.global.b32
    // CHECK: st.volatile.global.b32
    gpu.func @pointers(%m: !simt.slice_mut<i32>, %i: index) kernel {
      %p = "simt.slice_ptr"(%m) : (!simt.slice_mut<i32>) -> !simt.ptr<i32, 1>
      %q = "simt.ptr_offset"(%p, %i) : (!simt.ptr<i32, 1>, index) -> !simt.ptr<i32, 1>
      %x = "simt.volatile_load"(%q) : (!simt.ptr<i32, 1>) -> i32
      "simt.volatile_store"(%p, %x) : (!simt.ptr<i32, 1>, i32) -> ()
      %y = "simt.ptr_load"(%q) : (!simt.ptr<i32, 1>) -> i32
      "simt.ptr_store"(%q, %y) : (!simt.ptr<i32, 1>, i32) -> ()
      gpu.return
    }

    // The remaining accessors: len, index_valid/row/col, ref_load, elem_ptr, slice_ptr of a disjoint slice.
    // CHECK-LABEL: .entry accessors(
    // CHECK: ld.global.b32
    // CHECK: st.global.b32
    // NVVM-LABEL: gpu.func @accessors(
    // NVVM-NOT: simt.
    // NVVM: gpu.return
    gpu.func @accessors(%src: !simt.slice<i32>, %out: !simt.disjoint<i32, "runtime_2d">, %flags: !simt.slice_mut<i32>) kernel {
      %w = "simt.index_2d_runtime"() : () -> !simt.thread_index<"runtime_2d">
      %valid = "simt.index_valid"(%w) : (!simt.thread_index<"runtime_2d">) -> i1
      %row = "simt.index_row"(%w) : (!simt.thread_index<"runtime_2d">) -> index
      %col = "simt.index_col"(%w) : (!simt.thread_index<"runtime_2d">) -> index
      %n = "simt.len"(%src) : (!simt.slice<i32>) -> index
      %ok, %r = "simt.get_mut"(%out, %w) : (!simt.disjoint<i32, "runtime_2d">, !simt.thread_index<"runtime_2d">) -> (i1, !simt.ref<i32>)
      %both = arith.andi %ok, %valid : i1
      scf.if %both {
        %old = "simt.ref_load"(%r) : (!simt.ref<i32>) -> i32
        %rp = "simt.ref_ptr"(%r) : (!simt.ref<i32>) -> !simt.ptr<i32, 1>
        "simt.volatile_store"(%rp, %old) : (!simt.ptr<i32, 1>, i32) -> ()
        %sum = arith.addi %row, %col : index
        %s32 = arith.index_cast %sum : index to i32
        %n32 = arith.index_cast %n : index to i32
        %v = arith.addi %old, %s32 : i32
        %v2 = arith.addi %v, %n32 : i32
        "simt.ref_store"(%r, %v2) : (!simt.ref<i32>, i32) -> ()
        %p = "simt.elem_ptr"(%flags, %row) : (!simt.slice_mut<i32>, index) -> !simt.ptr<i32, 1>
        "simt.ptr_store"(%p, %v2) : (!simt.ptr<i32, 1>, i32) -> ()
        %base = "simt.slice_ptr"(%out) : (!simt.disjoint<i32, "runtime_2d">) -> !simt.ptr<i32, 1>
        "simt.ptr_store"(%base, %v) : (!simt.ptr<i32, 1>, i32) -> ()
        %rebuilt = "simt.slice_from_ptr"(%base, %row) : (!simt.ptr<i32, 1>, index) -> !simt.slice_mut<i32>
        "simt.store"(%rebuilt, %col, %v) : (!simt.slice_mut<i32>, index, i32) -> ()
        %as_float = "simt.ptr_cast"(%base) : (!simt.ptr<i32, 1>) -> !simt.ptr<f32, 1>
        %bits = arith.bitcast %v : i32 to f32
        "simt.ptr_store"(%as_float, %bits) : (!simt.ptr<f32, 1>, f32) -> ()
      }
      gpu.return
    }
  }
}
