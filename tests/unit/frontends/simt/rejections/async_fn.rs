// expect: 2:1: `async fn` is not supported in device code
async fn helper(a: f32) -> f32 { a }
#[kernel]
pub fn k(a: f32) {
    let b = helper(a);
}
