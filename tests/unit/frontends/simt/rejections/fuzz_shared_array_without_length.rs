// expect: 4:25: `SharedArray` expects at least 2 generic arguments, got 1
#[kernel]
  fn block_sum(x: &[f32], out: & [f32]) {
    static mut PARTIAL: SharedArray<f32 > = SharedArrayUNINIT;
}
