#include "platforms/GpuParams.hpp"

#include "common/Config.hpp"

namespace gpusim {

void GpuParams::declare(ParamSchema& s) {
    s.addInt("gpu.num_sms", 15, "SMs", 1, 256, "Streaming multiprocessors")
        .addEnum("gpu.kernel_concurrency", "serial", {"serial", "spatial", "mixed"},
                 "Kernels of different CUDA streams (a trace's -cuda stream id): serial runs every kernel "
                 "alone in launch order (Accel-Sim without -gpgpu_concurrent_kernel_sm); spatial runs "
                 "them at once on equal contiguous shares of the SMs; mixed runs them at once with CTAs "
                 "of several kernels on one SM as its resources allow. One stream's kernels always run "
                 "in order (docs/architecture.md, CTA dispatcher)")
        .addInt("gpu.max_concurrent_kernels", 16, "kernels", 1, 1024,
                "Kernels running at once with gpu.kernel_concurrency spatial or mixed (spatial: also at "
                "most one per SM). Fermi: 16 (CUDA C Programming Guide, compute capability 2.x)")
        .addDouble("sm.clock_mhz", 1400, "MHz", 1, 10000, "Core clock (the unit of reported cycles)")
        .addInt("sim.watchdog_cycles", 200000, "cycles", 100, int64_t(1) << 40,
                "End the run with an error if no SM issues or receives anything for this many core cycles");
}

GpuParams GpuParams::from(const Config& c) {
    GpuParams p;
    p.numSms = static_cast<unsigned>(c.getInt("gpu.num_sms"));
    p.coreClockMhz = c.getDouble("sm.clock_mhz");
    p.watchdogCycles = static_cast<uint64_t>(c.getInt("sim.watchdog_cycles"));
    p.dispatch.concurrency = kernelConcurrencyFrom(c.getString("gpu.kernel_concurrency"));
    p.dispatch.maxConcurrentKernels = static_cast<unsigned>(c.getInt("gpu.max_concurrent_kernels"));
    p.sm = SmConfig::from(c);
    p.noc = NocParams::from(c);
    p.map = AddressMapParams::from(c);
    p.l2 = L2SliceParams::from(c);
    p.memory = PartitionMemoryParams::from(c);
    p.tlm = TlmLinkParams::from(c);
    return p;
}

} // namespace gpusim
