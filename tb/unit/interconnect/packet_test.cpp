#include <gtest/gtest.h>

#include "common/Config.hpp"
#include "interconnect/NocParams.hpp"
#include "interconnect/Packet.hpp"

using namespace gpusim;

namespace {
GpuExtension ext(AccessKind k, uint32_t bytes) {
    GpuExtension e;
    e.kind = k;
    e.bytes = bytes;
    return e;
}
tlm::tlm_generic_payload withLength(unsigned len) {
    tlm::tlm_generic_payload p;
    p.set_data_length(len);
    return p;
}
} // namespace

TEST(FlitRules, RequestsAreHeaderPlusCarriedBytes) {
    const FlitRules r{32, 1};
    EXPECT_EQ(r.requestFlits(ext(AccessKind::Read, 128)), 1u);  // a read only asks
    EXPECT_EQ(r.requestFlits(ext(AccessKind::Write, 128)), 5u);
    EXPECT_EQ(r.requestFlits(ext(AccessKind::Write, 4)), 2u);
    EXPECT_EQ(r.requestFlits(ext(AccessKind::Write, 33)), 3u);
    EXPECT_EQ(r.requestFlits(ext(AccessKind::Write, 0)), 1u);
    EXPECT_EQ(r.requestFlits(ext(AccessKind::Writeback, 128)), 5u);
    const FlitRules wide{16, 2};
    EXPECT_EQ(wide.requestFlits(ext(AccessKind::Read, 128)), 2u);
    EXPECT_EQ(wide.requestFlits(ext(AccessKind::Write, 128)), 9u);
}

TEST(FlitRules, RepliesCarryReadDataAndAcknowledgeWrites) {
    const FlitRules r{32, 1};
    EXPECT_EQ(r.replyFlits(withLength(128), ext(AccessKind::Read, 4)), 5u);  // the line, not bytes
    EXPECT_EQ(r.replyFlits(withLength(32), ext(AccessKind::Read, 4)), 2u);
    EXPECT_EQ(r.replyFlits(withLength(0), ext(AccessKind::Read, 0)), 1u);
    EXPECT_EQ(r.replyFlits(withLength(128), ext(AccessKind::Write, 128)), 1u);
}

TEST(NocParams, DefaultsAndRanges) {
    ParamSchema s;
    NocParams::declare(s);
    Config c(s);
    const NocParams p = NocParams::fromConfig(c);
    EXPECT_DOUBLE_EQ(p.clockMhz, 1400);
    EXPECT_EQ(p.flitBytes, 32u);
    EXPECT_EQ(p.inputQueuePackets, 8u);
    EXPECT_EQ(p.outputQueuePackets, 8u);
    EXPECT_EQ(p.latencyCycles, 4u);
    EXPECT_EQ(p.readRequestFlits, 1u);
    EXPECT_EQ(p.period(), sc_core::sc_time(714, sc_core::SC_PS));
    for (const char* bad : {"noc.flit_bytes=0", "noc.input_queue_packets=0",
                            "noc.output_queue_packets=0", "noc.latency_cycles=0",
                            "noc.read_request_flits=0", "noc.clock_mhz=0"})
        EXPECT_THROW(c.setFromString(bad), InputError) << bad;
    for (const auto& [name, decl] : s.all()) {
        EXPECT_EQ(name.rfind("noc.", 0), 0u) << name;
        EXPECT_FALSE(decl.description.empty()) << name;
    }
}
