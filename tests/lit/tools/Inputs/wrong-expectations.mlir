func.func @nothing_wrong() {
  %s = "simt.shared_array"() {align = 8 : i64} : () -> !simt.shared<f32, 4 : i64>
  // expected-error@-1 {{this is never emitted}}
  return
}

// -----

func.func @unexpected() {
  %s = "simt.shared_array"() {align = 5 : i64} : () -> !simt.shared<f32, 4 : i64>
  return
}

// -----

func.func @wrong_line(%a: !simt.slice<f32>, %i: index) {
  // expected-error@+2 {{expected 'f32' but got 'i64'}}
  %x = "simt.load"(%a, %i) : (!simt.slice<f32>, index) -> i64
  return
}
