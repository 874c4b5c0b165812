#pragma once
// `gpusim run --trace-tlm FILE`: a LinkInterposer that records every TLM-2.0 phase crossing its
// link, into a file shared by every link of the GPU. The tracer forwards every call unchanged and
// returns exactly what the other side returned, so the model runs as without it. The file keeps
// the phases inside the run's TraceFilter (--trace-window, --trace-sms: a phase is kept when its
// time falls in the window and its GpuExtension names a kept SM; with an SM filter, payloads of
// L2 traffic, sm -1, and payloads without an extension are left out). A FILE ending in ".json"
// (or ".json.gz") is Perfetto trace-event JSON (TlmPerfettoWriter); any other name is CSV, and a
// ".gz" name is gzip-compressed (TraceOutputFile).
//
// CSV format (docs/user-guide.md, "Tracing"): a header line, then
//   time_ps,link,dir,phase,via,cmd,addr,len,kind,sm,warp,pc,id
// time_ps    simulated time of the call, picoseconds
// link       the Gpu's link name ("sm3->noc", "noc->l2.2", "l2.2->mem", ...)
// dir        fw (initiator to target) or bw (target to initiator)
// phase      BEGIN_REQ, END_REQ, BEGIN_RESP, END_RESP (B_TRANSPORT for a blocking call)
// via        call: an nb_transport call carried the phase; return: the callee's return value
//            implied it (TLM_UPDATED + END_REQ or BEGIN_RESP to BEGIN_REQ; TLM_UPDATED + END_RESP
//            or TLM_COMPLETED to BEGIN_RESP; TLM_COMPLETED to BEGIN_REQ is logged as END_RESP)
// cmd        read | write | ignore;  addr hex;  len data length in bytes
// kind, sm, warp, pc, id   the GpuExtension (read/write/writeback; sm and warp -1 for L2 traffic)
// Not recorded: transport_dbg and DMI calls (the model makes none).
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/LinkInterposer.hpp"
#include "platforms/TlmPerfettoWriter.hpp"
#include "platforms/TraceFilter.hpp"
#include "platforms/TraceOutputFile.hpp"

namespace gpusim {

// The trace file: opened by the constructor (InputError naming `option` and the path if it
// cannot be), closed by close() or the destructor. `corePeriodPs` turns the filter's window of
// core cycles into simulated time.
class TlmTraceFile {
public:
    TlmTraceFile(const std::string& path, const std::string& option, const TraceFilter& filter = {},
                 uint64_t corePeriodPs = 1);
    ~TlmTraceFile();
    TlmTraceFile(const TlmTraceFile&) = delete;
    TlmTraceFile& operator=(const TlmTraceFile&) = delete;

    // A hook that splices a TlmTracer writing to this file into every link.
    LinkHook hook();
    // Numbers a link (0, 1, ... in the order the GPU builds them) for record().
    unsigned addLink(const std::string& name);
    void record(unsigned link, const char* dir, const tlm::tlm_phase& phase, const char* via,
                const tlm::tlm_generic_payload& p);
    void recordBlocking(unsigned link, const tlm::tlm_generic_payload& p);
    // CSV lines, or Perfetto phases, written.
    uint64_t lines() const { return lines_; }
    bool perfetto() const { return perfetto_ != nullptr; }
    void close();

private:
    void write(unsigned link, const char* dir, const char* phase, TlmPerfettoWriter::Phase ph, const char* via,
               const tlm::tlm_generic_payload& p);

    TraceOutputFile out_;
    TraceFilter filter_;
    uint64_t fromPs_, toPs_;
    std::vector<std::string> links_;
    std::unique_ptr<TlmPerfettoWriter> perfetto_;
    uint64_t lines_ = 0;
};

class TlmTracer : public sc_core::sc_module, public LinkInterposer {
public:
    using Payload = tlm::tlm_generic_payload;
    TlmTracer(sc_core::sc_module_name name, const std::string& link, TlmTraceFile& file);

    tlm::tlm_target_socket<32>& in() override { return target_; }
    tlm::tlm_initiator_socket<32>& out() override { return initiator_; }

    // A legal SystemC module name for a link name ("sm3->noc" -> "trace_sm3_to_noc").
    static std::string moduleNameFor(const std::string& link);

private:
    tlm::tlm_sync_enum fw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    tlm::tlm_sync_enum bw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    void blocking(Payload& p, sc_core::sc_time& t);
    unsigned debug(Payload& p) { return initiator_->transport_dbg(p); }
    bool dmi(Payload& p, tlm::tlm_dmi& d) { return initiator_->get_direct_mem_ptr(p, d); }
    void invalidate(sc_dt::uint64 a, sc_dt::uint64 b) { target_->invalidate_direct_mem_ptr(a, b); }

    tlm_utils::simple_target_socket<TlmTracer> target_;
    tlm_utils::simple_initiator_socket<TlmTracer> initiator_;
    TlmTraceFile& file_;
    unsigned link_;
};

} // namespace gpusim
