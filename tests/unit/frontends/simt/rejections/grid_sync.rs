// expect: 4:5: `grid::sync()` in kernel `k` needs a cooperative launch (every block resident at once, or the barrier never completes); add #[cooperative_launch] to kernel `k`
#[kernel]
pub fn k(n: u32) {
    grid::sync();
}
