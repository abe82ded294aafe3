// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @load_result_must_be_element_type(%a: !simt.slice<f32>, %i: index) {
  // expected-error@+1 {{expected 'f32' but got 'i32'}}
  %x = "simt.load"(%a, %i) : (!simt.slice<f32>, index) -> i32
  return
}

// -----

func.func @disjoint_slices_are_not_read_by_index(%d: !simt.disjoint<f32, "1d">, %i: index) {
  // expected-error@+1 {{does not satisfy the constraint}}
  %x = "simt.load"(%d, %i) : (!simt.disjoint<f32, "1d">, index) -> f32
  return
}

// -----

func.func @read_only_slices_are_not_written(%a: !simt.slice<f32>, %i: index, %v: f32) {
  // expected-error@+1 {{expected base type 'simt.slice_mut' but got '!simt.slice<f32>'}}
  "simt.store"(%a, %i, %v) : (!simt.slice<f32>, index, f32) -> ()
  return
}

// -----

func.func @witness_space_must_match(%d: !simt.disjoint<f32, "2d:128">) {
  %w = "simt.index_2d"() : () -> !simt.thread_index<"2d:256">
  // expected-error@+1 {{expected '"2d:128"' but got '"2d:256"'}}
  %ok, %r = "simt.get_mut"(%d, %w) : (!simt.disjoint<f32, "2d:128">, !simt.thread_index<"2d:256">) -> (i1, !simt.ref<f32>)
  return
}

// -----

func.func @get_mut_needs_a_witness(%d: !simt.disjoint<f32, "1d">, %i: index) {
  // expected-error@+1 {{expected base type 'simt.thread_index' but got 'index'}}
  %ok, %r = "simt.get_mut"(%d, %i) : (!simt.disjoint<f32, "1d">, index) -> (i1, !simt.ref<f32>)
  return
}

// -----

func.func @ref_type_must_match(%d: !simt.disjoint<f32, "1d">) {
  %w = "simt.index_1d"() : () -> !simt.thread_index<"1d">
  // expected-error@+1 {{expected 'f32' but got 'f64'}}
  %ok, %r = "simt.get_mut"(%d, %w) : (!simt.disjoint<f32, "1d">, !simt.thread_index<"1d">) -> (i1, !simt.ref<f64>)
  return
}

// -----

func.func @disjoint_space_must_be_known(%d: !simt.disjoint<f32, "3d">, %w: !simt.thread_index<"3d">) {
  // expected-error@+1 {{unknown index space "3d"}}
  %ok, %r = "simt.get_mut"(%d, %w) : (!simt.disjoint<f32, "3d">, !simt.thread_index<"3d">) -> (i1, !simt.ref<f32>)
  return
}

// -----

func.func @vector_of_the_element_type(%a: !simt.slice<f32>, %i: index) {
  // expected-error@+1 {{expected a 1-D vector of f32, got vector<4xi32>}}
  %q = "simt.vector_load"(%a, %i) : (!simt.slice<f32>, index) -> vector<4xi32>
  return
}

// -----

func.func @vector_at_most_16_bytes(%a: !simt.slice<f64>, %i: index) {
  // expected-error@+1 {{vector accesses are 2 or 4 elements of at most 16 bytes in all, got vector<4xf64>}}
  %q = "simt.vector_load"(%a, %i) : (!simt.slice<f64>, index) -> vector<4xf64>
  return
}

// -----

func.func @slice_pointer_is_global(%a: !simt.slice<f32>) {
  // expected-error@+1 {{a slice pointer is in the global address space (1)}}
  %p = "simt.slice_ptr"(%a) : (!simt.slice<f32>) -> !simt.ptr<f32, 3>
  return
}

// -----

func.func @pointer_load_type(%p: !simt.ptr<f32, 1>) {
  // expected-error@+1 {{expected 'f32' but got 'i32'}}
  %x = "simt.ptr_load"(%p) : (!simt.ptr<f32, 1>) -> i32
  return
}

// -----

func.func @offset_keeps_the_address_space(%p: !simt.ptr<f32, 1>, %i: index) {
  // expected-error@+1 {{expected '1 : i64' but got '3 : i64'}}
  %q = "simt.ptr_offset"(%p, %i) : (!simt.ptr<f32, 1>, index) -> !simt.ptr<f32, 3>
  return
}

// -----

func.func @len_of_a_scalar(%x: f32) {
  // expected-error@+1 {{does not satisfy the constraint}}
  %n = "simt.len"(%x) : (f32) -> index
  return
}

// -----

func.func @unchecked_load_type(%a: !simt.slice<f32>, %i: index) {
  // expected-error@+1 {{expected 'f32' but got 'f64'}}
  %x = "simt.load_unchecked"(%a, %i) : (!simt.slice<f32>, index) -> f64
  return
}

// -----

func.func @unchecked_mut_needs_a_disjoint_slice(%a: !simt.slice_mut<f32>, %i: index) {
  // expected-error@+1 {{expected base type 'simt.disjoint' but got '!simt.slice_mut<f32>'}}
  %r = "simt.get_unchecked_mut"(%a, %i) : (!simt.slice_mut<f32>, index) -> !simt.ref<f32>
  return
}

// -----

func.func @ref_store_type(%r: !simt.ref<f32>, %v: i32) {
  // expected-error@+1 {{expected 'f32' but got 'i32'}}
  "simt.ref_store"(%r, %v) : (!simt.ref<f32>, i32) -> ()
  return
}

// -----

func.func @ref_load_type(%r: !simt.ref<f32>) {
  // expected-error@+1 {{expected 'f32' but got 'i64'}}
  %x = "simt.ref_load"(%r) : (!simt.ref<f32>) -> i64
  return
}

