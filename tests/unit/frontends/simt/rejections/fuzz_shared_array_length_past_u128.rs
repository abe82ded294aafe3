// expect: 4:43: integer literal is too large: the largest integer literal is
#[kernel]
  fn block_sum(x: &[f32], out: & [f32]) {
    static mut PARTIAL: SharedArray<bool, 340282366920938463463374607431768211456> = SharedArrayUNINIT;
    while stride > 0 {
    }
}
