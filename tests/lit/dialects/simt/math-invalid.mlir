// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @unknown_function(%x: f32) {
  // expected-error@+1 {{unknown libdevice function 'hypotenuse'}}
  %0 = "simt.libdevice"(%x) {fn = "hypotenuse"} : (f32) -> f32
  return
}

// -----

func.func @wrong_arity(%x: f32) {
  // expected-error@+1 {{'hypot' takes 2 argument(s), got 1}}
  %0 = "simt.libdevice"(%x) {fn = "hypot"} : (f32) -> f32
  return
}

// -----

func.func @no_arguments() {
  // expected-error@+1 {{'sin' takes 1 argument(s), got 0}}
  %0 = "simt.libdevice"() {fn = "sin"} : () -> f32
  return
}

// -----

func.func @only_f32_and_f64(%x: f16) {
  // expected-error@+1 {{does not satisfy the constraint}}
  %0 = "simt.libdevice"(%x) {fn = "sin"} : (f16) -> f16
  return
}

// -----

func.func @one_float_type(%x: f32, %y: f64) {
  // expected-error@+1 {{expected 'f32' but got 'f64'}}
  %0 = "simt.libdevice"(%x, %y) {fn = "hypot"} : (f32, f64) -> f32
  return
}

// -----

func.func @result_type_matches(%x: f32) {
  // expected-error@+1 {{expected 'f32' but got 'f64'}}
  %0 = "simt.libdevice"(%x) {fn = "sin"} : (f32) -> f64
  return
}

// -----

func.func @fn_is_required(%x: f32) {
  // expected-error@+1 {{attribute "fn" is expected but not provided}}
  %0 = "simt.libdevice"(%x) : (f32) -> f32
  return
}
