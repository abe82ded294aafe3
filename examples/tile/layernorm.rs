// LayerNorm forward: y = (x - mean) / sqrt(var + eps) * w + b over each row. Each tile block owns BM rows;
// N is the tile width (a power of two at least the row length n); padding columns read 0 and are kept out
// of the variance.
#[cutile::module]
pub mod layernorm {
    use cutile::core::*;

    #[cutile::entry()]
    pub fn layernorm<const BM: i32, const N: i32>(
        y: &mut Tensor<f32, {[BM, N]}>,
        x: &Tensor<f32, {[-1, -1]}>,
        w: &Tensor<f32, {[-1]}>,
        b: &Tensor<f32, {[-1]}>,
        eps: f32,
    ) {
        let n = x.shape()[1];
        let tx: Tile<f32, {[BM, N]}> = load_tile_like_2d(x, y);
        let count = broadcast_scalar(n as f32, const_shape![BM]);

        let mean = reduce_sum(tx, 1) / count;
        let centered = tx - rows(mean);
        let cols = iota::<i32>(const_shape![N]).reshape(const_shape![1, N]).broadcast(const_shape![BM, N]);
        let inside = lt_tile(cols, broadcast_scalar(n, const_shape![BM, N]));
        let centered = select(inside, centered, constant(0.0f32, const_shape![BM, N]));

        let var = reduce_sum(centered * centered, 1) / count;
        let rstd = rsqrt(var + broadcast_scalar(eps, const_shape![BM]));
        let wt: Tile<f32, {[N]}> = w.load_tile(const_shape![N], [0i32]);
        let bt: Tile<f32, {[N]}> = b.load_tile(const_shape![N], [0i32]);
        y.store(centered * rows(rstd) * columns(wt) + columns(bt));
    }

    /// A per-row value [BM] spread over the columns: [BM, N].
    fn rows<const BM: i32, const N: i32>(v: Tile<f32, {[BM]}>) -> Tile<f32, {[BM, N]}> {
        v.reshape(const_shape![BM, 1]).broadcast(const_shape![BM, N])
    }

    /// A per-column value [N] spread over the rows: [BM, N].
    fn columns<const BM: i32, const N: i32>(v: Tile<f32, {[N]}>) -> Tile<f32, {[BM, N]}> {
        v.reshape(const_shape![1, N]).broadcast(const_shape![BM, N])
    }
}
