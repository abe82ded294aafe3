func.func @below() {
  // expected-error@below {{alignment must be a power of two from 1 to 1024, got 5}}
  %s = "simt.shared_array"() {align = 5 : i64} : () -> !simt.shared<f32, 4 : i64>
  return
}

// -----

func.func @above() {
  %s = "simt.shared_array"() {align = 6 : i64} : () -> !simt.shared<f32, 4 : i64>
  // expected-error@above {{got 6}}
  return
}

// -----

func.func @same_line() {
  %s = "simt.shared_array"() {align = 8 : i64} : () -> !simt.shared<f32, 0 : i64> // expected-error {{at least one element}}
  return
}

// -----

func.func @fine() {
  return
}
