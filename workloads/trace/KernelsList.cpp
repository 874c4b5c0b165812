#include "workloads/trace/KernelsList.hpp"

#include <charconv>

#include "common/SimError.hpp"
#include "workloads/trace/TraceText.hpp"

namespace gpusim {

namespace {

using trace_text::trim;

// A kernelslist field: blanks around it allowed; in base 16 the 0x prefix is required.
bool parseListNumber(std::string_view t, uint64_t& v, int base) {
    t = trim(t);
    if (base == 16 && (t.size() < 3 || t[0] != '0' || (t[1] != 'x' && t[1] != 'X'))) return false;
    return trace_text::parseU64(t, v, base);
}

} // namespace

KernelsList parseKernelsList(LineReader& in, const std::string& dir) {
    KernelsList list;
    std::string_view raw;
    while (in.next(raw)) {
        const std::string_view line = trim(raw);
        if (line.empty() || line[0] == '#') continue;
        if (line.substr(0, 10) == "MemcpyHtoD") {
            // MemcpyHtoD,ADDRESS,BYTES; forks of the tracer append a memory-dump file name.
            const size_t c1 = line.find(',');
            const size_t c2 = c1 == std::string_view::npos ? c1 : line.find(',', c1 + 1);
            if (line.substr(0, c1) != "MemcpyHtoD" || c2 == std::string_view::npos)
                throw InputError(in.where() + "expected MemcpyHtoD,0xADDRESS,BYTES");
            const size_t c3 = line.find(',', c2 + 1);
            MemcpyRecord r;
            r.beforeKernel = list.kernelFiles.size();
            if (!parseListNumber(line.substr(c1 + 1, c2 - c1 - 1), r.address, 16))
                throw InputError(in.where() + "MemcpyHtoD: bad hex address '" + std::string(line.substr(c1 + 1, c2 - c1 - 1)) + "'");
            const std::string_view bytes = line.substr(c2 + 1, c3 == std::string_view::npos ? c3 : c3 - c2 - 1);
            if (!parseListNumber(bytes, r.bytes, 10))
                throw InputError(in.where() + "MemcpyHtoD: bad byte count '" + std::string(bytes) + "'");
            list.memcpys.push_back(r);
        } else if (line.substr(0, 6) == "kernel") {
            const std::string name(line);
            list.kernelFiles.push_back(dir.empty() ? name : dir + "/" + name);
        } else {
            const std::string shown(line.substr(0, 60));
            throw InputError(in.where() + "expected a kernel-N.traceg file name or a MemcpyHtoD line, found '" +
                             shown + (line.size() > 60 ? "...'" : "'"));
        }
    }
    if (list.kernelFiles.empty()) throw InputError(in.name() + ": no kernel listed");
    return list;
}

} // namespace gpusim
