// nvcc peer of examples/rust/transpose.rs: the same algorithm, grid and block, written as a CUDA C++ programmer would
// (no bounds checks beyond the algorithm's own guards). No headers, so NVRTC compiles it as it is.

#define TILE 32
extern "C" __global__ void transpose(const float* __restrict__ in, float* __restrict__ out, size_t rows,
                                     size_t cols) {
    __shared__ float tile[TILE * (TILE + 1)];
    size_t tx = threadIdx.x, ty = threadIdx.y;
    size_t x = (size_t)blockIdx.x * TILE + tx, y = (size_t)blockIdx.y * TILE + ty;
    for (size_t j = 0; j < TILE; j += 8)
        if (x < cols && y + j < rows) tile[(ty + j) * (TILE + 1) + tx] = in[(y + j) * cols + x];
    __syncthreads();
    size_t x2 = (size_t)blockIdx.y * TILE + tx, y2 = (size_t)blockIdx.x * TILE + ty;
    for (size_t j = 0; j < TILE; j += 8)
        if (x2 < rows && y2 + j < cols) out[(y2 + j) * rows + x2] = tile[tx * (TILE + 1) + ty + j];
}
