// nvcc peer of benchmarks/suite/kernels/transpose64.rs: the same algorithm, grid and block, written as a CUDA
// C++ programmer would (no bounds checks beyond the algorithm's own guards). No headers, so NVRTC compiles it.

#define TILE64 64
extern "C" __global__ void transpose64(const float* __restrict__ in, float* __restrict__ out, size_t rows,
                                       size_t cols) {
    __shared__ float tile[TILE64 * (TILE64 + 1)];
    size_t tx = threadIdx.x, ty = threadIdx.y;
    size_t x0 = (size_t)blockIdx.x * TILE64, y0 = (size_t)blockIdx.y * TILE64;
    for (size_t j = 0; j < TILE64; j += 8)
        for (size_t i = 0; i < TILE64; i += 32) {
            size_t x = x0 + tx + i, y = y0 + ty + j;
            if (x < cols && y < rows) tile[(ty + j) * (TILE64 + 1) + tx + i] = in[y * cols + x];
        }
    __syncthreads();
    for (size_t j = 0; j < TILE64; j += 8)
        for (size_t i = 0; i < TILE64; i += 32) {
            size_t x = y0 + tx + i, y = x0 + ty + j;
            if (x < rows && y < cols) out[y * rows + x] = tile[(tx + i) * (TILE64 + 1) + ty + j];
        }
}
