// SmResources: CTA occupancy limits, each resource limiting in turn. Fermi limits: 48 warps,
// 1536 threads, 8 CTAs, 32768 registers, 49152 B shared memory.
#include <gtest/gtest.h>

#include <stdexcept>

#include "modules/SmResources.hpp"

namespace sm_resources_test {

using namespace gpusim;

namespace {
constexpr SmLimits kFermi{48, 1536, 8, 32768, 49152};

KernelInfo kernel(unsigned threads, unsigned regs, unsigned smem = 0) {
    KernelInfo k;
    k.name = "k";
    k.grid = {100, 1, 1};
    k.block = {threads, 1, 1};
    k.regsPerThread = regs;
    k.smemPerCta = smem;
    return k;
}

// Places CTAs until one does not fit; returns how many fit.
unsigned fill(SmResources& r, const KernelInfo& k) {
    unsigned n = 0;
    while (r.fits(k)) {
        r.allocate(k);
        ++n;
    }
    return n;
}
} // namespace

TEST(SmResources, LimitedByThreads) {
    // 256 threads x 8 regs: threads 1536/256 = 6; regs 32768/2048 = 16; CTAs 8.
    // With 48 warp slots the warp limit (48/8 = 6) coincides with the thread limit (1536 = 48 x 32),
    // and whyNot() checks warp slots first; give 64 warp slots to isolate the thread limit.
    SmResources r({64, 1536, 8, 32768, 49152});
    const auto k = kernel(256, 8);
    EXPECT_EQ(r.maxResident(k), 6u);
    EXPECT_EQ(fill(r, k), 6u);
    EXPECT_EQ(r.whyNot(k), "threads");
    EXPECT_EQ(r.ctasResident(), 6u);
}

TEST(SmResources, FermiLimitsWarpAndThreadLimitCoincide) {
    SmResources r(kFermi);
    const auto k = kernel(256, 8);
    EXPECT_EQ(r.maxResident(k), 6u);
    EXPECT_EQ(fill(r, k), 6u);
    EXPECT_EQ(r.whyNot(k), "warp slots");  // 6 x 8 = 48 warps = 1536 threads: both exhausted
}

TEST(SmResources, LimitedByRegisters) {
    // 256 threads x 32 regs = 8192 per CTA; 32768 / 8192 = 4 (threads would allow 6).
    SmResources r(kFermi);
    const auto k = kernel(256, 32);
    EXPECT_EQ(r.maxResident(k), 4u);
    EXPECT_EQ(fill(r, k), 4u);
    EXPECT_EQ(r.whyNot(k), "registers");
}

TEST(SmResources, LimitedBySharedMemory) {
    // 20000 B per CTA: 49152 / 20000 = 2 (third needs 60000 > 49152).
    SmResources r(kFermi);
    const auto k = kernel(64, 8, 20000);
    EXPECT_EQ(r.maxResident(k), 2u);
    EXPECT_EQ(fill(r, k), 2u);
    EXPECT_EQ(r.whyNot(k), "shared memory");
}

TEST(SmResources, LimitedByCtaSlots) {
    // 32 threads: 1 warp; warps would allow 48, threads 48, regs (x16) 64; CTA limit 8.
    SmResources r(kFermi);
    const auto k = kernel(32, 16);
    EXPECT_EQ(r.maxResident(k), 8u);
    EXPECT_EQ(fill(r, k), 8u);
    EXPECT_EQ(r.whyNot(k), "CTA slots");
}

TEST(SmResources, LimitedByWarpSlots) {
    // Threads limit above 48 x 32 so only warps bind: 512 threads = 16 warps; 48 / 16 = 3.
    SmResources r({48, 4096, 8, 1 << 20, 49152});
    const auto k = kernel(512, 1);
    EXPECT_EQ(r.maxResident(k), 3u);
    EXPECT_EQ(fill(r, k), 3u);
    EXPECT_EQ(r.whyNot(k), "warp slots");
}

TEST(SmResources, PartialWarpPadsToWholeWarp) {
    // 33 threads -> 2 warps -> 64 threads. x 16 regs = 1024 registers per CTA (not 33 x 16 = 528).
    // With 2048 registers: 2 CTAs padded (unpadded it would be 3).
    SmResources r({48, 1536, 8, 2048, 49152});
    const auto k = kernel(33, 16);
    EXPECT_EQ(k.warpsPerCta(), 2u);
    EXPECT_EQ(r.maxResident(k), 2u);
    EXPECT_EQ(fill(r, k), 2u);
    EXPECT_EQ(r.whyNot(k), "registers");
    // Threads are padded too: 24 CTAs of 33 threads fill 1536 padded threads (64 each)
    SmResources t({64, 1536, 64, 1 << 20, 49152});
    EXPECT_EQ(t.maxResident(k), 24u);
    EXPECT_EQ(fill(t, k), 24u);
    EXPECT_EQ(t.whyNot(k), "threads");
}

TEST(SmResources, ReleaseFreesResourcesAndLowestSlotIsReused) {
    SmResources r(kFermi);
    const auto k = kernel(256, 32);  // 4 fit (registers)
    EXPECT_EQ(r.allocate(k), 0u);
    EXPECT_EQ(r.allocate(k), 1u);
    EXPECT_EQ(r.allocate(k), 2u);
    EXPECT_EQ(r.allocate(k), 3u);
    EXPECT_FALSE(r.fits(k));
    r.release(1, k);
    EXPECT_TRUE(r.fits(k));
    EXPECT_EQ(r.whyNot(k), "");
    EXPECT_EQ(r.allocate(k), 1u);
    EXPECT_THROW(r.allocate(k), std::logic_error);
    EXPECT_THROW(r.release(7, k), std::logic_error);  // slot 7 not in use
}

TEST(SmResources, CtaThatNeverFits) {
    SmResources r(kFermi);
    EXPECT_EQ(r.maxResident(kernel(2048, 1)), 0u);      // 64 warps > 48
    EXPECT_EQ(r.maxResident(kernel(256, 200)), 0u);     // 51200 registers > 32768
    EXPECT_EQ(r.maxResident(kernel(32, 1, 50000)), 0u);  // smem
}

} // namespace sm_resources_test
