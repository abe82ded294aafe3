// GEMM: z = x @ y with bf16 inputs and an f32 accumulator. Each tile block owns one BM x BN tile of z and
// walks the K dimension in BK-wide steps with `mma` (Tensor Cores); loads past the edges read 0.
#[cutile::module]
pub mod gemm {
    use cutile::core::*;

    #[cutile::entry(optimization_hints = (sm_90 = (num_worker_warps_per_cta = 4)))]
    pub fn gemm<const BM: i32, const BN: i32, const BK: i32>(
        z: &mut Tensor<f32, {[BM, BN]}>,
        x: &Tensor<bf16, {[-1, -1]}>,
        y: &Tensor<bf16, {[-1, -1]}>,
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
        z.store(acc);
    }
}
