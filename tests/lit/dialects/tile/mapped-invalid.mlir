// RUN: %oxide-opt %s --split-input-file --verify-diagnostics

func.func @index_not_minted(%z: !tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, %i: i32, %j: i32) {
  %c = arith.constant dense<1.0> : tensor<16x16xf32>
  // expected-error@+1 {{tile index 0 is not minted by tile.mapped_index {axis = 0} of this mapped partition}}
  "tile.mapped_store"(%z, %c, %i, %j) : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, tensor<16x16xf32>, i32, i32) -> ()
  return
}

// -----

func.func @indices_swapped(%z: !tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, %item: i32, %t: i32) {
  %i = "tile.mapped_index"(%z, %item, %t) {axis = 0} : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, i32, i32) -> i32
  %j = "tile.mapped_index"(%z, %item, %t) {axis = 1} : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, i32, i32) -> i32
  %c = arith.constant dense<1.0> : tensor<16x16xf32>
  // expected-error@+1 {{tile index 0 is not minted by tile.mapped_index {axis = 0}}}
  "tile.mapped_store"(%z, %c, %j, %i) : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, tensor<16x16xf32>, i32, i32) -> ()
  return
}

// -----

func.func @index_of_another_partition(%z: !tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, %y: !tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, %item: i32, %t: i32) {
  %i = "tile.mapped_index"(%y, %item, %t) {axis = 0} : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, i32, i32) -> i32
  %j = "tile.mapped_index"(%z, %item, %t) {axis = 1} : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, i32, i32) -> i32
  %c = arith.constant dense<1.0> : tensor<16x16xf32>
  // expected-error@+1 {{of this mapped partition: a block stores only at the indices of its own work items}}
  "tile.mapped_store"(%z, %c, %i, %j) : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, tensor<16x16xf32>, i32, i32) -> ()
  return
}

// -----

func.func @wrong_tile_shape(%z: !tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, %item: i32, %t: i32) {
  %i = "tile.mapped_index"(%z, %item, %t) {axis = 0} : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, i32, i32) -> i32
  %j = "tile.mapped_index"(%z, %item, %t) {axis = 1} : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, i32, i32) -> i32
  %c = arith.constant dense<1.0> : tensor<16x32xf32>
  // expected-error@+1 {{the stored tile has shape [16, 32], but the tile shape here is [16, 16]}}
  "tile.mapped_store"(%z, %c, %i, %j) : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, tensor<16x32xf32>, i32, i32) -> ()
  return
}

// -----

func.func @map_streams_nothing(%z: !tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 0, 0>>) {
  // expected-error@+1 {{the map [0, 0] streams no axis}}
  %w = "tile.mapped_work"(%z) : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 0, 0>>) -> i32
  return
}

// -----

func.func @map_rank(%z: !tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4>>) {
  // expected-error@+1 {{the map [4] needs one entry per axis of the tile shape [16, 16]}}
  %w = "tile.mapped_work"(%z) : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4>>) -> i32
  return
}

// -----

func.func @axis_out_of_range(%z: !tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, %item: i32, %t: i32) {
  // expected-error@+1 {{axis 2 is out of range for a rank-2 mapped partition}}
  %i = "tile.mapped_index"(%z, %item, %t) {axis = 2} : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, i32, i32) -> i32
  return
}
