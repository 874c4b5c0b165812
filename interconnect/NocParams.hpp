#pragma once
// The noc.* parameters, declared once and read once, shared by every topology and by the
// synthetic-traffic testbench. Defaults follow the fermi15 (GTX 480-class) baseline of
// GPGPU-Sim: a 1400 MHz interconnect clock, 32-byte flits, 8-flit input buffers, iSLIP switch
// allocation; see docs/interconnect.md for how the timing defaults were chosen.
#include <cstdint>
#include <string>
#include <vector>

#include <systemc>

#include "common/Config.hpp"

namespace gpusim {

enum class TopologyKind { Crossbar, Butterfly, Mesh };
enum class AllocatorKind { RoundRobin, Islip };

struct NocParams {
    TopologyKind topology = TopologyKind::Crossbar;
    double clockMhz = 0;
    unsigned flitBytes = 0;
    // Packetisation (flits per message type).
    unsigned headerFlits = 0;
    unsigned controlBytes = 0;  // noc.control_bytes (0: packets counted in flits)
    unsigned readRequestFlits = 0;
    unsigned writeAckFlits = 0;
    // Network interface.
    unsigned inputQueuePackets = 0;   // injection queue per source terminal and subnet
    unsigned outputQueuePackets = 0;  // ejection buffer per sink terminal, VC and subnet
    unsigned smsPerCluster = 1;       // SMs sharing one injection/ejection port
    // Routers and channels.
    unsigned routerCycles = 0;
    unsigned linkCycles = 0;
    unsigned vcs = 0;
    unsigned bufferFlits = 0;         // per input VC
    unsigned speedup = 1;
    unsigned outputBufferFlits = 0;   // per router output port (matters with speedup > 1)
    AllocatorKind allocator = AllocatorKind::Islip;
    unsigned islipIterations = 1;
    // Topology specifics.
    bool voq = false;                 // crossbar: virtual output queues at the inputs
    unsigned flyRadix = 0;            // butterfly k
    unsigned flyStages = 0;           // butterfly n (0: fewest that fit)
    unsigned meshRows = 0, meshCols = 0;  // 0: smallest square that fits
    std::string meshSmNodes, meshMcNodes;  // node lists ("" = automatic placement)

    static void declare(ParamSchema& s);
    static NocParams from(const Config& cfg);

    // The period of the NoC clock domain the platform builds for the NoC.
    sc_core::sc_time period() const;
};

const char* topologyName(TopologyKind k);

// "3,5-7,12" -> {3,5,6,7,12}. Throws InputError naming `key` on bad syntax or a value >= limit.
std::vector<unsigned> parseNodeList(const std::string& text, const std::string& key, unsigned limit);

} // namespace gpusim
