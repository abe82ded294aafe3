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
