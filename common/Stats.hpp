#pragma once
// Statistics registry: every statistic has a hierarchical dotted name ("sm3.l1d.misses",
// "l2.slice2.hits", "noc.req.packets") and a description. Counters, averages and histograms;
// dumped as JSON (flat, sorted by name, so output is deterministic) and read back by name in
// tests and in the end-of-run summary. Units keep references to their stats and update them in
// plain C++ on the hot path; the registry is only walked at the end.
// A unit may count some statistics late (an SM asleep adds its slept cycles when it wakes): it
// registers a settler, which every read through the registry runs first, so that a read at any
// time (a co-simulation reading mid-run, a run stopped by the watchdog) sees what counting every
// cycle would have given. Read statistics through the registry, not through kept references.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include <boost/histogram.hpp>
#include <nlohmann/json.hpp>

#include "common/JsonText.hpp"

namespace gpusim {

class Stat {
public:
    explicit Stat(std::string desc) : desc_(std::move(desc)) {}
    virtual ~Stat() = default;
    virtual nlohmann::json toJson() const = 0;
    // The same value as text (writeJson of the registry); a kind without its own goes through
    // toJson().
    virtual void writeJson(JsonText& out) const { out.value(toJson()); }
    // The single number the summary and comparisons use (count, mean, ...).
    virtual double value() const = 0;
    const std::string& description() const { return desc_; }

private:
    std::string desc_;
};

class Counter : public Stat {
public:
    using Stat::Stat;
    void inc(uint64_t n = 1) { v_ += n; }
    uint64_t get() const { return v_; }
    nlohmann::json toJson() const override { return v_; }
    void writeJson(JsonText& out) const override { out.value(v_); }
    double value() const override { return double(v_); }

private:
    uint64_t v_ = 0;
};

// Mean of samples (e.g. average load latency); JSON holds mean, count, sum, min, max.
class Average : public Stat {
public:
    using Stat::Stat;
    // Inline: sampled every cycle by every awake SM, NoC subnet and DRAM controller, where the
    // call cost as much as the sample (issue 19).
    void sample(double x) {
        if (runN_) settleRun();
        add(x);
    }
    // `n` samples of x at once. Bit-identical to n calls for integral x (every partial sum is
    // an integer below 2^53, so each addition is exact either way).
    void sample(double x, uint64_t n) {
        if (n == 0) return;
        sample(x);
        n_ += n - 1;
        sum_ += x * double(n - 1);
    }
    // An integral level sampled every cycle (an occupancy, a count of busy banks): a run of equal
    // samples is only counted, and added as sample(x, n) when the level changes or the statistic
    // is read. The same figures as sample(x) each cycle, by the argument above; a comparison and
    // an increment per cycle instead of the minimum, maximum and sum (issue 19).
    void sampleLevel(uint64_t x) {
        if (x == runX_ && runN_) {
            ++runN_;
            return;
        }
        if (runN_) settleRun();
        runX_ = x;
        runN_ = 1;
    }
    // `n` cycles of the level x at once.
    void sampleLevel(uint64_t x, uint64_t n) {
        if (n == 0) return;
        if (x == runX_ && runN_) {
            runN_ += n;
            return;
        }
        if (runN_) settleRun();
        runX_ = x;
        runN_ = n;
    }
    uint64_t count() const { return n_ + runN_; }
    double mean() const {
        const Totals t = totals();
        return t.n ? t.sum / double(t.n) : 0.0;
    }
    nlohmann::json toJson() const override;
    void writeJson(JsonText& out) const override;
    double value() const override { return mean(); }

private:
    struct Totals {
        uint64_t n;
        double sum, min, max;
    };
    void add(double x) {
        if (n_ == 0) {
            min_ = max_ = x;
        } else {
            min_ = x < min_ ? x : min_;
            max_ = x > max_ ? x : max_;
        }
        ++n_;
        sum_ += x;
    }
    void settleRun() {
        const uint64_t n = runN_;
        runN_ = 0;
        sample(double(runX_), n);
    }
    // The figures with a pending run of sampleLevel() included, as settleRun() would leave them.
    Totals totals() const {
        if (!runN_) return {n_, sum_, min_, max_};
        const double x = double(runX_);
        if (n_ == 0) return {runN_, 0.0 + x + x * double(runN_ - 1), x, x};
        return {n_ + runN_, sum_ + x + x * double(runN_ - 1), x < min_ ? x : min_, x > max_ ? x : max_};
    }

