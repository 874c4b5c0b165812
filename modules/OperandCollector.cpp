#include "modules/OperandCollector.hpp"

#include <algorithm>
#include <sstream>

namespace gpusim {

OperandCollector::OperandCollector(const CollectorConfig& cfg, StatRegistry& stats, const std::string& prefix)
    : banks_(cfg.banks), queues_(cfg.banks), written_(cfg.banks, 0),
      reads_(stats.counter(prefix + "reads", "Source-register reads served by the register banks")),
      bankConflicts_(stats.counter(prefix + "bank_conflicts",
                                   "Reads that waited a cycle behind another read of their bank (summed per cycle)")),
      writeConflicts_(stats.counter(prefix + "write_conflicts",
                                    "Cycles a bank with reads waiting served none because a result was written to it")) {
    for (unsigned s = 0; s < kCollectorSets; ++s) {
        sets_[s].ports = cfg.ports[s];
        sets_[s].units.resize(cfg.units[s]);
        // Each dispatch unit starts its round-robin search at collector unit 0.
        sets_[s].lastDispatched.assign(cfg.ports[s], cfg.units[s] - 1);
    }
}

void OperandCollector::issue(CollectorSet s, unsigned warp, const WarpInstruction& inst) {
    set(s).in.push_back({nextSeq_++, warp, inst});
    ++occupied_;
}

void OperandCollector::write(unsigned warp, uint16_t reg) {
    // Uniform registers and predicates have files of their own, outside the banks.
    if (reg != kNoReg && isVectorRegister(reg)) written_[bank(reg, warp, banks_)] = 1;
}

void OperandCollector::step() {
    for (Set& s : sets_) dispatch(s);
    serveReads();
    for (unsigned s = 0; s < kCollectorSets; ++s) allocate(s);
    std::fill(written_.begin(), written_.end(), 0);
}

// GPGPU-Sim's dispatch_unit_t::find_ready: a unit is ready when all its operands are read and the
// execute register has room.
void OperandCollector::dispatch(Set& s) {
    const unsigned n = static_cast<unsigned>(s.units.size());
    for (unsigned& last : s.lastDispatched) {
        if (s.out.size() >= s.ports) return;
        for (unsigned i = 1; i <= n; ++i) {
            const unsigned c = (last + i) % n;
            Unit& u = s.units[c];
            if (!u.busy || u.pending) continue;
            s.out.push_back(std::move(u.entry));
            u.busy = false;
            last = c;
            break;
        }
    }
}

void OperandCollector::serveReads() {
    for (unsigned b = 0; b < banks_; ++b) {
        auto& q = queues_[b];
        if (q.empty()) continue;
        if (written_[b]) {
            writeConflicts_.inc();
            continue;
        }
        const auto [s, u] = q.front();
        q.pop_front();
        --sets_[s].units[u].pending;
        reads_.inc();
        bankConflicts_.inc(q.size());
    }
}

// GPGPU-Sim's allocate_cu, once per input port: the oldest instruction of the issue register
// into the first free collector unit; no free unit stops the set for this cycle.
void OperandCollector::allocate(unsigned setIndex) {
    Set& s = sets_[setIndex];
    for (unsigned p = 0; p < s.ports && !s.in.empty(); ++p) {
        auto free = std::find_if(s.units.begin(), s.units.end(), [](const Unit& u) { return !u.busy; });
        if (free == s.units.end()) return;
        const auto it = s.in.begin() + (oldest(s.in) - s.in.cbegin());
        Unit& u = *free;
        u.busy = true;
        u.entry = std::move(*it);
        s.in.erase(it);
        u.pending = 0;
        const WarpInstruction& in = u.entry.inst;
        for (unsigned k = 0; k < in.numSrc; ++k) {
            const uint16_t r = in.src[k];
            if (r == kNoReg || !isVectorRegister(r)) continue;  // uniform and predicate files: no bank read
            if (std::find(in.src.begin(), in.src.begin() + k, r) != in.src.begin() + k) continue;  // read once
            queues_[bank(r, u.entry.warp, banks_)].emplace_back(uint8_t(setIndex),
                                                               uint16_t(free - s.units.begin()));
            ++u.pending;
        }
    }
}

std::deque<OperandCollector::Entry>::const_iterator OperandCollector::oldest(const std::deque<Entry>& q) {
    return std::min_element(q.begin(), q.end(), [](const Entry& a, const Entry& b) { return a.seq < b.seq; });
}

const OperandCollector::Entry* OperandCollector::ready(CollectorSet s) const {
    const auto& q = set(s).out;
    return q.empty() ? nullptr : &*oldest(q);
}

void OperandCollector::pop(CollectorSet s) {
    auto& q = set(s).out;
    q.erase(q.begin() + (oldest(q) - q.cbegin()));
    --occupied_;
}

std::string OperandCollector::dumpState() const {
    static const char* names[kCollectorSets] = {"alu", "sfu", "mem", "tensor"};
    std::ostringstream os;
    os << "collector";
    for (unsigned s = 0; s < kCollectorSets; ++s) {
        const Set& st = sets_[s];
        const auto busy = std::count_if(st.units.begin(), st.units.end(), [](const Unit& u) { return u.busy; });
        os << " " << names[s] << " " << st.in.size() << "/" << busy << "/" << st.out.size();
    }
    os << " (issue register/units/execute register)";
    return os.str();
}

} // namespace gpusim
