/* bench/cuda_probe.cu — the GPU's reference rates for scripts/gpu-check: the
 * device-to-device cudaMemcpy bandwidth (8 bytes per float32 element: one
 * read, one write, as gpu-check counts y.copy_(x)) and a direct cuBLAS GEMM
 * of two N x N matrices, float32 (cublasSgemm, default math mode: no TF32, as
 * PyTorch 1.13's default) and bfloat16 (cublasGemmEx with float accumulation,
 * PyTorch's call), filled with the constants the tsr workloads use (0.5, 0.25;
 * tensor-core power depends on the data). Best of REPS runs timed with CUDA
 * events. Prints "device NAME", "copy BYTES_PER_S", "gemm_float32 FLOPS",
 * "gemm_bfloat16 FLOPS"; a failure prints "error WHAT" and exits 1.
 * usage: cuda_probe COPY_ELEMENTS GEMM_N */
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("error %s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)
#define CB(x) do { cublasStatus_t s_ = (x); if (s_ != CUBLAS_STATUS_SUCCESS) { \
    printf("error %s: cuBLAS status %d\n", #x, (int)s_); exit(1); } } while (0)

enum { REPS = 10 };

/* the best time in seconds of REPS runs of f, after one warm-up run */
template <typename F> static double best_of(F f)
{
    cudaEvent_t t0, t1;
    CK(cudaEventCreate(&t0));
    CK(cudaEventCreate(&t1));
    f();
    CK(cudaDeviceSynchronize());
    float best = 1e30f;
    for (int r = 0; r < REPS; r++) {
        CK(cudaEventRecord(t0));
        f();
        CK(cudaEventRecord(t1));
        CK(cudaEventSynchronize(t1));
        float ms;
        CK(cudaEventElapsedTime(&ms, t0, t1));
        if (ms < best) best = ms;
    }
    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    return best * 1e-3;
}

/* a device buffer of n elements of T, every one set to v */
template <typename T> static T *filled(size_t n, T v)
{
    T *h = (T *)malloc(n * sizeof(T)), *d;
    if (!h) { printf("error out of host memory\n"); exit(1); }
    for (size_t i = 0; i < n; i++) h[i] = v;
    CK(cudaMalloc(&d, n * sizeof(T)));
    CK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
    free(h);
    return d;
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: cuda_probe COPY_ELEMENTS GEMM_N\n"); return 2; }
    size_t n = strtoull(argv[1], NULL, 10);
    int g = atoi(argv[2]);
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    printf("device %s (%d SMs, %.0f GiB)\n", prop.name, prop.multiProcessorCount, prop.totalGlobalMem / 1073741824.0);

    float *x = filled<float>(n, 1.5f), *y;
    CK(cudaMalloc(&y, n * sizeof(float)));
    double t = best_of([&] { CK(cudaMemcpyAsync(y, x, n * sizeof(float), cudaMemcpyDeviceToDevice)); });
    printf("copy %.6g\n", 8.0 * (double)n / t);
    CK(cudaFree(x));
    CK(cudaFree(y));

    cublasHandle_t h;
    CB(cublasCreate(&h));
    size_t gg = (size_t)g * g;
    double flops = 2.0 * g * g * (double)g;
    const float one = 1.0f, zero = 0.0f;

    float *a = filled<float>(gg, 0.5f), *b = filled<float>(gg, 0.25f), *c;
    CK(cudaMalloc(&c, gg * sizeof(float)));
    t = best_of([&] { CB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, g, g, g, &one, a, g, b, g, &zero, c, g)); });
    printf("gemm_float32 %.6g\n", flops / t);
    CK(cudaFree(a));
    CK(cudaFree(b));
    CK(cudaFree(c));

    __nv_bfloat16 *ab = filled<__nv_bfloat16>(gg, __float2bfloat16(0.5f));
    __nv_bfloat16 *bb = filled<__nv_bfloat16>(gg, __float2bfloat16(0.25f)), *cb;
    CK(cudaMalloc(&cb, gg * sizeof(__nv_bfloat16)));
    t = best_of([&] {
        CB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, g, g, g, &one, ab, CUDA_R_16BF, g, bb, CUDA_R_16BF, g,
                        &zero, cb, CUDA_R_16BF, g, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    });
    printf("gemm_bfloat16 %.6g\n", flops / t);
    cublasDestroy(h);
    return 0;
}
