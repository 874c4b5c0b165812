#include "interconnect/NocParams.hpp"

#include <cctype>
#include <set>

namespace gpusim {

namespace {
// Upper bounds only catch typos (a buffer of a million flits is never intended); they are not
// hardware limits.
constexpr int64_t kMaxQueuePackets = 4096;
constexpr int64_t kMaxBufferFlits = 4096;
constexpr int64_t kMaxCycles = 1000;
constexpr int64_t kMinFlitBytes = 4;
constexpr int64_t kMaxFlitBytes = 1024;
constexpr int64_t kMaxMessageFlits = 64;
constexpr int64_t kMaxControlBytes = 256;
constexpr int64_t kMaxVcs = 64;
constexpr int64_t kMaxSpeedup = 8;
constexpr int64_t kMaxIterations = 16;
constexpr int64_t kMaxCluster = 64;
constexpr int64_t kMaxRadix = 64;
constexpr int64_t kMaxStages = 8;
constexpr int64_t kMaxMeshSide = 64;
constexpr double kMaxClockMhz = 100000;

unsigned u(const Config& c, const char* key) { return static_cast<unsigned>(c.getInt(key)); }
} // namespace

const char* topologyName(TopologyKind k) {
    switch (k) {
    case TopologyKind::Crossbar: return "crossbar";
    case TopologyKind::Butterfly: return "butterfly";
    case TopologyKind::Mesh: return "mesh";
    }
    return "?";
}

std::vector<unsigned> parseNodeList(const std::string& text, const std::string& key, unsigned limit) {
    std::vector<unsigned> out;
    std::set<unsigned> seen;
    auto bad = [&](const std::string& why) -> InputError {
        return InputError(key + ": '" + text + "': " + why);
    };
    size_t pos = 0;
    auto number = [&]() -> unsigned {
        size_t start = pos;
        while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos]))) ++pos;
        if (start == pos || pos - start > 6) throw bad("expected node numbers like 3,5-7,12");
        return static_cast<unsigned>(std::stoul(text.substr(start, pos - start)));
    };
    auto skipSpaces = [&] {
        while (pos < text.size() && text[pos] == ' ') ++pos;
    };
    skipSpaces();
    if (pos == text.size()) return out;
    for (;;) {
        skipSpaces();
        const unsigned first = number();
        unsigned last = first;
        skipSpaces();
        if (pos < text.size() && text[pos] == '-') {
            ++pos;
            skipSpaces();
            last = number();
            if (last < first) throw bad("range " + std::to_string(first) + "-" + std::to_string(last) + " runs backwards");
        }
        for (unsigned n = first; n <= last; ++n) {
            if (n >= limit) throw bad("node " + std::to_string(n) + " is outside the " + std::to_string(limit) + " nodes");
            if (!seen.insert(n).second) throw bad("node " + std::to_string(n) + " given twice");
            out.push_back(n);
        }
        skipSpaces();
        if (pos == text.size()) break;
        if (text[pos] != ',') throw bad("expected ',' after node " + std::to_string(last));
        ++pos;
    }
    return out;
}

