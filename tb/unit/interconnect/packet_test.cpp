#include <gtest/gtest.h>

#include "common/Config.hpp"
#include "interconnect/NocParams.hpp"
#include "interconnect/Packet.hpp"

namespace packet_test {

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

TEST(FlitRules, MessageSizesComeFromConfiguration) {
    FlitRules r{32, 2, 2, 3};  // 2-flit read requests, 2 header flits, 3-flit write acks
    EXPECT_EQ(r.requestFlits(ext(AccessKind::Read, 128)), 2u);
    EXPECT_EQ(r.requestFlits(ext(AccessKind::Write, 128)), 2u + 4u);
    EXPECT_EQ(readReplyFlits(r, 128), 6u);
    EXPECT_EQ(writeAckFlits(r), 3u);
    // The largest packet sizes the reassembly buffers: max(read request, header + data, ack).
    EXPECT_EQ(r.maxFlits(128), 6u);
    EXPECT_EQ(r.maxFlits(32), 3u);  // the ack (3) beats 2 + 1
    EXPECT_EQ((FlitRules{32, 1}.maxFlits(128)), 5u);
}

TEST(NocParams, DefaultsAndRanges) {
    ParamSchema s;
    NocParams::declare(s);
    Config c(s);
    const NocParams p = NocParams::from(c);
    EXPECT_EQ(p.topology, TopologyKind::Crossbar);
    EXPECT_DOUBLE_EQ(p.clockMhz, 1400);
    EXPECT_EQ(p.flitBytes, 32u);
    EXPECT_EQ(p.headerFlits, 1u);
    EXPECT_EQ(p.readRequestFlits, 1u);
    EXPECT_EQ(p.writeAckFlits, 1u);
    EXPECT_EQ(p.inputQueuePackets, 8u);
    EXPECT_EQ(p.outputQueuePackets, 2u);
    EXPECT_EQ(p.smsPerCluster, 1u);
    EXPECT_EQ(p.routerCycles, 3u);
    EXPECT_EQ(p.linkCycles, 1u);
    EXPECT_EQ(p.vcs, 1u);
    EXPECT_EQ(p.bufferFlits, 8u);
    EXPECT_EQ(p.speedup, 1u);
    EXPECT_EQ(p.allocator, AllocatorKind::Islip);
    EXPECT_FALSE(p.voq);
    EXPECT_EQ(p.flyRadix, 4u);
    EXPECT_EQ(p.flyStages, 0u);
    EXPECT_EQ(p.meshRows, 0u);
    EXPECT_EQ(p.period(), sc_core::sc_time(714, sc_core::SC_PS));
    for (const char* bad : {"noc.flit_bytes=0", "noc.input_queue_packets=0", "noc.output_queue_packets=0",
                            "noc.router_cycles=0", "noc.link_cycles=0", "noc.buffer_flits=0", "noc.vcs=0",
                            "noc.speedup=0", "noc.read_request_flits=0", "noc.clock_mhz=0", "noc.topology=torus",
                            "noc.allocator=random", "noc.crossbar.queues=oq", "noc.butterfly.radix=1"})
        EXPECT_THROW(c.setFromString(bad), InputError) << bad;
    for (const auto& [name, decl] : s.all()) {
        EXPECT_EQ(name.rfind("noc.", 0), 0u) << name;
        EXPECT_FALSE(decl.description.empty()) << name;
    }
    c.setFromString("noc.topology=mesh");
    c.setFromString("noc.crossbar.queues=voq");
    c.setFromString("noc.allocator=round-robin");
    const NocParams q = NocParams::from(c);
    EXPECT_EQ(q.topology, TopologyKind::Mesh);
    EXPECT_TRUE(q.voq);
    EXPECT_EQ(q.allocator, AllocatorKind::RoundRobin);
}

TEST(NocParams, MeshChecksNameTheKey) {
    ParamSchema s;
    NocParams::declare(s);
    {
        Config c(s);
        c.setFromString("noc.mesh.rows=6");
        try {
            c.validate();
            FAIL() << "rows without cols";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("noc.mesh.cols"), std::string::npos) << e.what();
        }
    }
    {
        Config c(s);
        c.setFromString("noc.mesh.rows=6");
        c.setFromString("noc.mesh.cols=6");
        c.setFromString("noc.mesh.mc_nodes=8,9,36");
        try {
            c.validate();
            FAIL() << "node 36 on a 6x6 mesh";
        } catch (const InputError& e) {
            EXPECT_NE(std::string(e.what()).find("noc.mesh.mc_nodes"), std::string::npos) << e.what();
            EXPECT_NE(std::string(e.what()).find("node 36"), std::string::npos) << e.what();
        }
    }
}

TEST(NodeList, ParsesListsAndRanges) {
    EXPECT_EQ(parseNodeList("", "k", 10), std::vector<unsigned>{});
    EXPECT_EQ(parseNodeList("3", "k", 10), (std::vector<unsigned>{3}));
    EXPECT_EQ(parseNodeList("3, 5-7,0", "k", 10), (std::vector<unsigned>{3, 5, 6, 7, 0}));
    for (const char* bad : {"3,", ",3", "a", "3-", "7-5", "3,3", "2-4,4", "10", "1;2"})
        EXPECT_THROW(parseNodeList(bad, "k", 10), InputError) << bad;
    try {
        parseNodeList("1,1", "noc.mesh.sm_nodes", 10);
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "noc.mesh.sm_nodes: '1,1': node 1 given twice");
    }
}

TEST(FlitRules, ControlBytesCountPacketsInBytesAsGpgpuSimDoes) {
    // noc.control_bytes 8, 40-B flits (the gtx480 platform): ceil((8 + data) / 40).
    FlitRules r{40, 1, 1, 1, 8};
    EXPECT_EQ(r.requestFlits(ext(AccessKind::Read, 128)), 1u);    // 8 B
    EXPECT_EQ(r.requestFlits(ext(AccessKind::Write, 32)), 1u);    // 40 B
    EXPECT_EQ(r.requestFlits(ext(AccessKind::Write, 64)), 2u);    // 72 B
    EXPECT_EQ(r.requestFlits(ext(AccessKind::Write, 128)), 4u);   // 136 B (5 in flits: 1 + 4)
    EXPECT_EQ(readReplyFlits(r, 128), 4u);
    EXPECT_EQ(readReplyFlits(r, 32), 1u);
    EXPECT_EQ(writeAckFlits(r), 1u);
    EXPECT_EQ(r.maxFlits(128), 4u);
    // The flit counts are unused then: 3-flit read requests and acks still take one 8-B flit.
    FlitRules wide{40, 3, 2, 3, 8};
    EXPECT_EQ(wide.requestFlits(ext(AccessKind::Read, 128)), 1u);
    EXPECT_EQ(writeAckFlits(wide), 1u);
    EXPECT_EQ(wide.requestFlits(ext(AccessKind::Write, 128)), 4u);
    // Control bytes larger than a flit take several.
    EXPECT_EQ((FlitRules{4, 1, 1, 1, 8}.requestFlits(ext(AccessKind::Read, 0))), 2u);
}

} // namespace packet_test
