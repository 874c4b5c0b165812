#include "interconnect/NocParams.hpp"

namespace gpusim {

namespace {
// Upper bounds only catch typos (a queue of a million packets is never intended); they are not
// hardware limits.
constexpr int64_t kMaxQueuePackets = 4096;
constexpr int64_t kMaxLatencyCycles = 10000;
constexpr int64_t kMinFlitBytes = 4;
constexpr int64_t kMaxFlitBytes = 1024;
constexpr int64_t kMaxRequestFlits = 64;
constexpr double kMaxClockMhz = 100000;
} // namespace

void NocParams::declare(ParamSchema& s) {
    s.addDouble("noc.clock_mhz", 1400, "MHz", 1, kMaxClockMhz,
                "Interconnect clock; all noc.* cycle counts are in this clock")
        .addInt("noc.flit_bytes", 32, "bytes", kMinFlitBytes, kMaxFlitBytes,
                "Channel width: one flit crosses a crossbar output per NoC cycle")
        .addInt("noc.input_queue_packets", 8, "packets", 1, kMaxQueuePackets,
                "Input queue depth per input port and subnet (request, reply); a full queue "
                "withholds END_REQ (requests) or END_RESP (replies)")
        .addInt("noc.output_queue_packets", 8, "packets", 1, kMaxQueuePackets,
                "Output queue depth per output port and subnet, counting packets still in "
                "flight to it; a packet crosses only if there is room")
        .addInt("noc.latency_cycles", 4, "cycles", 1, kMaxLatencyCycles,
                "Router pipeline plus wire delay of one traversal, from the last flit leaving "
                "the switch to the packet being ready in the output queue")
        .addInt("noc.read_request_flits", 1, "flits", 1, kMaxRequestFlits,
                "Flits of a read request (header only); write requests and read replies are "
                "1 header + ceil(bytes / noc.flit_bytes) data flits, write acks 1 flit");
}

NocParams NocParams::fromConfig(const Config& cfg) {
    NocParams p;
    p.clockMhz = cfg.getDouble("noc.clock_mhz");
    p.flitBytes = static_cast<unsigned>(cfg.getInt("noc.flit_bytes"));
    p.inputQueuePackets = static_cast<unsigned>(cfg.getInt("noc.input_queue_packets"));
    p.outputQueuePackets = static_cast<unsigned>(cfg.getInt("noc.output_queue_packets"));
    p.latencyCycles = static_cast<unsigned>(cfg.getInt("noc.latency_cycles"));
    p.readRequestFlits = static_cast<unsigned>(cfg.getInt("noc.read_request_flits"));
    return p;
}

sc_core::sc_time NocParams::period() const {
    return sc_core::sc_time(1.0 / clockMhz, sc_core::SC_US);
}

} // namespace gpusim
