// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @shuffle_width_power_of_two(%m: i32, %v: i32) {
  // expected-error@+1 {{'simt.shuffle' op shuffle width must be a power of two from 1 to 32, got 3}}
  %0 = "simt.shuffle"(%m, %v, %m) {kind = "idx", width = 3} : (i32, i32, i32) -> i32
  return
}

// -----

func.func @shuffle_width_at_most_32(%m: i32, %v: f32) {
  // expected-error@+1 {{shuffle width must be a power of two from 1 to 32, got 64}}
  %0 = "simt.shuffle"(%m, %v, %m) {kind = "down", width = 64} : (i32, f32, i32) -> f32
  return
}

// -----

func.func @shuffle_width_positive(%m: i32, %v: f32) {
  // expected-error@+1 {{shuffle width must be a power of two from 1 to 32, got 0}}
  %0 = "simt.shuffle"(%m, %v, %m) {kind = "up", width = 0} : (i32, f32, i32) -> f32
  return
}

// -----

func.func @shuffle_width_is_an_integer(%m: i32, %v: f32) {
  // expected-error@+1 {{expected base attribute 'builtin.integer' but got 'builtin.string'}}
  %0 = "simt.shuffle"(%m, %v, %m) {kind = "xor", width = "32"} : (i32, f32, i32) -> f32
  return
}

// -----

func.func @shuffle_32_or_64_bit_values(%m: i32, %v: i16) {
  // expected-error@+1 {{'i16' does not satisfy the constraint}}
  %0 = "simt.shuffle"(%m, %v, %m) {kind = "idx", width = 32} : (i32, i16, i32) -> i16
  return
}

// -----

func.func @shuffle_result_is_value_type(%m: i32, %v: f32) {
  // expected-error@+1 {{expected 'f32' but got 'f64'}}
  %0 = "simt.shuffle"(%m, %v, %m) {kind = "idx", width = 32} : (i32, f32, i32) -> f64
  return
}

// -----

func.func @shuffle_kind(%m: i32, %v: f32) {
  // expected-error@+1 {{'"bfly"' does not satisfy the constraint}}
  %0 = "simt.shuffle"(%m, %v, %m) {kind = "bfly", width = 32} : (i32, f32, i32) -> f32
  return
}

// -----

func.func @shuffle_offset_is_i32(%m: i32, %v: f32, %o: index) {
  // expected-error@+1 {{expected 'i32' but got 'index'}}
  %0 = "simt.shuffle"(%m, %v, %o) {kind = "idx", width = 32} : (i32, f32, index) -> f32
  return
}

// -----

func.func @vote_mask_is_i32(%m: i64, %p: i1) {
  // expected-error@+1 {{expected 'i32' but got 'i64'}}
  %0 = "simt.vote"(%m, %p) {kind = "all"} : (i64, i1) -> i1
  return
}

// -----

func.func @vote_ballot_is_its_own_op(%m: i32, %p: i1) {
  // expected-error@+1 {{'"ballot"' does not satisfy the constraint}}
  %0 = "simt.vote"(%m, %p) {kind = "ballot"} : (i32, i1) -> i1
  return
}

// -----

func.func @ballot_predicate_is_i1(%m: i32, %p: i32) {
  // expected-error@+1 {{expected 'i1' but got 'i32'}}
  %0 = "simt.ballot"(%m, %p) : (i32, i32) -> i32
  return
}

// -----

func.func @match_any_integers_only(%m: i32, %v: f32) {
  // expected-error@+1 {{'f32' does not satisfy the constraint}}
  %0 = "simt.match_any"(%m, %v) : (i32, f32) -> i32
  return
}

// -----

func.func @match_all_yields_mask_and_predicate(%m: i32, %v: i64) {
  // expected-error@+1 {{expected 'i1' but got 'i32'}}
  %0:2 = "simt.match_all"(%m, %v) : (i32, i64) -> (i32, i32)
  return
}

// -----

func.func @active_mask_is_i32() {
  // expected-error@+1 {{expected 'i32' but got 'i64'}}
  %0 = "simt.active_mask"() : () -> i64
  return
}

// -----

func.func @redux_i32_only(%m: i32, %v: i64) {
  // expected-error@+1 {{expected 'i32' but got 'i64'}}
  %0 = "simt.redux"(%m, %v) {kind = "add"} : (i32, i64) -> i32
  return
}

// -----

func.func @redux_kind(%m: i32, %v: i32) {
  // expected-error@+1 {{'"mul"' does not satisfy the constraint}}
  %0 = "simt.redux"(%m, %v) {kind = "mul"} : (i32, i32) -> i32
  return
}

// -----

func.func @elect_yields_lane_then_predicate(%m: i32) {
  // expected-error@+1 {{expected 'i32' but got 'i1'}}
  %0:2 = "simt.elect"(%m) : (i32) -> (i1, i32)
  return
}
