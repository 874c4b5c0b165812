#include "platforms/TlmPerfettoWriter.hpp"

#include <algorithm>
#include <cinttypes>

#include "common/GpuExtension.hpp"

namespace gpusim {

TlmPerfettoWriter::TlmPerfettoWriter(std::FILE* out, uint64_t fromPs, uint64_t toPs)
    : out_(out), fromPs_(fromPs), toPs_(toPs) {
    std::fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n", out_);
}

void TlmPerfettoWriter::addLink(unsigned index, const std::string& name) {
    if (links_.size() <= index) links_.resize(index + 1);
    const unsigned pid = index + 1;
    std::fprintf(out_,
                 "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":0,\"args\":{\"name\":\"%s\"}},\n"
                 "{\"name\":\"process_sort_index\",\"ph\":\"M\",\"pid\":%u,\"tid\":0,\"args\":{\"sort_index\":%u}},\n"
                 "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"request\"}},\n"
                 "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%u,\"tid\":%u,\"args\":{\"name\":\"response\"}}",
                 first_ ? "" : ",\n", pid, name.c_str(), pid, pid, pid, kRequestTrack, pid, kResponseTrack);
    first_ = false;
}

TlmPerfettoWriter::Args TlmPerfettoWriter::argsOf(const tlm::tlm_generic_payload& p) {
    Args a;
    a.addr = static_cast<uint64_t>(p.get_address());
    a.len = p.get_data_length();
    if (const GpuExtension* e = findGpuExt(p)) {
        a.extension = true;
        a.name = accessKindName(e->kind);
        a.sm = e->smId;
        a.warp = e->warpId;
        a.pc = e->pc;
        a.id = e->requestId;
    } else {
        a.name = p.is_read() ? "read" : p.is_write() ? "write" : "ignore";
    }
    return a;
}

void TlmPerfettoWriter::phase(unsigned link, Phase ph, uint64_t ps, const tlm::tlm_generic_payload& p) {
    if (link >= links_.size()) links_.resize(link + 1);
    Link& l = links_[link];
    lastPs_ = std::max(lastPs_, ps);
    switch (ph) {
    case Phase::BeginReq:
        if (inWindow(ps)) l.requests[&p] = Request{argsOf(p), ps, ps, false};
        break;
    case Phase::EndReq: endRequest(l, p, ps); break;
    case Phase::BeginResp: {
        endRequest(l, p, ps);  // BEGIN_RESP implies END_REQ
        const auto r = l.requests.find(&p);
        uint64_t flow = 0;
        if (r != l.requests.end()) {
            // The answer is seen inside the window: the request slice carries the flow's start.
            const bool answered = inWindow(ps);
            if (answered) flow = nextFlow_++;
            slice(link, kRequestTrack, r->second.begin, r->second.end, r->second.args, answered ? "flow_out" : nullptr,
                  flow);
            l.requests.erase(r);
        }
        if (inWindow(ps)) l.responses[&p] = Response{argsOf(p), ps, flow};
        break;
    }
    case Phase::EndResp: {
        // TLM_COMPLETED to BEGIN_REQ ends the whole transaction: request and an empty response.
        if (l.requests.count(&p)) phase(link, Phase::BeginResp, ps, p);
        else if (!l.responses.count(&p) && inWindow(ps)) l.responses[&p] = Response{argsOf(p), ps, 0};
        const auto r = l.responses.find(&p);
        if (r == l.responses.end()) break;
        slice(link, kResponseTrack, r->second.begin, cut(ps), r->second.args, r->second.flow ? "flow_in" : nullptr,
              r->second.flow);
        flows_ += r->second.flow != 0;
        l.responses.erase(r);
        break;
    }
    case Phase::Blocking:
        if (inWindow(ps)) slice(link, kRequestTrack, ps, ps, argsOf(p), nullptr, 0);
        break;
    }
}

void TlmPerfettoWriter::endRequest(Link& l, const tlm::tlm_generic_payload& p, uint64_t ps) {
    const auto r = l.requests.find(&p);
    if (r == l.requests.end() || r->second.ended) return;
    r->second.end = cut(ps);
    r->second.ended = true;
}

// Microseconds with six decimals: exact, since the time resolution is 1 ps.
void TlmPerfettoWriter::ts(const char* key, uint64_t ps) {
    std::fprintf(out_, ",\"%s\":%" PRIu64 ".%06" PRIu64, key, ps / 1000000, ps % 1000000);
}

void TlmPerfettoWriter::slice(unsigned link, unsigned track, uint64_t from, uint64_t to, const Args& a,
                              const char* flowKey, uint64_t flow) {
    std::fprintf(out_, "%s{\"name\":\"%s\",\"cat\":\"tlm\",\"ph\":\"X\",\"pid\":%u,\"tid\":%u", first_ ? "" : ",\n",
                 a.name, link + 1, track);
    first_ = false;
    ts("ts", from);
    ts("dur", to - from);
    if (flowKey) std::fprintf(out_, ",\"bind_id\":%" PRIu64 ",\"%s\":true", flow, flowKey);
    std::fprintf(out_, ",\"args\":{\"addr\":\"0x%" PRIx64 "\",\"len\":%u", a.addr, a.len);
    if (a.extension)
        std::fprintf(out_, ",\"sm\":%d,\"warp\":%d,\"pc\":\"0x%" PRIx64 "\",\"id\":%" PRIu64, a.sm, a.warp, a.pc, a.id);
    std::fputs("}}", out_);
    ++slices_;
}

void TlmPerfettoWriter::finish() {
    const uint64_t end = cut(lastPs_);
    for (unsigned i = 0; i < links_.size(); ++i) {
        // In time order (the maps' order depends on payload addresses, which differ run to run).
        std::vector<std::pair<uint64_t, const Request*>> requests;
        std::vector<std::pair<uint64_t, const Response*>> responses;
        for (const auto& [p, r] : links_[i].requests) requests.push_back({r.begin, &r});
        for (const auto& [p, r] : links_[i].responses) responses.push_back({r.begin, &r});
        const auto byTime = [](const auto& a, const auto& b) {
            return a.first != b.first ? a.first < b.first : a.second->args.id < b.second->args.id;
        };
        std::sort(requests.begin(), requests.end(), byTime);
        std::sort(responses.begin(), responses.end(), byTime);
        // Requests not answered (or answered after the window): their slice, without a flow.
        for (const auto& [t, r] : requests)
            slice(i, kRequestTrack, r->begin, r->ended ? r->end : std::max(r->begin, end), r->args, nullptr, 0);
        // Responses still open: cut at the last phase seen; their flow still joins two slices.
        for (const auto& [t, r] : responses) {
            slice(i, kResponseTrack, r->begin, std::max(r->begin, end), r->args, r->flow ? "flow_in" : nullptr, r->flow);
            flows_ += r->flow != 0;
        }
        links_[i].requests.clear();
        links_[i].responses.clear();
    }
    std::fprintf(out_, "\n],\"otherData\":{\"time_unit\":\"1 us = 1 simulated us\",\"slices\":%" PRIu64
                       ",\"flows\":%" PRIu64 "}}\n",
                 slices_, flows_);
}

} // namespace gpusim