// -----

func.func @vector_store_needs_mut(%a: !simt.slice<f32>, %i: index, %v: vector<4xf32>) {
  // expected-error@+1 {{expected base type 'simt.slice_mut' but got 'simt.slice'}}
  "simt.vector_store"(%a, %i, %v) : (!simt.slice<f32>, index, vector<4xf32>) -> ()
  return
}

// -----

func.func @ptr_store_type(%p: !simt.ptr<f32, 1>, %v: f64) {
  // expected-error@+1 {{expected 'f32' but got 'f64'}}
  "simt.ptr_store"(%p, %v) : (!simt.ptr<f32, 1>, f64) -> ()
  return
}

// -----

func.func @volatile_load_type(%p: !simt.ptr<i32, 1>) {
  // expected-error@+1 {{expected 'i32' but got 'i64'}}
  %x = "simt.volatile_load"(%p) : (!simt.ptr<i32, 1>) -> i64
  return
}

// -----

func.func @volatile_store_type(%p: !simt.ptr<i32, 1>, %v: i64) {
  // expected-error@+1 {{expected 'i32' but got 'i64'}}
  "simt.volatile_store"(%p, %v) : (!simt.ptr<i32, 1>, i64) -> ()
  return
}

// -----

func.func @elem_ptr_is_global(%a: !simt.slice<f32>, %i: index) {
  // expected-error@+1 {{a slice element is in the global address space (1)}}
  %p = "simt.elem_ptr"(%a, %i) : (!simt.slice<f32>, index) -> !simt.ptr<f32, 0>
  return
}

// -----

func.func @ptr_cast_keeps_the_address_space(%p: !simt.ptr<f32, 3>) {
  // expected-error@+1 {{expected '3 : i64' but got '1 : i64'}}
  %q = "simt.ptr_cast"(%p) : (!simt.ptr<f32, 3>) -> !simt.ptr<i32, 1>
  return
}

// -----

func.func @ref_pointer_is_global(%r: !simt.ref<f32>) {
  // expected-error@+1 {{an element reference points into global memory (address space 1)}}
  %p = "simt.ref_ptr"(%r) : (!simt.ref<f32>) -> !simt.ptr<f32, 3>
  return
}

// -----

func.func @slice_from_shared_pointer(%p: !simt.ptr<f32, 3>, %n: index) {
  // expected-error@+1 {{a slice is built from a global pointer (address space 1)}}
  %s = "simt.slice_from_ptr"(%p, %n) : (!simt.ptr<f32, 3>, index) -> !simt.slice<f32>
  return
}

// -----

func.func @slice_from_pointer_element_type(%p: !simt.ptr<f32, 1>, %n: index) {
  // expected-error@+1 {{'!simt.slice<i32>' does not satisfy the constraint}}
  %s = "simt.slice_from_ptr"(%p, %n) : (!simt.ptr<f32, 1>, index) -> !simt.slice<i32>
  return
}

// -----

func.func @field_ptr_needs_a_struct(%p: !simt.ptr<f32, 1>) {
  // expected-error@+1 {{field_ptr needs a pointer to an !llvm.struct, got f32}}
  %q = "simt.field_ptr"(%p) {field = 0 : i64} : (!simt.ptr<f32, 1>) -> !simt.ptr<f32, 1>
  return
}

// -----

func.func @field_ptr_result_is_the_field(%p: !simt.ptr<!llvm.struct<(f32, i64)>, 1>) {
  // expected-error@+1 {{field 1 of !llvm.struct<(f32, i64)> is i64, but the result points to f32}}
  %q = "simt.field_ptr"(%p) {field = 1 : i64} : (!simt.ptr<!llvm.struct<(f32, i64)>, 1>) -> !simt.ptr<f32, 1>
  return
}

// -----

func.func @from_generic_goes_to_global_or_shared(%p: !simt.ptr<f32, 0>) {
  // expected-error@+1 {{from_generic converts to the global (1) or shared (3) address space}}
  %q = "simt.from_generic"(%p) : (!simt.ptr<f32, 0>) -> !simt.ptr<f32, 5>
  return
}

// -----

func.func @stated_alignment_is_a_power_of_two(%p: !simt.ptr<f32, 1>) {
  // expected-error@+1 {{simt.align must be a power-of-two integer, got 12 : i64}}
  %v = "simt.ptr_load"(%p) {simt.align = 12 : i64} : (!simt.ptr<f32, 1>) -> f32
  return
}

// -----

func.func @stated_alignment_is_at_least_the_natural_one(%p: !simt.ptr<f64, 1>, %v: f64) {
  // expected-error@+1 {{simt.align = 4 is below the natural alignment of f64 (8)}}
  "simt.ptr_store"(%p, %v) {simt.align = 4 : i64} : (!simt.ptr<f64, 1>, f64) -> ()
  return
}

// -----

func.func @row_width_keeps_the_element_type(%d: !simt.disjoint<f32, "1d">, %w: i32) {
  // expected-error@+1 {{expected 'f32' but got 'i32'}}
  %d2 = "simt.with_row_width"(%d, %w) : (!simt.disjoint<f32, "1d">, i32) -> !simt.disjoint<i32, "runtime_2d">
  return
}


// -----

// A fuzz finding: an alignment wider than 64 bits aborted the process where the verifier read it.
func.func @stated_alignment_fits_llvm(%p: !simt.ptr<f64, 1>, %v: f64) {
  // expected-error@+1 {{simt.align = 9223372036854775808 is above the largest alignment LLVM has (2^32 bytes)}}
  "simt.ptr_store"(%p, %v) {simt.align = 9223372036854775808 : i65} : (!simt.ptr<f64, 1>, f64) -> ()
  return
}
