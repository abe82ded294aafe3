// expect: 4:13: a range pattern with an open end is not supported in device
#[kernel]
 fn scale<T: Copy + Mul<Output = T>>(x: [T], factor: T,  out: DisjointSlice<T>) {
    if let (o..) = () {
    }
}
