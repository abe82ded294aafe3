// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @alignment_power_of_two() {
  // expected-error@+1 {{'simt.shared_array' op alignment must be a power of two from 1 to 1024, got 12}}
  %s = "simt.shared_array"() {align = 12 : i64} : () -> !simt.shared<f32, 256 : i64>
  return
}

// -----

func.func @alignment_at_most_256() {
  // expected-error@+1 {{alignment must be a power of two from 1 to 1024, got 2048}}
  %s = "simt.shared_array"() {align = 2048 : i64} : () -> !simt.shared<f32, 4 : i64>
  return
}

// -----

func.func @shared_array_not_empty() {
  // expected-error@+1 {{a shared array needs at least one element, got 0}}
  %s = "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f32, 0 : i64>
  return
}

// -----

func.func @shared_load_type(%i: index) {
  %s = "simt.shared_array"() {align = 4 : i64} : () -> !simt.shared<f32, 8 : i64>
  // expected-error@+1 {{expected 'f32' but got 'i32'}}
  %x = "simt.shared_load"(%s, %i) : (!simt.shared<f32, 8 : i64>, index) -> i32
  return
}

// -----

func.func @shared_pointer_is_shared() {
  %s = "simt.shared_array"() {align = 4 : i64} : () -> !simt.shared<f32, 8 : i64>
  // expected-error@+1 {{a shared array pointer is in the shared address space (3)}}
  %p = "simt.shared_ptr"(%s) : (!simt.shared<f32, 8 : i64>) -> !simt.ptr<f32, 1>
  return
}

// -----

func.func @dynamic_shared_space(%o: index) {
  // expected-error@+1 {{dynamic shared memory is in the shared address space (3)}}
  %d = "simt.dynamic_shared"(%o) {align = 16 : i64} : (index) -> !simt.ptr<f32, 0>
  return
}

// -----

func.func @shared_store_type(%i: index, %v: f64) {
  %s = "simt.shared_array"() {align = 4 : i64} : () -> !simt.shared<f32, 8 : i64>
  // expected-error@+1 {{expected 'f32' but got 'f64'}}
  "simt.shared_store"(%s, %i, %v) : (!simt.shared<f32, 8 : i64>, index, f64) -> ()
  return
}

// -----

func.func @dynamic_shared_alignment(%o: index) {
  // expected-error@+1 {{alignment must be a power of two from 1 to 1024, got 3}}
  %d = "simt.dynamic_shared"(%o) {align = 3 : i64} : (index) -> !simt.ptr<f32, 3>
  return
}
