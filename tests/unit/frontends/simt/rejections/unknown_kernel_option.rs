// expect: 2:1: unknown #[kernel] option `fast_math` (known: unchecked_indexing, launch_context = name
#[kernel(fast_math)]
pub fn k(x: f32) {
}
