// expect: 5:13: `add` takes 2 argument(s) but 3 were supplied
fn add(a: f32, b: f32) -> f32 { a + b }
#[kernel]
pub fn k(x: f32) {
    let y = add(x, x, x);
}
