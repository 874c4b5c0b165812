#include "common/Stats.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpusim {

nlohmann::json Average::toJson() const {
    const Totals t = totals();
    return {{"mean", mean()}, {"count", t.n}, {"sum", t.sum}, {"min", t.min}, {"max", t.max}};
}

// Members in nlohmann's (sorted) key order: count, max, mean, min, sum.
void Average::writeJson(JsonText& out) const {
    const Totals t = totals();
    out.beginObject();
    out.member("count", t.n);
    out.member("max", t.max);
    out.member("mean", mean());
    out.member("min", t.min);
    out.member("sum", t.sum);
    out.endObject();
}

Histogram::Histogram(std::string desc, double width, unsigned buckets)
    : Stat(std::move(desc)),
      h_(boost::histogram::make_histogram_with(Storage(), Axis(buckets, 0.0, width * buckets))) {}

void Histogram::sample(double x) {
    h_(x);
    if (n_ == 0) {
        min_ = max_ = x;
    } else {
        min_ = std::min(min_, x);
        max_ = std::max(max_, x);
    }
    ++n_;
    sum_ += x;
}

double Histogram::percentile(double p) const {
    if (n_ == 0) return 0.0;
    const double target = p / 100.0 * double(n_);
    double seen = 0;
    // Indexed access rather than boost::histogram::indexed(): with Boost 1.74 and g++ 12 -O2 that
    // range never terminated in a loop with `continue` (seen here).
    const auto& ax = h_.axis();
    for (int i = -1; i <= ax.size(); ++i) {
        seen += double(h_.at(i));
        if (seen >= target) {
            // Underflow/overflow bins: the exact extremes are the best bounds we have.
            if (i < 0) return min_;
            if (i == ax.size()) return max_;
            return std::min(ax.bin(i).upper(), max_);
        }
    }
    return max_;
}

nlohmann::json Histogram::toJson() const {
    nlohmann::json buckets = nlohmann::json::array();
    forEachBucket([&](double lower, uint64_t n) { buckets.push_back({lower, n}); });
    return {{"mean", mean()},           {"count", n_},   {"min", min_},
            {"max", max_},              {"p50", percentile(50)},
            {"p99", percentile(99)},    {"buckets", buckets}};
}

// toJson()'s members in nlohmann's (sorted) key order: buckets, count, max, mean, min, p50, p99.
void Histogram::writeJson(JsonText& out) const {
    out.beginObject();
    out.key("buckets");
    out.beginArray();
    forEachBucket([&](double lower, uint64_t n) {
        out.beginArray();
        out.value(lower);
        out.value(n);
        out.endArray();
    });
    out.endArray();
    out.member("count", n_);
    out.member("max", max_);
    out.member("mean", mean());
    out.member("min", min_);
    out.member("p50", percentile(50));
    out.member("p99", percentile(99));
    out.endObject();
}

template <class T, class... A>
T& StatRegistry::make(const std::string& name, A&&... args) {
    auto [it, inserted] = stats_.emplace(name, nullptr);
    if (!inserted) throw std::logic_error("statistic registered twice: " + name);
    auto p = std::make_unique<T>(std::forward<A>(args)...);
    T& ref = *p;
    it->second = std::move(p);
    return ref;
}

Counter& StatRegistry::counter(const std::string& name, const std::string& desc) {
    return make<Counter>(name, desc);
}
Average& StatRegistry::average(const std::string& name, const std::string& desc) {
    return make<Average>(name, desc);
}
Histogram& StatRegistry::histogram(const std::string& name, const std::string& desc, double width,
                                   unsigned buckets) {
    return make<Histogram>(name, desc, width, buckets);
}

size_t StatRegistry::addSettler(std::function<void()> settler) {
    settlers_.emplace(nextSettler_, std::move(settler));
    return nextSettler_++;
}

void StatRegistry::removeSettler(size_t id) { settlers_.erase(id); }

void StatRegistry::settle() const {
    for (const auto& [id, s] : settlers_) s();
}

const Stat* StatRegistry::find(const std::string& name) const {
    settle();
    auto it = stats_.find(name);
    return it == stats_.end() ? nullptr : it->second.get();
}

double StatRegistry::get(const std::string& name) const {
    const Stat* s = find(name);
    if (!s) throw std::out_of_range("no statistic named " + name);
    return s->value();
}

double StatRegistry::sum(const std::string& prefix, const std::string& suffix) const {
    settle();
    double total = 0;
    for (auto it = stats_.lower_bound(prefix); it != stats_.end(); ++it) {
        const std::string& n = it->first;
        if (n.compare(0, prefix.size(), prefix) != 0) break;
        if (n.size() >= prefix.size() + suffix.size() &&
            n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
            total += it->second->value();
    }
    return total;
}

nlohmann::json StatRegistry::toJson() const {
    settle();
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [name, s] : stats_) out[name] = s->toJson();
    return out;
}

void StatRegistry::writeJson(JsonText& out) const {
    settle();
    out.beginObject();
    for (const auto& [name, s] : stats_) {
        out.key(name);
        s->writeJson(out);
    }
    out.endObject();
}

} // namespace gpusim
