// Text on which MLIR's parser would abort is a located error before parsing.
// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @f(%m: i32) {
  // expected-error@+1 {{op name "simt." names no operation; write the dialect and the operation}}
  "simt."(%m) : (i32) -> ()
  return
}

// -----

func.func @f(%m: i32) {
  // expected-error@+1 {{op name "tile." names no operation}}
  %0 = "tile."(%m) : (i32) -> i32
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{op name "arith" names no operation}}
  "arith"() : () -> ()
  return
}

// -----

// A name location that looks like an op name is not one.
func.func @f() {
  // expected-error@+1 {{op name "simt.\bd" is not valid UTF-8 (byte 0xbd)}}
  "simt.\bd"() : () -> () loc("simt."("here":1:1))
  return
}

// -----

// expected-error@+1 {{symbol name "a\ff" is not valid UTF-8 (byte 0xff)}}
func.func @"a\ff"() {
  return
}

// -----

// expected-error@+1 {{a dense array cannot hold `index` elements; write array<i64: ...>}}
func.func @f() attributes {simt.launch_bounds = array<index: 1>} {
  return
}

// -----

func.func @f() {
  // expected-error@+1 {{tensor type with 590295810358705651648 elements: the element count must fit in 64 bits}}
  %zero = arith.constant dense<0.0> : tensor<9223372036854775807x64xf32>
  return
}

// -----

// Strings and comments are not scanned: "simt."() array<index> vector<9223372036854775807x2xf32>
func.func @f() attributes {note = "\"simt.\"() array<index> tensor<9223372036854775807x2xf32>"} {
  return
}

// -----

// A comment between the op name and its operands does not hide the name.
func.func @f() {
  // expected-error@+1 {{op name "simt.\bd" is not valid UTF-8 (byte 0xbd)}}
  "simt.\bd" // a comment
  () : () -> ()
  return
}

// -----

// A fuzz finding: an unterminated string made the bindings abort while reporting the lexer's error.
func.func @f() {
  // expected-error@+1 {{unterminated string: a string literal ends with `"` on the line where it starts}}
  "
  return
}

// -----

// A fuzz finding: the same with space between `array` and `<`.
// expected-error@+1 {{a dense array cannot hold `index` elements; write array<i64: ...>}}
func.func @f() attributes {simt.launch_bounds = array <index: 1>} {
  return
}
