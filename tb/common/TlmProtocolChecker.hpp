#pragma once
// A TLM-2.0 AT base-protocol checker that can be spliced into any link of the platform (it is a
// LinkInterposer), plus a LinkHook factory that puts one on every link of a Gpu.
//
// The checker forwards every call unchanged (nb_transport_fw/bw, b_transport, transport_dbg,
// DMI) and returns exactly what the other side returned; around each call it checks, per payload
// and per link:
//   - BEGIN_REQ only when no other request on this link awaits END_REQ, and only for a payload
//     that has no open transaction on this link;
//   - END_REQ (explicit on the backward path, or TLM_UPDATED + END_REQ returned to BEGIN_REQ)
//     only for the request that is open;
//   - BEGIN_RESP (explicit, or TLM_UPDATED + BEGIN_RESP returned to BEGIN_REQ) only after that
//     payload's BEGIN_REQ (it may imply END_REQ), and only when no other response on this link
//     awaits END_RESP;
//   - END_RESP (explicit on the forward path, or TLM_UPDATED + END_RESP returned to BEGIN_RESP)
//     only for the response that is open;
//   - TLM_COMPLETED, returned from any call, ends the transaction; no phase may follow it;
//   - TLM_ACCEPTED leaves the phase argument unchanged; phases travel only in their direction;
//   - the payload has a GpuExtension, is not passed with a reference count of 0 while it has a
//     memory manager, and keeps its request id, address and command until the answer;
//   - an answer is never TLM_INCOMPLETE_RESPONSE, and a read answer is TLM_OK_RESPONSE;
//   - b_transport never targets a payload in the middle of an nb_transport sequence.
// Violations are recorded as strings ("<link>: <rule> [payload ...] at <time>"), never thrown,
// so one run reports all of them. At the end of a run, openTransactions() must be 0.
//
// The rules live in AtProtocolMonitor (plain C++, no SystemC process or socket), so they can be
// exercised call by call; TlmProtocolChecker wraps it in the two sockets.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/GpuExtension.hpp"
#include "common/LinkInterposer.hpp"

namespace gpusim::tb {

class AtProtocolMonitor {
public:
    using Payload = tlm::tlm_generic_payload;

    // How often each protocol path was taken, so a test can tell that a path it means to cover
    // (back-pressure by late END_REQ, a held response) really crossed the checker.
    struct Paths {
        uint64_t endReqReturned = 0;   // TLM_UPDATED/END_REQ returned to BEGIN_REQ
        uint64_t endReqLate = 0;       // explicit END_REQ on the backward path (back-pressure)
        uint64_t respImpliedEndReq = 0;  // BEGIN_RESP while the request still awaited END_REQ
        uint64_t respReturned = 0;     // TLM_UPDATED/BEGIN_RESP returned to BEGIN_REQ
        uint64_t completedAtReq = 0;   // TLM_COMPLETED returned to BEGIN_REQ
        uint64_t completedAtResp = 0;  // TLM_COMPLETED or TLM_UPDATED/END_RESP returned to BEGIN_RESP
        uint64_t endRespLate = 0;      // explicit END_RESP on the forward path (held response)
    };

    explicit AtProtocolMonitor(std::string link, size_t maxRecorded = 1000)
        : link_(std::move(link)), maxRecorded_(maxRecorded) {}

    // ---- nb_transport_fw: before the call goes to the target, and after it returned.
    void beforeFw(Payload& p, const tlm::tlm_phase& ph) {
        checkPayload(p, "nb_transport_fw");
        if (ph == tlm::BEGIN_REQ) {
            if (Txn* t = find(p)) {
                violation(p, "BEGIN_REQ for a payload whose transaction is still open (" +
                                 std::string(stageName(t->stage)) + ")");
                forget(p);
            }
            if (reqOpen_ && reqOpen_ != &p)
                violation(p, "BEGIN_REQ while another request (" + describe(*reqOpen_) +
                                 ") awaits END_REQ");
            if (!hasExtension(p)) violation(p, "payload without GpuExtension");
            Txn t;
            t.stage = Stage::Request;
            t.seq = transactions_++;
            t.id = requestId(p);
            t.address = p.get_address();
            t.command = p.get_command();
            t.begin = sc_core::sc_time_stamp();
            open_[&p] = t;
            reqOpen_ = &p;
            return;
        }
        if (ph == tlm::END_RESP) {
            Txn* t = find(p);
            if (!t || t->stage != Stage::Response) {
                violation(p, std::string("END_RESP for a payload without an open response (") +
                                 (t ? stageName(t->stage) : "no open transaction: unknown or completed") + ")");
                return;
            }
            ++paths_.endRespLate;
            complete(p);
            return;
        }
        if (ph == tlm::END_REQ || ph == tlm::BEGIN_RESP) {
            violation(p, phaseName(ph) + " sent on the forward path");
            return;
        }
        violation(p, "unexpected phase " + phaseName(ph) + " on the forward path");
    }

