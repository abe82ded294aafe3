// RUN: %oxide-opt %s --split-input-file --verify-diagnostics
// tile.print rejects an `order` that does not match its arguments, and arguments that were not widened.

func.func @order_does_not_match(%i: i32) {
  // expected-error@+1 {{order "d" does not match 1 i32, 0 i64 and 0 f64 arguments}}
  "tile.print"(%i) {format = "%d", operandSegmentSizes = array<i32: 1, 0, 0>, order = "d"} : (i32) -> ()
  return
}

// -----

func.func @unwidened_argument(%i: i8) {
  // expected-error@+1 {{expected 'i32' but got 'i8'}}
  "tile.print"(%i) {format = "%d", operandSegmentSizes = array<i32: 1, 0, 0>, order = "i"} : (i8) -> ()
  return
}