    uint64_t n_ = 0;
    double sum_ = 0, min_ = 0, max_ = 0;
    uint64_t runX_ = 0, runN_ = 0;  // a pending run of runN_ samples of runX_ (sampleLevel)
};

// Fixed-width buckets over [0, buckets*width) plus an overflow bin (boost::histogram), with
// exact count/sum/min/max kept beside it; percentiles are read off the buckets (upper edge).
class Histogram : public Stat {
public:
    Histogram(std::string desc, double width, unsigned buckets);
    void sample(double x);
    uint64_t count() const { return n_; }
    double mean() const { return n_ ? sum_ / double(n_) : 0.0; }
    double percentile(double p) const;
    nlohmann::json toJson() const override;
    void writeJson(JsonText& out) const override;
    double value() const override { return mean(); }

private:
    // f(lower edge, count) for every non-empty bucket in order, the overflow bin last (its edge:
    // the axis' upper end). Underflow is impossible for non-negative samples. The walk ends at
    // the last non-empty bucket: a latency histogram has thousands, most past its maximum.
    template <class F>
    void forEachBucket(F&& f) const {
        const auto& ax = h_.axis();
        uint64_t seen = 0;
        for (int i = 0; i <= ax.size() && seen < n_; ++i) {
            const uint64_t n = h_.at(i);
            if (n == 0) continue;
            seen += n;
            f(i == ax.size() ? ax.value(i) : ax.bin(i).lower(), n);
        }
    }
    using Axis = boost::histogram::axis::regular<double>;
    // Plain 64-bit counters: the default (unlimited) storage picks its cell type at run time,
    // which cost a sample about as much as the rest of it (issue 19); a count cannot pass 2^64.
    using Storage = boost::histogram::dense_storage<uint64_t>;
    boost::histogram::histogram<std::tuple<Axis>, Storage> h_;
    uint64_t n_ = 0;
    double sum_ = 0, min_ = 0, max_ = 0;
};

class StatRegistry {
public:
    Counter& counter(const std::string& name, const std::string& desc);
    Average& average(const std::string& name, const std::string& desc);
    Histogram& histogram(const std::string& name, const std::string& desc, double width,
                         unsigned buckets);

    const Stat* find(const std::string& name) const;
    // Value of a stat by name; throws std::out_of_range if it does not exist.
    double get(const std::string& name) const;
    // Sum of value() over every stat whose name matches prefix*suffix (e.g. "sm", ".l1d.misses").
    double sum(const std::string& prefix, const std::string& suffix) const;
    nlohmann::json toJson() const;
    // toJson()'s object as text, laid out as its dump(2) would be at `out`'s place, without
    // building it (the end of every run writes it; issue 19).
    void writeJson(JsonText& out) const;
    const std::map<std::string, std::unique_ptr<Stat>>& all() const {
        settle();
        return stats_;
    }

    // Settlers (see the top of this file): added by a unit that counts late, removed before it
    // goes away. Every read above runs them first.
    size_t addSettler(std::function<void()> settler);
    void removeSettler(size_t id);
    void settle() const;

private:
    template <class T, class... A>
    T& make(const std::string& name, A&&... args);
    std::map<std::string, std::unique_ptr<Stat>> stats_;
    std::map<size_t, std::function<void()>> settlers_;
    size_t nextSettler_ = 0;
};

} // namespace gpusim