    // Both directions: TLM_ACCEPTED must hand the phase back unchanged.
    void checkAcceptedKeepsPhase(Payload& p, const tlm::tlm_phase& sent, const tlm::tlm_phase& returned) {
        if (returned != sent)
            violation(p, "TLM_ACCEPTED returned to " + phaseName(sent) + " with the phase changed to " +
                             phaseName(returned));
    }

    void afterFw(Payload& p, const tlm::tlm_phase& sent, const tlm::tlm_phase& returned,
                 tlm::tlm_sync_enum status) {
        switch (status) {
        case tlm::TLM_ACCEPTED:
            checkAcceptedKeepsPhase(p, sent, returned);
            return;
        case tlm::TLM_UPDATED:
            if (sent == tlm::BEGIN_REQ && returned == tlm::END_REQ) {
                ++paths_.endReqReturned;
                endRequest(p, "TLM_UPDATED/END_REQ");
            } else if (sent == tlm::BEGIN_REQ && returned == tlm::BEGIN_RESP) {
                ++paths_.respReturned;
                beginResponse(p, "TLM_UPDATED/BEGIN_RESP");
            } else {
                violation(p, "TLM_UPDATED with " + phaseName(returned) + " returned to " + phaseName(sent));
            }
            return;
        case tlm::TLM_COMPLETED:
            if (sent == tlm::BEGIN_REQ) {
                // The target answered and finished the transaction in one call.
                ++paths_.completedAtReq;
                if (Txn* t = find(p)) checkAnswer(p, *t);
            }
            complete(p);
            return;
        }
    }

    // ---- nb_transport_bw: before the call goes to the initiator, and after it returned.
    void beforeBw(Payload& p, const tlm::tlm_phase& ph) {
        checkPayload(p, "nb_transport_bw");
        if (ph == tlm::END_REQ) {
            ++paths_.endReqLate;
            endRequest(p, "END_REQ");
            return;
        }
        if (ph == tlm::BEGIN_RESP) {
            beginResponse(p, "BEGIN_RESP");
            return;
        }
        if (ph == tlm::BEGIN_REQ || ph == tlm::END_RESP) {
            violation(p, phaseName(ph) + " sent on the backward path");
            return;
        }
        violation(p, "unexpected phase " + phaseName(ph) + " on the backward path");
    }

    void afterBw(Payload& p, const tlm::tlm_phase& sent, const tlm::tlm_phase& returned,
                 tlm::tlm_sync_enum status) {
        switch (status) {
        case tlm::TLM_ACCEPTED:
            checkAcceptedKeepsPhase(p, sent, returned);
            return;
        case tlm::TLM_UPDATED:
            if (sent == tlm::BEGIN_RESP && returned == tlm::END_RESP) {
                Txn* t = find(p);
                if (!t || t->stage != Stage::Response) {
                    violation(p, "TLM_UPDATED/END_RESP for a payload without an open response");
                    return;
                }
                ++paths_.completedAtResp;
                complete(p);
            } else {
                violation(p, "TLM_UPDATED with " + phaseName(returned) + " returned to " + phaseName(sent));
            }
            return;
        case tlm::TLM_COMPLETED:
            if (sent == tlm::BEGIN_RESP) ++paths_.completedAtResp;
            complete(p);
            return;
        }
    }

    // ---- b_transport (the model does not use it, but a user's component may).
    void beforeB(Payload& p) {
        if (find(p)) violation(p, "b_transport for a payload in the middle of an nb_transport sequence");
        if (!hasExtension(p)) violation(p, "payload without GpuExtension");
        ++transactions_;
        ++blocking_;
    }
    void afterB(Payload& p) {
        if (p.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE)
            violation(p, "b_transport returned with TLM_INCOMPLETE_RESPONSE");
        else if (p.is_read() && p.get_response_status() != tlm::TLM_OK_RESPONSE)
            violation(p, "read answered with " + p.get_response_string());
        ++completed_;
    }
    void onDebug() { ++debug_; }

