// nvcc peer of benchmarks/suite/kernels/sgemm.rs: the same algorithm, grid and block, written as a CUDA C++ programmer would
// (no bounds checks beyond the algorithm's own guards). No headers, so NVRTC compiles it as it is.

#define STILE 16
extern "C" __global__ void sgemm(const float* __restrict__ a, const float* __restrict__ b, size_t n,
                                 float* __restrict__ c) {
    __shared__ float as[STILE * STILE], bs[STILE * STILE];
    size_t tx = threadIdx.x, ty = threadIdx.y;
    size_t row = (size_t)blockIdx.y * STILE + ty, col = (size_t)blockIdx.x * STILE + tx;
    float acc = 0.0f;
    for (size_t t = 0; t < n; t += STILE) {
        as[ty * STILE + tx] = (row < n && t + tx < n) ? a[row * n + t + tx] : 0.0f;
        bs[ty * STILE + tx] = (t + ty < n && col < n) ? b[(t + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < STILE; ++p) acc += as[ty * STILE + p] * bs[p * STILE + tx];
        __syncthreads();
    }
    if (row < n && col < n) c[row * n + col] = acc;
}
