// RMSNorm forward: y = x / sqrt(mean(x^2) + eps) * w over each row. Each tile block owns BM rows; N is the
// tile width (a power of two at least the row length); padding columns read 0 and add nothing to the sum.
#[cutile::module]
pub mod rmsnorm {
    use cutile::core::*;

    #[cutile::entry()]
    pub fn rmsnorm<const BM: i32, const N: i32>(
        y: &mut Tensor<f32, {[BM, N]}>,
        x: &Tensor<f32, {[-1, -1]}>,
        w: &Tensor<f32, {[-1]}>,
        eps: f32,
    ) {
        let n = x.shape()[1] as f32;
        let tx: Tile<f32, {[BM, N]}> = load_tile_like_2d(x, y);
        let mean_square = reduce_sum(tx * tx, 1) / broadcast_scalar(n, const_shape![BM]);
        let rstd = rsqrt(mean_square + broadcast_scalar(eps, const_shape![BM]));
        let wt: Tile<f32, {[N]}> = w.partition(const_shape![N]).load([0i32]);
        let scale = rstd.reshape(const_shape![BM, 1]).broadcast(const_shape![BM, N]);
        y.store(tx * scale * wt.reshape(const_shape![1, N]).broadcast(const_shape![BM, N]));
    }
}
