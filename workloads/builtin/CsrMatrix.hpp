#pragma once
// Input data of the spmv workload: a square sparse matrix in CSR form whose non-zeros cluster
// along rows or along columns, selectable, as in the iPAWS paper's input study of SpMV:
//
// - along rows (cluster = 0): each row's non-zeros are one contiguous run of columns starting at a
//   random column, so consecutive loads of one thread walk neighbouring x elements (intra-thread
//   locality) while the 32 rows of a warp touch unrelated parts of x; row lengths vary (uniform
//   1 .. 2*avg - 1), so lanes of a warp run different trip counts;
// - along columns (cluster = 1): the rows of each aligned group of 32 (one warp) share one set of
//   random columns, so at every step all lanes of a warp read the same x element (inter-thread
//   locality) and run the same trip count; group lengths vary as above.
//
// Column indices within a row are ascending. Values are not modelled (only indices matter to the
// kernel's addresses and control flow).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "workloads/SeededRandom.hpp"

namespace gpusim {

struct CsrMatrix {
    static constexpr uint64_t kGroupRows = 32;

    uint64_t rows = 0;
    std::vector<uint32_t> ptr;      // rows + 1 row starts
    std::vector<uint32_t> indices;  // column of each non-zero

    uint64_t nnz() const { return indices.size(); }
    uint64_t rowLength(uint64_t r) const { return ptr[r + 1] - ptr[r]; }

    static CsrMatrix generate(uint64_t n, uint64_t avg, bool alongColumns, uint64_t seed) {
        CsrMatrix m;
        m.rows = n;
        m.ptr.push_back(0);
        Rng rng(seed);
        const uint64_t maxLen = std::min<uint64_t>(2 * avg - 1, n);
        auto length = [&] { return uint64_t(rng.between(1, int64_t(maxLen))); };
        std::vector<uint32_t> shared;
        for (uint64_t r = 0; r < n; ++r) {
            if (alongColumns) {
                if (r % kGroupRows == 0) {
                    // Distinct columns by rejection: a group has at most min(2 avg - 1, n) of them.
                    const uint64_t len = length();
                    shared.clear();
                    while (shared.size() < len) {
                        const uint32_t c = static_cast<uint32_t>(rng.below(n));
                        if (std::find(shared.begin(), shared.end(), c) == shared.end()) shared.push_back(c);
                    }
                    std::sort(shared.begin(), shared.end());
                }
                m.indices.insert(m.indices.end(), shared.begin(), shared.end());
            } else {
                const uint64_t len = length();
                const uint64_t start = rng.below(n - len + 1);
                for (uint64_t c = 0; c < len; ++c) m.indices.push_back(static_cast<uint32_t>(start + c));
            }
            m.ptr.push_back(static_cast<uint32_t>(m.indices.size()));
        }
        return m;
    }
};

} // namespace gpusim
