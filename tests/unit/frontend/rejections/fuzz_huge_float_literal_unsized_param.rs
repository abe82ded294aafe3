// expect: 3:17: an unsized slice `[T]` must be behind a reference: `&[T]`
#[kernel]
 fn warp_sum(x: [f32],  out: DisjointSlice< [f32] >) {
      v = if   () { [] } else { 999999999999999999999999999999999999999999999999999999999999f32 };
    if  () = () {
        if  () = () {
        }
    }
}
