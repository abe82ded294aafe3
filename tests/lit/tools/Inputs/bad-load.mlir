func.func @f(%a: !simt.slice<f32>, %i: index) -> i32 {
  %x = "simt.load"(%a, %i) : (!simt.slice<f32>, index) -> i32
  return %x : i32
}
