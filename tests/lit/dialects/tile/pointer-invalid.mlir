// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @load_wrong_element(%p: !tile.ptr<f32>, %off: tensor<128xi64>, %m: tensor<128xi1>, %pad: i32) {
  // expected-error@+1 {{the loaded tile has elements of type i32, but the pointer is a *mut f32}}
  %t = "tile.load_ptr"(%p, %off, %m, %pad) : (!tile.ptr<f32>, tensor<128xi64>, tensor<128xi1>, i32) -> tensor<128xi32>
  return
}

// -----

func.func @load_wrong_padding(%p: !tile.ptr<f32>, %off: tensor<128xi64>, %m: tensor<128xi1>, %pad: f64) {
  // expected-error@+1 {{the padding is a f64, the loaded elements f32}}
  %t = "tile.load_ptr"(%p, %off, %m, %pad) : (!tile.ptr<f32>, tensor<128xi64>, tensor<128xi1>, f64) -> tensor<128xf32>
  return
}

// -----

func.func @store_mask_shape(%p: !tile.ptr<f32>, %off: tensor<128xi64>, %v: tensor<128xf32>, %m: tensor<64xi1>) {
  // expected-error@+1 {{the mask tile has shape [64], but the stored tile has shape [128]}}
  "tile.store_ptr"(%p, %off, %v, %m) : (!tile.ptr<f32>, tensor<128xi64>, tensor<128xf32>, tensor<64xi1>) -> ()
  return
}

// -----

func.func @store_float_offsets(%p: !tile.ptr<f32>, %off: tensor<128xf32>, %v: tensor<128xf32>, %m: tensor<128xi1>) {
  // expected-error@+1 {{pointer offsets must be an i32 or i64 tile}}
  "tile.store_ptr"(%p, %off, %v, %m) : (!tile.ptr<f32>, tensor<128xf32>, tensor<128xf32>, tensor<128xi1>) -> ()
  return
}
