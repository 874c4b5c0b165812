#pragma once
// `gpusim regress`: the regression testbench. A matrix file (tb/regression/matrix.json) names
// (platform, scheduler, workload) cases; each runs as a child `gpusim run --stats` and every
// statistic is compared with the case's golden file (tb/regression/golden/CASE.json): counts
// exactly (runs are deterministic), real-valued statistics (averages, histogram means) to a
// relative 1e-9 so a different but IEEE-exact compiler is not flagged. A readable diff of what
// moved is printed and the exit status is 1 on any difference, failed run or missing golden.
// `--bless` rewrites the goldens from this build and prints the same diff for review.
//
// Goldens are sparse: statistics equal to zero are left out and read back as zero, so a golden
// stays small on a 32-SM platform where most SMs idle on a small kernel.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusim {

int cmdRegress(const std::vector<std::string>& args);

// Exposed for unit tests.
namespace regress {

struct Case {
    std::string platform, scheduler, workload;
    std::string id() const;  // file-name-safe: fermi15__swl_2__atax_n=128
};

// Expands the named matrix ("default" or "full") of a matrix document; "*" in schedulers is
// every registered scheduler. Throws InputError naming `file` on a malformed document.
std::vector<Case> expandMatrix(const nlohmann::json& doc, const std::string& matrix, const std::string& file,
                               const std::vector<std::string>& allSchedulers);

// The statistics of a `gpusim run --stats` document as flat name -> value, zeros dropped
// (histograms become NAME.count, NAME.mean, ..., NAME.bucket.LOW; kernels kernel.I.FIELD).
nlohmann::json comparable(const nlohmann::json& statsDoc);

struct Difference {
    std::string name;
    nlohmann::json golden, now;  // null: absent (zero)
};
std::vector<Difference> compare(const nlohmann::json& golden, const nlohmann::json& now);

} // namespace regress
} // namespace gpusim
