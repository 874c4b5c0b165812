#pragma once
// Launches a workload's kernels one after another and places their CTAs on SMs: each core cycle,
// SMs are visited round-robin in the order given to the constructor (starting after the last one
// served) and each SM with room for a CTA of the current kernel receives at most one. The GPU
// gives them cluster-interleaved (platforms/Gpu.cpp, dispatchOrder). A kernel ends when all its
// CTAs have finished and every SM has drained its memory traffic; the next kernel starts on the
// following cycle.
// Concurrent kernels are not modelled.
#include <cstdint>
#include <string>
#include <vector>

#include "common/ClockDomain.hpp"
#include "common/Stats.hpp"
#include "modules/SmCore.hpp"
#include "workloads/Workload.hpp"

namespace gpusim {

class CtaDispatcher : public Tickable {
public:
    CtaDispatcher(std::vector<SmCore*> sms, const Workload& workload, StatRegistry& stats);
    // Throws InputError if a kernel's CTA cannot fit on an empty SM (impossible geometry).
    void checkFits() const;

    void tick(uint64_t cycle) override;
    bool busy() const override { return !done_; }
    bool done() const { return done_; }
    size_t kernelIndex() const { return kernel_; }
    uint64_t ctasLaunched() const { return launched_; }
    std::string dumpState() const;

    struct KernelRecord {
        std::string name;
        uint64_t startCycle, endCycle, ctas;
    };
    const std::vector<KernelRecord>& records() const { return records_; }

private:
    void startKernel(uint64_t cycle);

    std::vector<SmCore*> sms_;
    const Workload& workload_;
    StatRegistry& stats_;
    size_t kernel_ = 0;
    bool started_ = false;
    bool done_ = false;
    uint64_t nextCta_ = 0;
    uint64_t launched_ = 0;
    unsigned rr_ = 0;
    std::vector<KernelRecord> records_;
    // Per SM: SmCore::resourceChanges() when it last refused this kernel's CTA (~0: not refused).
    // Until a CTA starts or ends there, the answer stays no, so the SM is not asked every cycle.
    std::vector<uint64_t> refusedAt_;
};

} // namespace gpusim
