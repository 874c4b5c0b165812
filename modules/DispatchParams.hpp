#pragma once
// The CTA dispatcher's parameters (gpu.kernel_concurrency, gpu.max_concurrent_kernels), apart
// from CtaDispatcher.hpp so GpuParams can hold them without SystemC. Meaning: CtaDispatcher.hpp.
#include <cstdint>
#include <string>

namespace gpusim {

enum class KernelConcurrency : uint8_t { Serial, Spatial, Mixed };
const char* toString(KernelConcurrency c);
// "serial", "spatial" or "mixed"; anything else throws InputError naming the key and the choices.
KernelConcurrency kernelConcurrencyFrom(const std::string& s);

struct DispatchParams {
    KernelConcurrency concurrency = KernelConcurrency::Serial;  // gpu.kernel_concurrency
    unsigned maxConcurrentKernels = 16;                          // gpu.max_concurrent_kernels
};

} // namespace gpusim
