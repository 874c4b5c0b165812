#pragma once
// Packetisation: what one transaction costs on a NoC channel, and the packet record the
// network carries. A packet is the forwarded payload plus the routing and timing facts the
// network needs; the payload is never copied (passthrough: the same tlm_generic_payload travels
// end to end). The network splits a packet into flits (Flit.hpp): head first, tail last.
// Flit counts per message type come from configuration (noc.read_request_flits,
// noc.header_flits, noc.write_ack_flits) plus data flits of the channel width, or, with
// noc.control_bytes, from bytes as GPGPU-Sim counts them (control bytes plus data bytes).
// Left out: byte-enable/partial-line compression.
#include <cstdint>

#include <tlm>

#include "common/GpuExtension.hpp"

namespace gpusim {

struct Packet {
    tlm::tlm_generic_payload* payload = nullptr;  // null for synthetic traffic
    uint64_t id = 0;          // GpuExtension::requestId (or a synthetic id), for dumps and checks
    unsigned src = 0;         // source terminal of this subnet
    unsigned dst = 0;         // sink terminal of this subnet
    unsigned flits = 1;
    // Reply packets of the GPU's NoC: the SM port the answer goes to (GpuExtension::srcPort, read
    // once at injection: a cluster's sink serves several SMs).
    unsigned smPort = 0;
    uint64_t entryTime = 0;   // kernel time it entered the network interface (TLM only)
    // First NoC cycle at which its head may be injected (BookSim's creation time: latency is
    // measured from here to delivery of the whole packet at the sink).
    uint64_t readyCycle = 0;
};

struct FlitRules {
    unsigned flitBytes = 32;
    unsigned readRequestFlits = 1;
    unsigned headerFlits = 1;
    unsigned writeAckFlits = 1;
    // Non-zero: GPGPU-Sim's packetisation, in bytes (control plus data), not in flits.
    unsigned controlBytes = 0;

    unsigned dataFlits(uint64_t bytes) const {
        return static_cast<unsigned>((bytes + flitBytes - 1) / flitBytes);
    }
    // A data packet of `bytes`: header flits plus data flits, or control and data bytes together.
    unsigned withData(uint64_t bytes) const {
        return controlBytes ? dataFlits(controlBytes + bytes) : headerFlits + dataFlits(bytes);
    }
    unsigned controlOnly(unsigned flits) const { return controlBytes ? dataFlits(controlBytes) : flits; }
    // SM -> memory: a read asks (no data); a write or writeback carries its bytes, and so does
    // an atomic (its operands), ATOM included.
    unsigned requestFlits(const GpuExtension& e) const {
        return e.kind == AccessKind::Read && !e.atomic ? controlOnly(readRequestFlits) : withData(e.bytes);
    }
    // Memory -> SM: a read answer (ATOM's too: the old values) carries the payload's data; a write
    // (RED's too) is only acknowledged.
    unsigned replyFlits(const tlm::tlm_generic_payload& p, const GpuExtension& e) const {
        return e.kind == AccessKind::Read ? withData(p.get_data_length()) : controlOnly(writeAckFlits);
    }
    // The largest packet for transfers of at most `lineBytes` (sizes the ejection buffers, which
    // must hold a whole packet).
    unsigned maxFlits(uint64_t lineBytes) const {
        const unsigned data = withData(lineBytes);
        const unsigned read = controlOnly(readRequestFlits), ack = controlOnly(writeAckFlits);
        unsigned m = data > read ? data : read;
        return m > ack ? m : ack;
    }
};

} // namespace gpusim
