// GEMM with the input and output element types as parameters: z = convert(x @ y), f32 accumulate. Instances
// cover bf16 or f16 inputs with bf16, f16 or f32 outputs, and tf32 (f32 data multiplied at tf32 precision).
// The conversion of the accumulator after the K loop is an ordinary tile conversion; the compiler keeps the
// sm_90a wgmma path for the loop (docs/tile-hopper.md, "Precisions").
#[cutile::module]
pub mod gemm_precisions {
    use cutile::core::*;

    #[cutile::entry(optimization_hints = (sm_90 = (num_worker_warps_per_cta = 4)))]
    pub fn gemm<I: ElementType, O: ElementType, const BM: i32, const BN: i32, const BK: i32>(
        z: &mut Tensor<O, {[BM, BN]}>,
        x: &Tensor<I, {[-1, -1]}>,
        y: &Tensor<I, {[-1, -1]}>,
    ) {
        let (bm, bn, _) = get_tile_block_id();
        let px = x.partition(const_shape![BM, BK]);
        let py = y.partition(const_shape![BK, BN]);
        let mut acc = constant(0.0f32, const_shape![BM, BN]);
        for k in 0..num_tiles(&px, 1) {
            let a = px.load([bm, k]);
            let b = py.load([k, bn]);
            acc = mma(a, b, acc);
        }
        z.store(convert_tile::<O>(acc));
    }
}
