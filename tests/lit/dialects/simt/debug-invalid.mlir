// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @condition_is_i1(%c: i32) {
  // expected-error@+1 {{expected 'i1' but got 'i32'}}
  "simt.assert"(%c) {message = "c"} : (i32) -> ()
  return
}

// -----

func.func @message_is_required(%c: i1) {
  // expected-error@+1 {{an assertion needs a message}}
  "simt.assert"(%c) {message = ""} : (i1) -> ()
  return
}

// -----

func.func @message_has_no_nul(%c: i1) {
  // expected-error@+1 {{an assertion message cannot contain a NUL character}}
  "simt.assert"(%c) {message = "cut\00short"} : (i1) -> ()
  return
}

// -----

func.func @trap_takes_nothing(%c: i1) {
  // expected-error@+1 {{expects exactly 0 operands, but got 1}}
  "simt.trap"(%c) : (i1) -> ()
  return
}

// -----

func.func @printf_order_matches_the_groups(%a: i32, %x: f64) -> i32 {
  // expected-error@+1 {{order "ii" does not match 1 i32, 0 i64 and 1 f64 arguments}}
  %n = "simt.printf"(%a, %x) {format = "%d %f", operandSegmentSizes = array<i32: 1, 0, 1>, order = "ii"} : (i32, f64) -> i32
  return %n : i32
}

// -----

func.func @printf_arguments_are_promoted(%a: i16) -> i32 {
  // expected-error@+1 {{expected 'i32' but got 'i16'}}
  %n = "simt.printf"(%a) {format = "%d", operandSegmentSizes = array<i32: 1, 0, 0>, order = "i"} : (i16) -> i32
  return %n : i32
}

