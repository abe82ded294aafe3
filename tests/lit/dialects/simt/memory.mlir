// RUN: %oxide-opt %s | FileCheck %s
// RUN: %oxide-opt %s | %oxide-opt | FileCheck %s

// CHECK-LABEL: func.func @slices
// CHECK-SAME: !simt.slice<f32>, %{{.*}}: !simt.slice_mut<i64>, %{{.*}}: !simt.disjoint<f32, "1d">
func.func @slices(%a: !simt.slice<f32>, %m: !simt.slice_mut<i64>, %d: !simt.disjoint<f32, "1d">, %i: index, %x: i64) {
  // CHECK: "simt.len"(%{{.*}}) : (!simt.slice<f32>) -> index
  %n = "simt.len"(%a) : (!simt.slice<f32>) -> index
  // CHECK: "simt.len"(%{{.*}}) : (!simt.disjoint<f32, "1d">) -> index
  %nd = "simt.len"(%d) : (!simt.disjoint<f32, "1d">) -> index
  // CHECK: "simt.load"(%{{.*}}, %{{.*}}) : (!simt.slice<f32>, index) -> f32
  %v = "simt.load"(%a, %i) : (!simt.slice<f32>, index) -> f32
  // CHECK: "simt.load"(%{{.*}}, %{{.*}}) : (!simt.slice_mut<i64>, index) -> i64
  %y = "simt.load"(%m, %i) : (!simt.slice_mut<i64>, index) -> i64
  // CHECK: "simt.load_unchecked"(%{{.*}}, %{{.*}}) : (!simt.slice<f32>, index) -> f32
  %u = "simt.load_unchecked"(%a, %i) : (!simt.slice<f32>, index) -> f32
  // CHECK: "simt.store"(%{{.*}}, %{{.*}}, %{{.*}}) : (!simt.slice_mut<i64>, index, i64) -> ()
  "simt.store"(%m, %i, %x) : (!simt.slice_mut<i64>, index, i64) -> ()
  return
}

// CHECK-LABEL: func.func @disjoint
func.func @disjoint(%d: !simt.disjoint<f32, "1d">, %d2: !simt.disjoint<f32, "runtime_2d">, %i: index, %v: f32) {
  %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
  // CHECK: "simt.get_mut"(%{{.*}}, %{{.*}}) : (!simt.disjoint<f32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f32>)
  %ok, %r = "simt.get_mut"(%d, %w) : (!simt.disjoint<f32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f32>)
  // CHECK: "simt.ref_store"(%{{.*}}, %{{.*}}) : (!simt.ref<f32>, f32) -> ()
  "simt.ref_store"(%r, %v) : (!simt.ref<f32>, f32) -> ()
  // CHECK: "simt.ref_load"(%{{.*}}) : (!simt.ref<f32>) -> f32
  %l = "simt.ref_load"(%r) : (!simt.ref<f32>) -> f32
  %w2 = "simt.index_2d_runtime"() : () -> !simt.thread_index<"runtime_2d">
  // CHECK: "simt.get_mut"(%{{.*}}, %{{.*}}) : (!simt.disjoint<f32, "runtime_2d">, !simt.thread_index<"runtime_2d">)
  %ok2, %r2 = "simt.get_mut"(%d2, %w2) : (!simt.disjoint<f32, "runtime_2d">, !simt.thread_index<"runtime_2d">) -> (i1, !simt.ref<f32>)
  // CHECK: "simt.get_unchecked_mut"(%{{.*}}, %{{.*}}) : (!simt.disjoint<f32, "1d">, index) -> !simt.ref<f32>
  %r3 = "simt.get_unchecked_mut"(%d, %i) : (!simt.disjoint<f32, "1d">, index) -> !simt.ref<f32>
  return
}

