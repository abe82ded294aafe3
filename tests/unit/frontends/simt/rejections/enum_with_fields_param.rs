// expect: 5:10: a kernel parameter of type `Shape` (an enum with fields) is not supported
#[derive(Clone, Copy)]
enum Shape { Circle(f32), Square(f32) }
#[kernel]
pub fn k(s: Shape) {
}
