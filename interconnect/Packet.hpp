#pragma once
// Packetisation: what one transaction costs on a NoC channel. A packet is the forwarded payload
// plus the routing and timing facts the switch needs; it is never copied into new memory
// (passthrough: the same tlm_generic_payload travels end to end). Flit counts follow DESIGN.md
// section 6: a header flit, plus data flits of the channel width for whatever carries data.
// Left out: byte-enable/partial-line compression, and per-flit identity (the flit-level router
// family will split a Packet into head/body/tail flits; the counts here stay its source).
#include <cstdint>

#include <tlm>

#include "common/GpuExtension.hpp"

namespace gpusim {

struct Packet {
    tlm::tlm_generic_payload* payload = nullptr;
    uint64_t id = 0;          // GpuExtension::requestId, kept for dumps without touching the payload
    unsigned src = 0;         // input port of this subnet
    unsigned dst = 0;         // output port of this subnet
    unsigned flits = 1;
    uint64_t entryTime = 0;   // kernel time (resolution units) it entered the input queue
    // First NoC cycle at which it may act where it is now: arbitration in an input queue,
    // delivery in an output queue.
    uint64_t readyCycle = 0;
};

struct FlitRules {
    // A header carries address, kind and routing; one flit on every channel width we model.
    static constexpr unsigned kHeaderFlits = 1;

    unsigned flitBytes = 32;
    unsigned readRequestFlits = 1;

    unsigned dataFlits(uint64_t bytes) const {
        return static_cast<unsigned>((bytes + flitBytes - 1) / flitBytes);
    }
    // SM -> memory: a read asks (header only); a write or writeback carries its touched bytes.
    unsigned requestFlits(const GpuExtension& e) const {
        return e.kind == AccessKind::Read ? readRequestFlits : kHeaderFlits + dataFlits(e.bytes);
    }
    // Memory -> SM: a read answer carries the payload's data; a write is only acknowledged.
    unsigned replyFlits(const tlm::tlm_generic_payload& p, const GpuExtension& e) const {
        return e.kind == AccessKind::Read ? kHeaderFlits + dataFlits(p.get_data_length())
                                          : kHeaderFlits;
    }
};

} // namespace gpusim