// CHECK-LABEL: func.func @vectors_and_pointers
func.func @vectors_and_pointers(%a: !simt.slice<f32>, %m: !simt.slice_mut<f32>, %i: index, %v: vector<4xf32>, %x: f32) {
  // CHECK: "simt.vector_load"(%{{.*}}, %{{.*}}) : (!simt.slice<f32>, index) -> vector<4xf32>
  %q = "simt.vector_load"(%a, %i) : (!simt.slice<f32>, index) -> vector<4xf32>
  // CHECK: "simt.vector_store"(%{{.*}}, %{{.*}}, %{{.*}}) : (!simt.slice_mut<f32>, index, vector<4xf32>) -> ()
  "simt.vector_store"(%m, %i, %v) : (!simt.slice_mut<f32>, index, vector<4xf32>) -> ()
  // CHECK: "simt.slice_ptr"(%{{.*}}) : (!simt.slice_mut<f32>) -> !simt.ptr<f32, 1 : i64>
  %p = "simt.slice_ptr"(%m) : (!simt.slice_mut<f32>) -> !simt.ptr<f32, 1>
  // CHECK: "simt.ptr_offset"(%{{.*}}, %{{.*}}) : (!simt.ptr<f32, 1 : i64>, index) -> !simt.ptr<f32, 1 : i64>
  %p2 = "simt.ptr_offset"(%p, %i) : (!simt.ptr<f32, 1>, index) -> !simt.ptr<f32, 1>
  // CHECK: "simt.ptr_load"
  %l = "simt.ptr_load"(%p2) : (!simt.ptr<f32, 1>) -> f32
  // CHECK: "simt.ptr_store"
  "simt.ptr_store"(%p2, %x) : (!simt.ptr<f32, 1>, f32) -> ()
  // CHECK: "simt.volatile_load"
  %vl = "simt.volatile_load"(%p2) : (!simt.ptr<f32, 1>) -> f32
  // CHECK: "simt.volatile_store"
  "simt.volatile_store"(%p2, %x) : (!simt.ptr<f32, 1>, f32) -> ()
  // CHECK: "simt.elem_ptr"(%{{.*}}, %{{.*}}) : (!simt.slice<f32>, index) -> !simt.ptr<f32, 1 : i64>
  %e = "simt.elem_ptr"(%a, %i) : (!simt.slice<f32>, index) -> !simt.ptr<f32, 1>
  return
}

// CHECK-LABEL: func.func @pointer_casts
func.func @pointer_casts(%p: !simt.ptr<f32, 3>) {
  // CHECK: "simt.ptr_cast"(%{{.*}}) : (!simt.ptr<f32, 3 : i64>) -> !simt.ptr<i32, 3 : i64>
  %q = "simt.ptr_cast"(%p) : (!simt.ptr<f32, 3>) -> !simt.ptr<i32, 3>
  return
}

// CHECK-LABEL: func.func @ref_pointers
func.func @ref_pointers(%r: !simt.ref<i32>) {
  // CHECK: "simt.ref_ptr"(%{{.*}}) : (!simt.ref<i32>) -> !simt.ptr<i32, 1 : i64>
  %p = "simt.ref_ptr"(%r) : (!simt.ref<i32>) -> !simt.ptr<i32, 1>
  return
}

// CHECK-LABEL: func.func @slices_from_pointers
func.func @slices_from_pointers(%p: !simt.ptr<f32, 1>, %n: index) {
  // CHECK: "simt.slice_from_ptr"(%{{.*}}, %{{.*}}) : (!simt.ptr<f32, 1 : i64>, index) -> !simt.slice_mut<f32>
  %s = "simt.slice_from_ptr"(%p, %n) : (!simt.ptr<f32, 1>, index) -> !simt.slice_mut<f32>
  // CHECK: "simt.slice_from_ptr"(%{{.*}}, %{{.*}}) : (!simt.ptr<f32, 1 : i64>, index) -> !simt.disjoint<f32, "1d">
  %d = "simt.slice_from_ptr"(%p, %n) : (!simt.ptr<f32, 1>, index) -> !simt.disjoint<f32, "1d">
  return
}

// CHECK-LABEL: func.func @field_pointers
func.func @field_pointers(%p: !simt.ptr<!llvm.struct<(f32, i64)>, 3>) {
  // CHECK: "simt.field_ptr"(%{{.*}}) {field = 1 : i64} : (!simt.ptr<!llvm.struct<(f32, i64)>, 3 : i64>) -> !simt.ptr<i64, 3 : i64>
  %q = "simt.field_ptr"(%p) {field = 1 : i64} : (!simt.ptr<!llvm.struct<(f32, i64)>, 3>) -> !simt.ptr<i64, 3>
  return
}

// CHECK-LABEL: func.func @from_generic
func.func @from_generic(%p: !simt.ptr<f32, 0>) {
  // CHECK: "simt.from_generic"(%{{.*}}) : (!simt.ptr<f32, 0 : i64>) -> !simt.ptr<f32, 1 : i64>
  %q = "simt.from_generic"(%p) : (!simt.ptr<f32, 0>) -> !simt.ptr<f32, 1>
  return
}

// CHECK-LABEL: func.func @row_width
func.func @row_width(%d: !simt.disjoint<i32, "1d">, %w: i32) {
  // A 1-D disjoint slice made in a kernel, addressed as runtime 2-D rows of %w elements.
  // CHECK: "simt.with_row_width"(%{{.*}}, %{{.*}}) : (!simt.disjoint<i32, "1d">, i32) -> !simt.disjoint<i32, "runtime_2d">
  %d2 = "simt.with_row_width"(%d, %w) : (!simt.disjoint<i32, "1d">, i32) -> !simt.disjoint<i32, "runtime_2d">
  return
}

