#include "memory/OwlPrefetcher.hpp"

#include <algorithm>
#include <sstream>

#include "common/Stats.hpp"

namespace gpusim {

OwlPrefetcher::OwlPrefetcher(const OwlPrefetchParams& p, const AddressMap& map, unsigned partition,
                             unsigned lineBytes, unsigned burstBytes, StatRegistry& stats,
                             const std::string& prefix)
    : p_(p),
      map_(map),
      partition_(partition),
      lineBytes_(lineBytes),
      burstBytes_(burstBytes),
      linesPerRow_(static_cast<unsigned>(std::max<uint64_t>(1, map.dramGeometry().rowBytes / lineBytes))),
      burstsPerLine_(static_cast<unsigned>(std::max<uint64_t>(1, (lineBytes_ + burstBytes_ - 1) / burstBytes_))),
      banks_(map.dramGeometry().banks),
      c_(p.minLines),
      lines_(stats.counter(prefix + "prefetch_lines",
                           "Lines prefetched from open rows into the L2 (each burst also counts in cmd_rd)")),
      episodes_(stats.counter(prefix + "prefetch_episodes", "Row activations in which at least one line was prefetched")),
      stoppedByDemand_(stats.counter(prefix + "prefetch_stopped_by_demand",
                                     "Prefetching rows closed with lines left, for a demand to another row "
                                     "(after at least C lines)")),
      rowsExhausted_(stats.counter(prefix + "prefetch_rows_exhausted",
                                   "Rows whose every line was read, the last by a prefetch")),
      heldPreCycles_(stats.counter(prefix + "prefetch_held_pre_cycles",
                                   "Cycles a demand's PRE was refused because fewer than C lines of the open "
                                   "row were prefetched")) {}

void OwlPrefetcher::activated(unsigned bank, uint64_t row) {
    Bank& b = banks_.at(bank);
    b.open = true;
    b.row = row;
    b.fetched.assign(linesPerRow_, 0);
    b.unfetched = linesPerRow_;
    b.prefetched = 0;
    b.inLine = false;
}

void OwlPrefetcher::markFetched(Bank& b, uint64_t column) {
    const uint64_t i = column / lineBytes_;
    if (i < b.fetched.size() && !b.fetched[i]) {
        b.fetched[i] = 1;
        --b.unfetched;
    }
}

void OwlPrefetcher::demandColumn(unsigned bank, uint64_t column) {
    Bank& b = banks_.at(bank);
    if (b.open) markFetched(b, column);
}

void OwlPrefetcher::precharged(unsigned bank) {
    Bank& b = banks_.at(bank);
    if (b.prefetched > 0 && b.unfetched > 0) stoppedByDemand_.inc();
    b.open = false;
    b.inLine = false;
}

void OwlPrefetcher::update(const std::vector<DramRequest>& queue) {
    for (Bank& b : banks_) b.hitQueued = b.otherQueued = false;
    for (const DramRequest& r : queue) {
        Bank& b = banks_[r.coord.bank];
        if (!b.open) continue;
        (r.coord.row == b.row ? b.hitQueued : b.otherQueued) = true;
    }
    c_ = queue.size() < p_.queueThreshold ? p_.minLinesHigh : p_.minLines;
    demandQueued_ = !queue.empty();
}

bool OwlPrefetcher::holds(unsigned bank) const {
    const Bank& b = banks_.at(bank);
    // Only a row whose prefetching has begun is held ("at least C lines regardless of whether or
    // not a demand arrives"): a row that has not started is closed as FR-FCFS decides.
    return b.open && (b.inLine || (b.prefetched > 0 && b.prefetched < c_ && b.unfetched > 0));
}

void OwlPrefetcher::heldPre() const { heldPreCycles_.inc(); }

std::optional<uint64_t> OwlPrefetcher::firstUnfetched(const Bank& b) const {
    for (size_t i = 0; i < b.fetched.size(); ++i)
        if (!b.fetched[i]) return i * lineBytes_;
    return std::nullopt;
}

std::optional<OwlPrefetcher::Burst> OwlPrefetcher::pick(const DramTimingChecker& timing, uint64_t cycle) const {
    int best = -1;
    int bestKey = 0;
    for (unsigned i = 0; i < banks_.size(); ++i) {
        const Bank& b = banks_[i];
        if (!b.open) continue;
        if (!b.inLine) {
            if (!demandQueued_ || b.hitQueued || b.unfetched == 0) continue;
            // Start only on a bank with no demand at all: a demand to another row already waiting
            // when the open row's demands run out closes the row now (no "more demand requests to
            // an open row", but the bank is not idle). Once started, at least C lines, then a
            // demand to another row stops it.
            if (b.otherQueued && (b.prefetched == 0 || b.prefetched >= c_)) continue;
        }
        if (!timing.allowed(DramCmd::Rd, i, cycle)) continue;
        const int key = b.inLine ? 0 : (b.otherQueued ? 1 : 2);
        if (best < 0 || key < bestKey) {
            best = static_cast<int>(i);
            bestKey = key;
        }
    }
    if (best < 0) return std::nullopt;
    const Bank& b = banks_[static_cast<size_t>(best)];
    const uint64_t column = b.inLine ? b.nextColumn : *firstUnfetched(b);
    return Burst{static_cast<unsigned>(best), b.row, column};
}

void OwlPrefetcher::issued(const Burst& burst, uint64_t dataEnd) {
    Bank& b = banks_.at(burst.bank);
    if (!b.inLine) {
        b.inLine = true;
        b.lineColumn = burst.column;
        b.nextColumn = burst.column;
        b.burstsLeft = burstsPerLine_;
        markFetched(b, burst.column);
        if (b.prefetched == 0) episodes_.inc();
        ++linesInProgress_;
    }
    b.nextColumn += burstBytes_;
    if (--b.burstsLeft > 0) return;
    b.inLine = false;
    --linesInProgress_;
    ++b.prefetched;
    lines_.inc();
    if (b.unfetched == 0) rowsExhausted_.inc();
    const uint64_t local = map_.encodeLocal({burst.bank, b.row, b.lineColumn});
    deliveries_.emplace_back(dataEnd, map_.globalAddress(partition_, local));
}

void OwlPrefetcher::deliver(uint64_t cycle, const PrefetchFill& fill) {
    while (!deliveries_.empty() && deliveries_.front().first <= cycle) {
        const uint64_t line = deliveries_.front().second;
        deliveries_.pop_front();
        if (fill) fill(line);
    }
}

std::string OwlPrefetcher::dumpState() const {
    std::ostringstream os;
    os << "prefetch: " << linesInProgress_ << " lines being read, " << deliveries_.size() << " awaiting delivery";
    return os.str();
}

} // namespace gpusim
