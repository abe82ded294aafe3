// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @load_needs_a_coordinate(%map: !simt.tensor_map, %dst: !simt.ptr<i8, 3>, %bar: !simt.ptr<i64, 3>) {
  // expected-error@+1 {{a TMA copy takes 1 to 5 coordinates (one per dimension of the tensor map), got 0}}
  "simt.tma_load"(%dst, %map, %bar) {operandSegmentSizes = array<i32: 1, 1, 0, 1, 0>} : (!simt.ptr<i8, 3>, !simt.tensor_map, !simt.ptr<i64, 3>) -> ()
  return
}

// -----

func.func @load_rank_is_at_most_five(%map: !simt.tensor_map, %x: i32, %dst: !simt.ptr<i8, 3>, %bar: !simt.ptr<i64, 3>) {
  // expected-error@+1 {{a TMA copy takes 1 to 5 coordinates (one per dimension of the tensor map), got 6}}
  "simt.tma_load"(%dst, %map, %x, %x, %x, %x, %x, %x, %bar) {operandSegmentSizes = array<i32: 1, 1, 6, 1, 0>} : (!simt.ptr<i8, 3>, !simt.tensor_map, i32, i32, i32, i32, i32, i32, !simt.ptr<i64, 3>) -> ()
  return
}

// -----

func.func @store_rank_is_at_most_five(%map: !simt.tensor_map, %x: i32, %src: !simt.ptr<i8, 3>) {
  // expected-error@+1 {{a TMA copy takes 1 to 5 coordinates (one per dimension of the tensor map), got 6}}
  "simt.tma_store"(%map, %src, %x, %x, %x, %x, %x, %x) : (!simt.tensor_map, !simt.ptr<i8, 3>, i32, i32, i32, i32, i32, i32) -> ()
  return
}

// -----

func.func @load_destination_is_shared(%map: !simt.tensor_map, %x: i32, %dst: !simt.ptr<i8, 1>, %bar: !simt.ptr<i64, 3>) {
  // expected-error@+1 {{expected '3 : i64' but got '1 : i64'}}
  "simt.tma_load"(%dst, %map, %x, %bar) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (!simt.ptr<i8, 1>, !simt.tensor_map, i32, !simt.ptr<i64, 3>) -> ()
  return
}

// -----

func.func @load_barrier_is_shared(%map: !simt.tensor_map, %x: i32, %dst: !simt.ptr<i8, 3>, %bar: !simt.ptr<i64, 0>) {
  // expected-error@+1 {{expected '3 : i64' but got '0 : i64'}}
  "simt.tma_load"(%dst, %map, %x, %bar) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (!simt.ptr<i8, 3>, !simt.tensor_map, i32, !simt.ptr<i64, 0>) -> ()
  return
}

// -----

func.func @load_coordinates_are_i32(%map: !simt.tensor_map, %x: i64, %dst: !simt.ptr<i8, 3>, %bar: !simt.ptr<i64, 3>) {
  // expected-error@+1 {{expected 'i32' but got 'i64'}}
  "simt.tma_load"(%dst, %map, %x, %bar) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (!simt.ptr<i8, 3>, !simt.tensor_map, i64, !simt.ptr<i64, 3>) -> ()
  return
}

// -----

func.func @multicast_mask_is_i16(%map: !simt.tensor_map, %x: i32, %dst: !simt.ptr<i8, 3>, %bar: !simt.ptr<i64, 3>, %mask: i32) {
  // expected-error@+1 {{expected 'i16' but got 'i32'}}
  "simt.tma_load"(%dst, %map, %x, %bar, %mask) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (!simt.ptr<i8, 3>, !simt.tensor_map, i32, !simt.ptr<i64, 3>, i32) -> ()
  return
}

// -----

func.func @tensor_map_is_a_tensor_map(%map: !simt.ptr<i8, 1>, %x: i32, %dst: !simt.ptr<i8, 3>, %bar: !simt.ptr<i64, 3>) {
  // expected-error@+1 {{expected base type 'simt.tensor_map' but got 'simt.ptr'}}
  "simt.tma_load"(%dst, %map, %x, %bar) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (!simt.ptr<i8, 3>, !simt.ptr<i8, 1>, i32, !simt.ptr<i64, 3>) -> ()
  return
}

// -----

func.func @store_source_is_shared(%map: !simt.tensor_map, %x: i32, %src: !simt.ptr<i8, 1>) {
  // expected-error@+1 {{expected '3 : i64' but got '1 : i64'}}
  "simt.tma_store"(%map, %src, %x) : (!simt.tensor_map, !simt.ptr<i8, 1>, i32) -> ()
  return
}

// -----

func.func @wait_group_count_is_not_negative() {
  // expected-error@+1 {{the pending group count must be 0..2147483647, got -1}}
  "simt.bulk_wait_group"() {pending = -1 : i64, until = "complete"} : () -> ()
  return
}

// -----

func.func @wait_group_count_fits_i32() {
  // expected-error@+1 {{the pending group count must be 0..2147483647, got 2147483648}}
  "simt.bulk_wait_group"() {pending = 2147483648 : i64, until = "complete"} : () -> ()
  return
}

// -----

func.func @wait_group_count_is_an_integer() {
  // expected-error@+1 {{expected base attribute 'builtin.integer' but got 'builtin.string'}}
  "simt.bulk_wait_group"() {pending = "one", until = "complete"} : () -> ()
  return
}

// -----

func.func @wait_group_until_is_complete_or_read() {
  // expected-error@+1 {{'"write"' does not satisfy the constraint}}
  "simt.bulk_wait_group"() {pending = 0 : i64, until = "write"} : () -> ()
  return
}

// -----

func.func @wide_wait_group_count(%m: i32) {
  // expected-error@+1 {{the pending group count must be 0..2147483647, got -36893488147419103232}}
  "simt.bulk_wait_group"() {pending = 36893488147419103232 : i66, until = "complete"} : () -> ()
  return
}

// -----

func.func @commit_group_takes_nothing(%m: i32) {
  // expected-error@+1 {{expects exactly 0 operands, but got 1}}
  "simt.bulk_commit_group"(%m) : (i32) -> ()
  return
}

// -----

func.func @prefetch_takes_a_tensor_map(%p: !simt.ptr<i8, 1>) {
  // expected-error@+1 {{expected base type 'simt.tensor_map' but got 'simt.ptr'}}
  "simt.tma_prefetch"(%p) : (!simt.ptr<i8, 1>) -> ()
  return
}
