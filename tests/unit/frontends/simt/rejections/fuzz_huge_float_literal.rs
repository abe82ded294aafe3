// expect: 4:33: literal out of range for `f32`: it is infinite at that precision
#[kernel]
 fn warp_sum(x: [f32],  out: DisjointSlice< [f32] >) {
      v = if   () { [] } else { 999999999999999999999999999999999999999999999999999999999999f32 };
    if  () = () {
        if  () = () {
        }
    }
}
