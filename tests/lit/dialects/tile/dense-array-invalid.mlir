// A dense array of another element type where a verifier reads one (fuzz finding be277b0a: `array<ui32>`,
// which the bindings cannot read back, raised a TypeError inside the verifier) is a located error.
// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @permute_unsigned(%t: tensor<4x2xf32>) {
  // expected-error@+1 {{'tile.permute' op attribute 'perm' must be an array<i64: ...>, got array<ui32: 0, 0>}}
  %b = "tile.permute"(%t) {perm = array<ui32: 0, 0>} : (tensor<4x2xf32>) -> tensor<4x2xf32>
  return
}

// -----

func.func @permute_i32(%t: tensor<4x2xf32>) {
  // expected-error@+1 {{'tile.permute' op attribute 'perm' must be an array<i64: ...>, got array<i32: 1, 0>}}
  %b = "tile.permute"(%t) {perm = array<i32: 1, 0>} : (tensor<4x2xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @permute_float(%t: tensor<4x2xf32>) {
  // expected-error@+1 {{attribute 'perm' must be an array<i64: ...>, got array<f32: 1.000000e+00, 0.000000e+00>}}
  %b = "tile.permute"(%t) {perm = array<f32: 1., 0.>} : (tensor<4x2xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @view_shape_unsigned(%v: !tile.view<f32, array<ui32: 4>>) {
  // expected-error@+1 {{parameter 'shape' of !tile.view<f32, array<ui32: 4>> must be an attribute of a type oxide reads, got array<ui32: 4>}}
  %p = "tile.make_partition"(%v) : (!tile.view<f32, array<ui32: 4>>) -> !tile.partition<f32, array<i64: 128>>
  return
}

// -----

func.func @view_shape_i32(%v: !tile.view<f32, array<i32: 4>>) {
  // expected-error@+1 {{the shape of !tile.view<f32, array<i32: 4>> must be an array<i64: ...>, got array<i32: 4>}}
  %p = "tile.make_partition"(%v) : (!tile.view<f32, array<i32: 4>>) -> !tile.partition<f32, array<i64: 128>>
  return
}