    // ---- results
    const std::string& link() const { return link_; }
    // The first maxRecorded violations; violationCount() counts all of them.
    const std::vector<std::string>& violations() const { return violations_; }
    uint64_t violationCount() const { return violationCount_; }
    uint64_t transactions() const { return transactions_; }  // BEGIN_REQs plus b_transport calls
    uint64_t completed() const { return completed_; }
    uint64_t blockingCalls() const { return blocking_; }
    uint64_t debugCalls() const { return debug_; }
    size_t openTransactions() const { return open_.size(); }
    const Paths& paths() const { return paths_; }
    // One line per open transaction, oldest first.
    std::string describeOpen() const {
        std::vector<std::pair<uint64_t, std::string>> lines;
        for (const auto& [p, t] : open_) {
            std::ostringstream os;
            os << link_ << ": open since " << t.begin << " in " << stageName(t.stage) << " [id "
               << t.id << " addr 0x" << std::hex << t.address << std::dec << "]";
            lines.emplace_back(t.seq, os.str());
        }
        std::sort(lines.begin(), lines.end());
        std::string out;
        for (const auto& l : lines) out += l.second + "\n";
        return out;
    }

private:
    enum class Stage {
        Request,    // BEGIN_REQ sent, END_REQ not yet
        Requested,  // END_REQ seen, BEGIN_RESP not yet
        Response,   // BEGIN_RESP sent, END_RESP not yet
    };
    struct Txn {
        Stage stage = Stage::Request;
        uint64_t seq = 0;
        uint64_t id = 0;
        uint64_t address = 0;
        tlm::tlm_command command = tlm::TLM_IGNORE_COMMAND;
        sc_core::sc_time begin;
    };

    static const char* stageName(Stage s) {
        switch (s) {
        case Stage::Request: return "request phase, awaiting END_REQ";
        case Stage::Requested: return "request accepted, awaiting BEGIN_RESP";
        case Stage::Response: return "response phase, awaiting END_RESP";
        }
        return "?";
    }
    static std::string phaseName(const tlm::tlm_phase& ph) {
        std::ostringstream os;
        os << ph;
        return os.str();
    }
    static bool hasExtension(const Payload& p) {
        return p.get_extension<GpuExtension>() != nullptr;
    }
    static uint64_t requestId(const Payload& p) {
        const GpuExtension* e = p.get_extension<GpuExtension>();
        return e ? e->requestId : ~uint64_t(0);
    }
    std::string describe(const Payload& p) const {
        std::ostringstream os;
        os << (p.is_read() ? "read" : p.is_write() ? "write" : "ignore") << " 0x" << std::hex
           << p.get_address() << std::dec;
        if (const GpuExtension* e = p.get_extension<GpuExtension>()) {
            os << " id " << e->requestId << " " << accessKindName(e->kind);
            if (e->smId >= 0) os << " sm " << e->smId;
        } else {
            os << " (no GpuExtension)";
        }
        return os.str();
    }

    Txn* find(const Payload& p) {
        auto it = open_.find(&p);
        return it == open_.end() ? nullptr : &it->second;
    }
    void forget(const Payload& p) {
        open_.erase(&p);
        if (reqOpen_ == &p) reqOpen_ = nullptr;
        if (respOpen_ == &p) respOpen_ = nullptr;
    }
    void complete(const Payload& p) {
        if (open_.erase(&p)) ++completed_;
        if (reqOpen_ == &p) reqOpen_ = nullptr;
        if (respOpen_ == &p) respOpen_ = nullptr;
    }

    void checkPayload(const Payload& p, const char* call) {
        if (p.has_mm() && p.get_ref_count() == 0)
            violation(p, std::string("payload with a memory manager passed to ") + call +
                             " with reference count 0 (already released)");
    }

    void endRequest(const Payload& p, const char* how) {
        Txn* t = find(p);
        if (!t || t->stage != Stage::Request || reqOpen_ != &p) {
            violation(p, std::string(how) + " for a payload whose request is not open (" +
                             (t ? stageName(t->stage) : "no open transaction: unknown or completed") + ")");
            return;
        }
        t->stage = Stage::Requested;
        reqOpen_ = nullptr;
    }

