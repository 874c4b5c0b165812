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
unsigned readReplyFlits(const FlitRules& r, unsigned dataLength) {
    tlm::tlm_generic_payload p;
    p.set_data_length(dataLength);
    return r.replyFlits(p, ext(AccessKind::Read, 4));
}
unsigned writeAckFlits(const FlitRules& r) {
    tlm::tlm_generic_payload p;
    p.set_data_length(128);
    return r.replyFlits(p, ext(AccessKind::Write, 128));
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
    EXPECT_EQ(readReplyFlits(r, 128), 5u);  // the payload's data, not ext.bytes (4)
    EXPECT_EQ(readReplyFlits(r, 32), 2u);
    EXPECT_EQ(readReplyFlits(r, 0), 1u);
    EXPECT_EQ(writeAckFlits(r), 1u);
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
