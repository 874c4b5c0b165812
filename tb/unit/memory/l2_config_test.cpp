// Parameter declarations and geometry checks of the memory folder (no simulation).
#include <gtest/gtest.h>

#include "MemoryTestBench.hpp"
#include "memory/PartitionMemoryParams.hpp"

namespace l2_config_test {

using namespace gpusim;
using gpusim::test::MemoryConfig;

namespace {
std::string validationError(MemoryConfig& m) {
    try {
        m.cfg->validate();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}
} // namespace

TEST(MemoryConfig, DefaultsAreTheFermiBaselineAndValid) {
    MemoryConfig m;
    const Config& c = *m.cfg;
    EXPECT_EQ(c.getInt("l2.size_bytes"), 131072);
    EXPECT_EQ(c.getInt("l2.line_bytes"), 128);
    EXPECT_EQ(c.getInt("l2.ways"), 8);
    EXPECT_EQ(c.getInt("l2.mshr_entries"), 32);
    EXPECT_EQ(c.getInt("l2.mshr_max_merge"), 8);
    EXPECT_EQ(c.getInt("l2.tag_latency_cycles"), 60);
    EXPECT_EQ(c.getInt("l2.input_queue"), 8);
    EXPECT_EQ(c.getInt("l2.response_queue"), 8);
    EXPECT_EQ(c.getInt("l2.miss_queue"), 8);
    EXPECT_DOUBLE_EQ(c.getDouble("l2.clock_mhz"), 700.0);
    EXPECT_EQ(c.getInt("l2.atomic_cycles"), 9);
    EXPECT_DOUBLE_EQ(c.getDouble("dram.clock_mhz"), 924.0);
    EXPECT_EQ(c.getInt("mem.ideal_latency_cycles"), 100);
    EXPECT_EQ(validationError(m), "");
}

// A unit test builds a parameter struct without a Config, relying on its member defaults: they
// must stay the schema's defaults.
TEST(MemoryConfig, ParamStructDefaultsAreTheSchemaDefaults) {
    MemoryConfig m;
    EXPECT_EQ(AddressMapParams::from(*m.cfg), AddressMapParams{});
    EXPECT_EQ(L2SliceParams::from(*m.cfg), L2SliceParams{});
    EXPECT_EQ(IdealMemoryParams::from(*m.cfg), IdealMemoryParams{});
    const PartitionMemoryParams p = PartitionMemoryParams::from(*m.cfg), d;
    EXPECT_EQ(p.model, d.model);
    EXPECT_DOUBLE_EQ(p.clockMhz, d.clockMhz);
    EXPECT_EQ(p.dram.queueSize, d.dram.queueSize);
    EXPECT_EQ(p.dram.scheduler, d.dram.scheduler);
    EXPECT_EQ(p.dram.prefetch, d.dram.prefetch);
    EXPECT_EQ(p.dram.owl, d.dram.owl);
    EXPECT_EQ(p.dram.timing.tRTW, d.dram.timing.tRTW);
    EXPECT_EQ(p.dram.timing.burstBytes(), d.dram.timing.burstBytes());
}

TEST(MemoryConfig, LineMustBeAPowerOfTwo) {
    MemoryConfig m;
    m.set("l2.line_bytes", 96).set("l2.size_bytes", 96 * 8 * 4);
    EXPECT_EQ(validationError(m), "test: l2.line_bytes: 96 is not a power of two");
}

TEST(MemoryConfig, SizeMustBeDivisibleByLineTimesWays) {
    MemoryConfig m;
    m.set("l2.ways", 6);  // 131072 / (128 * 6) is not whole; the error names size_bytes, kept at its default
    EXPECT_EQ(validationError(m), "default: l2.size_bytes: 131072 is not divisible by line x ways (768)");
}

TEST(MemoryConfig, SectorsAreMultiplesOfThe32ByteChunkDividingTheLine) {
    MemoryConfig m;
    m.set("l2.sector_bytes", 48);
    EXPECT_EQ(validationError(m), "test: l2.sector_bytes: 48 must be 0 or a multiple of 32 bytes (the stores' chunk) "
                                  "that divides l2.line_bytes (128)");
    MemoryConfig big;
    big.set("l2.sector_bytes", 96);
    EXPECT_NE(validationError(big).find("96 must be 0 or a multiple of 32"), std::string::npos);
    MemoryConfig ok;
    ok.set("l2.sector_bytes", 32);
    EXPECT_EQ(validationError(ok), "");
}

TEST(MemoryConfig, SetsMustBeAPowerOfTwo) {
    MemoryConfig m;
    m.set("l2.size_bytes", 128 * 8 * 3);  // 3 sets
    EXPECT_EQ(validationError(m), "test: l2.size_bytes: 3072 gives 3 sets, not a power of two");
}

TEST(MemoryConfig, ALineMustNotStraddlePartitions) {
    MemoryConfig m;
    m.set("addrmap.interleave_bytes", 64);
    EXPECT_EQ(validationError(m), "test: addrmap.interleave_bytes: must be a multiple of l2.line_bytes (128)");
}

TEST(MemoryConfig, RangesAreEnforcedOnSet) {
    MemoryConfig m;
    EXPECT_THROW(m.set("l2.tag_latency_cycles", 0), InputError);
    EXPECT_THROW(m.set("l2.mshr_entries", 0), InputError);
    EXPECT_THROW(m.set("mem.ideal_latency_cycles", 0), InputError);
    // An atomic occupies the RMW unit at least a cycle; the message names the key.
    try {
        m.set("l2.atomic_cycles", 0);
        ADD_FAILURE() << "l2.atomic_cycles = 0 accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("l2.atomic_cycles"), std::string::npos) << e.what();
    }
}

TEST(MemoryConfig, OddButValidGeometry) {
    MemoryConfig m;
    m.set("l2.ways", 3).set("l2.size_bytes", 128 * 3 * 16);  // 3-way, 16 sets
    EXPECT_EQ(validationError(m), "");
}

} // namespace l2_config_test