    void beginResponse(const Payload& p, const char* how) {
        Txn* t = find(p);
        if (!t || t->stage == Stage::Response) {
            violation(p, std::string(how) + " for a payload without an open request (" +
                             (t ? stageName(t->stage) : "no open transaction: unknown or completed") + ")");
            return;
        }
        if (respOpen_ && respOpen_ != &p)
            violation(p, std::string(how) + " while another response (" + describe(*respOpen_) +
                             ") awaits END_RESP");
        if (t->stage == Stage::Request) {  // BEGIN_RESP implies END_REQ
            ++paths_.respImpliedEndReq;
            if (reqOpen_ == &p) reqOpen_ = nullptr;
        }
        checkAnswer(p, *t);
        t->stage = Stage::Response;
        respOpen_ = &p;
    }

    void checkAnswer(const Payload& p, const Txn& t) {
        if (p.get_response_status() == tlm::TLM_INCOMPLETE_RESPONSE)
            violation(p, "answer with TLM_INCOMPLETE_RESPONSE (the target did not set a status)");
        else if (t.command == tlm::TLM_READ_COMMAND && p.get_response_status() != tlm::TLM_OK_RESPONSE)
            violation(p, "read answered with " + p.get_response_string());
        if (requestId(p) != t.id)
            violation(p, "answer carries request id " + std::to_string(requestId(p)) + ", the request had " +
                             std::to_string(t.id));
        if (p.get_address() != t.address || p.get_command() != t.command)
            violation(p, "address or command changed between the request and its answer");
    }

    void violation(const Payload& p, const std::string& rule) {
        ++violationCount_;
        if (violations_.size() >= maxRecorded_) return;
        std::ostringstream os;
        os << link_ << ": " << rule << " [" << describe(p) << "] at " << sc_core::sc_time_stamp();
        violations_.push_back(os.str());
    }

    std::string link_;
    size_t maxRecorded_;
    std::map<const Payload*, Txn> open_;  // only looked up, never iterated for a decision
    const Payload* reqOpen_ = nullptr;    // request awaiting END_REQ on this link
    const Payload* respOpen_ = nullptr;   // response awaiting END_RESP on this link
    std::vector<std::string> violations_;
    uint64_t violationCount_ = 0;
    uint64_t transactions_ = 0, completed_ = 0, blocking_ = 0, debug_ = 0;
    Paths paths_;
};

class TlmProtocolChecker : public sc_core::sc_module, public LinkInterposer {
public:
    using Payload = tlm::tlm_generic_payload;

    TlmProtocolChecker(sc_core::sc_module_name name, const std::string& link)
        : sc_module(name), target_("in"), initiator_("out"), monitor_(link) {
        target_.register_nb_transport_fw(this, &TlmProtocolChecker::fw);
        target_.register_b_transport(this, &TlmProtocolChecker::blocking);
        target_.register_transport_dbg(this, &TlmProtocolChecker::debug);
        target_.register_get_direct_mem_ptr(this, &TlmProtocolChecker::dmi);
        initiator_.register_nb_transport_bw(this, &TlmProtocolChecker::bw);
        initiator_.register_invalidate_direct_mem_ptr(this, &TlmProtocolChecker::invalidate);
    }

    tlm::tlm_target_socket<32>& in() override { return target_; }
    tlm::tlm_initiator_socket<32>& out() override { return initiator_; }

    const std::string& link() const { return monitor_.link(); }
    const std::vector<std::string>& violations() const { return monitor_.violations(); }
    uint64_t violationCount() const { return monitor_.violationCount(); }
    uint64_t transactions() const { return monitor_.transactions(); }
    uint64_t completed() const { return monitor_.completed(); }
    size_t openTransactions() const { return monitor_.openTransactions(); }
    std::string describeOpen() const { return monitor_.describeOpen(); }
    const AtProtocolMonitor& monitor() const { return monitor_; }

