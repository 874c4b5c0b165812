#include "platforms/TlmTracer.hpp"

#include <cinttypes>

#include "common/GpuExtension.hpp"
#include "common/SimError.hpp"
#include "common/SimTime.hpp"

namespace gpusim {

namespace {
// Picoseconds per unit of sc_time::value(); the model runs at 1 ps resolution, but a user's
// program embedding the GPU may have chosen another.
uint64_t psPerUnit() {
    const double ps = sc_core::sc_get_time_resolution().to_seconds() * 1e12;
    return ps < 1 ? 1 : static_cast<uint64_t>(ps + 0.5);
}

const char* phaseText(const tlm::tlm_phase& ph) {
    if (ph == tlm::BEGIN_REQ) return "BEGIN_REQ";
    if (ph == tlm::END_REQ) return "END_REQ";
    if (ph == tlm::BEGIN_RESP) return "BEGIN_RESP";
    if (ph == tlm::END_RESP) return "END_RESP";
    return "UNKNOWN_PHASE";
}
} // namespace

TlmTraceFile::TlmTraceFile(const std::string& path, const std::string& option, const TraceFilter& filter,
                           uint64_t corePeriodPs)
    : out_(path, option), filter_(filter), fromPs_(filter.fromPs(corePeriodPs)), toPs_(filter.toPs(corePeriodPs)) {
    if (TraceOutputFile::hasFormatSuffix(path, ".json"))
        perfetto_ = std::make_unique<TlmPerfettoWriter>(out_.get(), fromPs_, toPs_);
    else
        std::fputs("time_ps,link,dir,phase,via,cmd,addr,len,kind,sm,warp,pc,id\n", out_.get());
}

TlmTraceFile::~TlmTraceFile() { close(); }

void TlmTraceFile::close() {
    if (perfetto_ && out_.open()) perfetto_->finish();
    out_.close();
}

LinkHook TlmTraceFile::hook() {
    return [this](const std::string& link) -> std::unique_ptr<LinkInterposer> {
        return std::make_unique<TlmTracer>(TlmTracer::moduleNameFor(link).c_str(), link, *this);
    };
}

unsigned TlmTraceFile::addLink(const std::string& name) {
    links_.push_back(name);
    const unsigned index = static_cast<unsigned>(links_.size() - 1);
    if (perfetto_ && out_.open()) perfetto_->addLink(index, name);
    return index;
}

void TlmTraceFile::record(unsigned link, const char* dir, const tlm::tlm_phase& phase, const char* via,
                          const tlm::tlm_generic_payload& p) {
    using P = TlmPerfettoWriter::Phase;
    const P ph = phase == tlm::BEGIN_REQ ? P::BeginReq
                 : phase == tlm::END_REQ ? P::EndReq
                 : phase == tlm::BEGIN_RESP ? P::BeginResp
                                            : P::EndResp;
    write(link, dir, phaseText(phase), ph, via, p);
}

void TlmTraceFile::recordBlocking(unsigned link, const tlm::tlm_generic_payload& p) {
    write(link, "fw", "B_TRANSPORT", TlmPerfettoWriter::Phase::Blocking, "call", p);
}

void TlmTraceFile::write(unsigned link, const char* dir, const char* phase, TlmPerfettoWriter::Phase ph,
                         const char* via, const tlm::tlm_generic_payload& p) {
    if (!out_.open()) return;
    static const uint64_t unitPs = psPerUnit();
    const uint64_t ps = simNow() * unitPs;
    const GpuExtension* e = findGpuExt(p);
    if (!filter_.everySm() && !filter_.smKept(e ? e->smId : -1)) return;
    if (perfetto_) {
        // The writer sees phases after the window too: they end slices begun inside it.
        if (ps >= fromPs_) perfetto_->phase(link, ph, ps, p);
        ++lines_;
        return;
    }
    if (ps < fromPs_ || ps >= toPs_) return;
    const char* cmd = p.is_read() ? "read" : p.is_write() ? "write" : "ignore";
    const char* name = links_[link].c_str();
    if (e)
        std::fprintf(out_.get(), "%" PRIu64 ",%s,%s,%s,%s,%s,0x%" PRIx64 ",%u,%s,%d,%d,0x%" PRIx64 ",%" PRIu64 "\n", ps,
                     name, dir, phase, via, cmd, static_cast<uint64_t>(p.get_address()), p.get_data_length(),
                     accessKindName(e->kind), e->smId, e->warpId, e->pc, e->requestId);
    else  // a user's component may send payloads without one
        std::fprintf(out_.get(), "%" PRIu64 ",%s,%s,%s,%s,%s,0x%" PRIx64 ",%u,,,,,\n", ps, name, dir, phase, via, cmd,
                     static_cast<uint64_t>(p.get_address()), p.get_data_length());
    ++lines_;
}

TlmTracer::TlmTracer(sc_core::sc_module_name name, const std::string& link, TlmTraceFile& file)
    : sc_module(name), target_("in"), initiator_("out"), file_(file), link_(file.addLink(link)) {
    target_.register_nb_transport_fw(this, &TlmTracer::fw);
    target_.register_b_transport(this, &TlmTracer::blocking);
    target_.register_transport_dbg(this, &TlmTracer::debug);
    target_.register_get_direct_mem_ptr(this, &TlmTracer::dmi);
    initiator_.register_nb_transport_bw(this, &TlmTracer::bw);
    initiator_.register_invalidate_direct_mem_ptr(this, &TlmTracer::invalidate);
}

std::string TlmTracer::moduleNameFor(const std::string& link) { return interposerModuleName("trace_", link); }

// The call is logged before it is forwarded (so a response the callee sends from inside the call
// is logged after its request), the phase its return value implies after.
tlm::tlm_sync_enum TlmTracer::fw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    const tlm::tlm_phase sent = ph;
    file_.record(link_, "fw", sent, "call", p);
    const tlm::tlm_sync_enum s = initiator_->nb_transport_fw(p, ph, t);
    if (s == tlm::TLM_UPDATED && sent == tlm::BEGIN_REQ && (ph == tlm::END_REQ || ph == tlm::BEGIN_RESP))
        file_.record(link_, "bw", ph, "return", p);
    else if (s == tlm::TLM_COMPLETED && sent == tlm::BEGIN_REQ)
        file_.record(link_, "fw", tlm::END_RESP, "return", p);
    return s;
}

tlm::tlm_sync_enum TlmTracer::bw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    const tlm::tlm_phase sent = ph;
    file_.record(link_, "bw", sent, "call", p);
    const tlm::tlm_sync_enum s = target_->nb_transport_bw(p, ph, t);
    if (sent == tlm::BEGIN_RESP &&
        (s == tlm::TLM_COMPLETED || (s == tlm::TLM_UPDATED && ph == tlm::END_RESP)))
        file_.record(link_, "fw", tlm::END_RESP, "return", p);
    return s;
}

void TlmTracer::blocking(Payload& p, sc_core::sc_time& t) {
    file_.recordBlocking(link_, p);
    initiator_->b_transport(p, t);
}

} // namespace gpusim
