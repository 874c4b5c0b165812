#pragma once
// `gpusim run --trace-tlm FILE.json`: the TLM phases of every link as Chrome/Perfetto trace-event
// JSON ({"traceEvents":[...]}, opened by ui.perfetto.dev and chrome://tracing). Each link is a
// process (pid = link index + 1, named by the link) with two tracks: tid 1 "request" holds a slice
// per transaction from BEGIN_REQ to END_REQ (or to the phase that implied END_REQ), tid 2
// "response" a slice from BEGIN_RESP to END_RESP. The TLM-2.0 base protocol lets one request and
// one response be in their phase on a link at a time, so slices on a track never overlap. A flow
// (v2: "bind_id" with "flow_out" on the request slice, "flow_in" on its response slice) joins a
// request to its answer on the same link. Slices are named by the access kind (read, write,
// writeback; the TLM command without a GpuExtension), args addr, len, sm, warp, pc, id.
// Timestamps are microseconds of simulated time with six decimals (exact at 1 ps resolution).
//
// A request slice is written when its response begins (so that it carries its flow id), or at
// finish() without a flow. Only phases inside the window [fromPs, toPs) open slices; a slice open
// at the window's end is cut there, one open at finish() ends at the last phase seen.
// Not drawn: B_TRANSPORT calls (the model makes none; written as zero-length request slices).
#include <cstdint>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include <tlm>

namespace gpusim {

class TlmPerfettoWriter {
public:
    enum class Phase { BeginReq, EndReq, BeginResp, EndResp, Blocking };

    TlmPerfettoWriter(std::FILE* out, uint64_t fromPs, uint64_t toPs);
    // Names link `index`'s process (links are numbered 0, 1, ... in the order they are added).
    void addLink(unsigned index, const std::string& name);
    void phase(unsigned link, Phase ph, uint64_t ps, const tlm::tlm_generic_payload& p);
    // Writes what is still open and the closing brackets. Call once.
    void finish();

    uint64_t slices() const { return slices_; }
    uint64_t flows() const { return flows_; }

private:
    // What a slice shows of its payload, taken when it begins (a payload may be reused later).
    struct Args {
        const char* name = "";
        uint64_t addr = 0, pc = 0, id = 0;
        unsigned len = 0;
        int sm = -1, warp = -1;
        bool extension = false;
    };
    struct Request {
        Args args;
        uint64_t begin = 0, end = 0;
        bool ended = false;
    };
    struct Response {
        Args args;
        uint64_t begin = 0, flow = 0;  // flow 0: none
    };
    struct Link {
        std::unordered_map<const tlm::tlm_generic_payload*, Request> requests;    // not yet answered
        std::unordered_map<const tlm::tlm_generic_payload*, Response> responses;  // not yet ended
    };
    static constexpr unsigned kRequestTrack = 1, kResponseTrack = 2;

    bool inWindow(uint64_t ps) const { return ps >= fromPs_ && ps < toPs_; }
    uint64_t cut(uint64_t ps) const { return ps < toPs_ ? ps : toPs_; }
    static Args argsOf(const tlm::tlm_generic_payload& p);
    void endRequest(Link& l, const tlm::tlm_generic_payload& p, uint64_t ps);
    void slice(unsigned link, unsigned track, uint64_t from, uint64_t to, const Args& a, const char* flowKey,
               uint64_t flow);
    void ts(const char* key, uint64_t ps);

    std::FILE* out_;
    uint64_t fromPs_, toPs_, lastPs_ = 0, nextFlow_ = 1, slices_ = 0, flows_ = 0;
    std::vector<Link> links_;
    bool first_ = true;
};

} // namespace gpusim