    // The module name a checker on `link` gets ("sm3->noc" -> "check_sm3_to_noc").
    static std::string moduleNameFor(const std::string& link) { return interposerModuleName("check_", link); }

private:
    tlm::tlm_sync_enum fw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
        const tlm::tlm_phase sent = ph;
        monitor_.beforeFw(p, sent);
        const tlm::tlm_sync_enum s = initiator_->nb_transport_fw(p, ph, t);
        monitor_.afterFw(p, sent, ph, s);
        return s;
    }
    tlm::tlm_sync_enum bw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
        const tlm::tlm_phase sent = ph;
        monitor_.beforeBw(p, sent);
        const tlm::tlm_sync_enum s = target_->nb_transport_bw(p, ph, t);
        monitor_.afterBw(p, sent, ph, s);
        return s;
    }
    void blocking(Payload& p, sc_core::sc_time& t) {
        monitor_.beforeB(p);
        initiator_->b_transport(p, t);
        monitor_.afterB(p);
    }
    unsigned debug(Payload& p) {
        monitor_.onDebug();
        return initiator_->transport_dbg(p);
    }
    bool dmi(Payload& p, tlm::tlm_dmi& d) { return initiator_->get_direct_mem_ptr(p, d); }
    void invalidate(sc_dt::uint64 a, sc_dt::uint64 b) { target_->invalidate_direct_mem_ptr(a, b); }

    tlm_utils::simple_target_socket<TlmProtocolChecker> target_;
    tlm_utils::simple_initiator_socket<TlmProtocolChecker> initiator_;
    AtProtocolMonitor monitor_;
};

// Installs a TlmProtocolChecker on every link a Gpu asks about and keeps pointers to them. The
// Gpu owns the checkers: read them while it is alive.
//
//     ProtocolCheckers checkers;
//     Gpu gpu("gpu", cfg, policy, *wl, stats, checkers.hook());
//     gpu.run({});
//     EXPECT_EQ(checkers.violationCount(), 0u) << checkers.report();
class ProtocolCheckers {
public:
    LinkHook hook() {
        return [this](const std::string& link) -> std::unique_ptr<LinkInterposer> {
            auto c = std::make_unique<TlmProtocolChecker>(TlmProtocolChecker::moduleNameFor(link).c_str(), link);
            checkers_.push_back(c.get());
            return c;
        };
    }

    const std::vector<TlmProtocolChecker*>& all() const { return checkers_; }
    size_t size() const { return checkers_.size(); }
    const TlmProtocolChecker* find(const std::string& link) const {
        for (const auto* c : checkers_)
            if (c->link() == link) return c;
        return nullptr;
    }
    std::vector<std::string> links() const {
        std::vector<std::string> out;
        for (const auto* c : checkers_) out.push_back(c->link());
        return out;
    }

    uint64_t violationCount() const {
        uint64_t n = 0;
        for (const auto* c : checkers_) n += c->violationCount();
        return n;
    }
    uint64_t openTransactions() const {
        uint64_t n = 0;
        for (const auto* c : checkers_) n += c->openTransactions();
        return n;
    }
    // Sum of transactions() over the links whose name matches prefix*suffix.
    uint64_t transactions(const std::string& prefix = "", const std::string& suffix = "") const {
        uint64_t n = 0;
        for (const auto* c : checkers_)
            if (matches(c->link(), prefix, suffix)) n += c->transactions();
        return n;
    }

    // Path counts summed over the links whose name matches prefix*suffix.
    AtProtocolMonitor::Paths paths(const std::string& prefix = "", const std::string& suffix = "") const {
        AtProtocolMonitor::Paths sum;
        for (const auto* c : checkers_) {
            if (!matches(c->link(), prefix, suffix)) continue;
            const auto& p = c->monitor().paths();
            sum.endReqReturned += p.endReqReturned;
            sum.endReqLate += p.endReqLate;
            sum.respImpliedEndReq += p.respImpliedEndReq;
            sum.respReturned += p.respReturned;
            sum.completedAtReq += p.completedAtReq;
            sum.completedAtResp += p.completedAtResp;
            sum.endRespLate += p.endRespLate;
        }
        return sum;
    }

    // Every recorded violation and open transaction (at most maxLines lines), for a failure message.
    std::string report(size_t maxLines = 40) const {
        std::ostringstream os;
        size_t lines = 0;
        for (const auto* c : checkers_) {
            for (const auto& v : c->violations()) {
                if (lines++ < maxLines) os << "  violation: " << v << "\n";
            }
            std::istringstream open(c->describeOpen());
            for (std::string l; std::getline(open, l);)
                if (lines++ < maxLines) os << "  open: " << l << "\n";
        }
        if (lines > maxLines) os << "  ... " << (lines - maxLines) << " more lines\n";
        return os.str();
    }

private:
    static bool matches(const std::string& l, const std::string& prefix, const std::string& suffix) {
        return l.size() >= prefix.size() + suffix.size() && l.compare(0, prefix.size(), prefix) == 0 &&
               l.compare(l.size() - suffix.size(), suffix.size(), suffix) == 0;
    }
    std::vector<TlmProtocolChecker*> checkers_;
};

} // namespace gpusim::tb