void NocParams::declare(ParamSchema& s) {
    s.addEnum("noc.topology", "crossbar", {"crossbar", "butterfly", "mesh"},
              "Network between SMs and memory partitions: one-stage crossbar, k-ary n-fly "
              "butterfly, or 2D mesh (two of it: a request and a reply subnet)")
        .addDouble("noc.clock_mhz", 1400, "MHz", 1, kMaxClockMhz,
                   "Interconnect clock; all noc.* cycle counts are in this clock")
        .addInt("noc.flit_bytes", 32, "bytes", kMinFlitBytes, kMaxFlitBytes,
                "Channel width: one flit crosses a channel per NoC cycle")
        .addInt("noc.header_flits", 1, "flits", 1, kMaxMessageFlits,
                "Header flits of a packet that carries data (write request, read reply); data "
                "flits are ceil(bytes / noc.flit_bytes) on top")
        .addInt("noc.read_request_flits", 1, "flits", 1, kMaxMessageFlits,
                "Flits of a read request (address and routing only)")
        .addInt("noc.write_ack_flits", 1, "flits", 1, kMaxMessageFlits,
                "Flits of a write acknowledgement")
        .addInt("noc.control_bytes", 0, "bytes", 0, kMaxControlBytes,
                "0: packets are counted in flits (noc.header_flits, noc.read_request_flits, "
                "noc.write_ack_flits). Otherwise GPGPU-Sim's packetisation: every packet carries "
                "this many bytes of address and control (its READ_PACKET_SIZE, WRITE_PACKET_SIZE), "
                "data packets add their data bytes, and a packet is ceil(bytes / noc.flit_bytes) "
                "flits; the three flit counts are then unused")
        .addInt("noc.input_queue_packets", 8, "packets", 1, kMaxQueuePackets,
                "Network-interface injection queue per source port and subnet (an SM cluster on "
                "the request subnet, a partition on the reply subnet); a full queue withholds "
                "END_REQ (requests) or END_RESP (replies)")
        .addInt("noc.output_queue_packets", 2, "packets", 1, kMaxQueuePackets,
                "Network-interface ejection buffer per sink port, VC and subnet, in packets of "
                "the largest size: whole packets are reassembled there before delivery")
        .addInt("noc.sms_per_cluster", 1, "SMs", 1, kMaxCluster,
                "SMs sharing one injection and ejection port (fermi30: 15 clusters of 2)")
        .addInt("noc.router_cycles", 3, "cycles", 1, kMaxCycles,
                "Router pipeline delay: from a flit written into an input buffer to its switch "
                "traversal (route, VC and switch allocation, traversal)")
        .addInt("noc.link_cycles", 1, "cycles", 1, kMaxCycles,
                "Channel latency between routers and from a router to an ejection port; credits "
                "travel back with the same latency")
        .addInt("noc.vcs", 1, "VCs", 1, kMaxVcs,
                "Virtual channels per router port (a crossbar with noc.crossbar.queues = voq has "
                "one per output at its inputs instead)")
        .addInt("noc.buffer_flits", 8, "flits", 1, kMaxBufferFlits,
                "Input buffer depth per virtual channel (credit-based flow control)")
        .addEnum("noc.allocator", "islip", {"round-robin", "islip"},
                 "Switch allocator: separable input-first round-robin, or iSLIP")
        .addInt("noc.islip_iterations", 1, "", 1, kMaxIterations, "iSLIP iterations per allocation")
        .addInt("noc.speedup", 1, "", 1, kMaxSpeedup,
                "Internal switch speed-up: allocations (and flits per input and output) per NoC "
                "cycle; outputs drain one flit per cycle from their output buffers")
        .addInt("noc.output_buffer_flits", 8, "flits", 1, kMaxBufferFlits,
                "Output buffer per router output port, between the switch and the channel "
                "(fills only with noc.speedup > 1)")
        .addEnum("noc.crossbar.queues", "fifo", {"fifo", "voq"},
                 "Crossbar input buffering: one FIFO per input (head-of-line blocking) or a "
                 "virtual output queue per output")
        .addInt("noc.butterfly.radix", 4, "", 2, kMaxRadix, "Butterfly router radix k (k x k routers)")
        .addInt("noc.butterfly.stages", 0, "", 0, kMaxStages,
                "Butterfly stages n (k^n ports per side); 0: the fewest that fit the terminals")
        .addInt("noc.mesh.rows", 0, "", 0, kMaxMeshSide, "Mesh rows; 0: the smallest square that fits")
        .addInt("noc.mesh.cols", 0, "", 0, kMaxMeshSide, "Mesh columns; 0: the smallest square that fits")
        .addString("noc.mesh.sm_nodes", "",
                   "Mesh nodes (row-major ids, e.g. 0-7,10) of the SM clusters in order; empty: "
                   "the nodes left after the memory controllers, in id order")
        .addString("noc.mesh.mc_nodes", "",
                   "Mesh nodes of the memory partitions in order; empty: spread evenly over the "
                   "node ids (partition j at floor((j + 1/2) * nodes / partitions))");
    s.addCheck([](const Config& c) {
        const int64_t rows = c.getInt("noc.mesh.rows"), cols = c.getInt("noc.mesh.cols");
        if ((rows == 0) != (cols == 0))
            c.fail(rows == 0 ? "noc.mesh.rows" : "noc.mesh.cols",
                   "set both noc.mesh.rows and noc.mesh.cols, or neither", {"noc.mesh.rows", "noc.mesh.cols"});
        const unsigned limit = rows ? static_cast<unsigned>(rows * cols) : 1u << 20;
        for (const char* key : {"noc.mesh.sm_nodes", "noc.mesh.mc_nodes"}) {
            try {
                parseNodeList(c.getString(key), key, limit);
            } catch (const InputError& e) {
                c.fail(key, std::string(e.what()).substr(std::string(key).size() + 2), {"noc.mesh.rows", "noc.mesh.cols"});
            }
        }
    });
}

NocParams NocParams::from(const Config& cfg) {
    NocParams p;
    p.topology = cfg.getChoice<TopologyKind>("noc.topology", {{"crossbar", TopologyKind::Crossbar},
                                                              {"butterfly", TopologyKind::Butterfly},
                                                              {"mesh", TopologyKind::Mesh}});
    p.clockMhz = cfg.getDouble("noc.clock_mhz");
    p.flitBytes = u(cfg, "noc.flit_bytes");
    p.headerFlits = u(cfg, "noc.header_flits");
    p.readRequestFlits = u(cfg, "noc.read_request_flits");
    p.writeAckFlits = u(cfg, "noc.write_ack_flits");
    p.controlBytes = u(cfg, "noc.control_bytes");
    p.inputQueuePackets = u(cfg, "noc.input_queue_packets");
    p.outputQueuePackets = u(cfg, "noc.output_queue_packets");
    p.smsPerCluster = u(cfg, "noc.sms_per_cluster");
    p.routerCycles = u(cfg, "noc.router_cycles");
    p.linkCycles = u(cfg, "noc.link_cycles");
    p.vcs = u(cfg, "noc.vcs");
    p.bufferFlits = u(cfg, "noc.buffer_flits");
    p.speedup = u(cfg, "noc.speedup");
    p.outputBufferFlits = u(cfg, "noc.output_buffer_flits");
    p.allocator = cfg.getChoice<AllocatorKind>("noc.allocator", {{"round-robin", AllocatorKind::RoundRobin},
                                                                 {"islip", AllocatorKind::Islip}});
    p.islipIterations = u(cfg, "noc.islip_iterations");
    p.voq = cfg.getChoice<bool>("noc.crossbar.queues", {{"fifo", false}, {"voq", true}});
    p.flyRadix = u(cfg, "noc.butterfly.radix");
    p.flyStages = u(cfg, "noc.butterfly.stages");
    p.meshRows = u(cfg, "noc.mesh.rows");
    p.meshCols = u(cfg, "noc.mesh.cols");
    p.meshSmNodes = cfg.getString("noc.mesh.sm_nodes");
    p.meshMcNodes = cfg.getString("noc.mesh.mc_nodes");
    return p;
}

sc_core::sc_time NocParams::period() const {
    return sc_core::sc_time(1.0 / clockMhz, sc_core::SC_US);
}

} // namespace gpusim
