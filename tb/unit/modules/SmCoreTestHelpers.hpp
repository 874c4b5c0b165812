#pragma once
// What the SmCore tests share (sm_core_test.cpp, sm_core_atomic_test.cpp, sm_core_sleep_test.cpp):
// the SM configuration they start from, a scripted kernel, the end-of-run checks, registers and a
// line address.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "tb/unit/modules/ModuleTestHelpers.hpp"
#include "tb/unit/modules/SmTestBench.hpp"

namespace sm_core_test {

using namespace gpusim;
using namespace gpusim::test;
using U64 = std::vector<uint64_t>;
using CycleWarp = std::pair<uint64_t, unsigned>;

inline SmConfig cfgWith(unsigned schedulers) {
    SmConfig c;  // defaults: ALU 4/2 x2, L1D hit 20, 32 sets fermi-hash, on-miss
    c.schedulers = schedulers;
    return c;
}

inline std::unique_ptr<Kernel> kernelOf(unsigned ctas, unsigned threads, ScriptKernel::Gen gen,
                                 const std::string& name = "k") {
    return std::make_unique<ScriptKernel>(name, ctas, threads, std::move(gen));
}

inline void expectCleanEnd(SmBench& b, uint64_t endCycle) {
    EXPECT_TRUE(b.disp.done());
    EXPECT_TRUE(b.stop.stopped);
    EXPECT_EQ(b.stop.stopCycle, endCycle);
    EXPECT_TRUE(b.sm.quiescent()) << b.sm.dumpState();
    EXPECT_EQ(b.pool.outstanding(), 0u);
}

constexpr uint16_t R0 = 0, R1 = 1, R2 = 2, R3 = 3, R4 = 4, R5 = 5;
constexpr uint64_t kLine = 0x40000;  // 128-aligned


} // namespace sm_core_test
