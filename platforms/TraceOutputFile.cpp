#include "platforms/TraceOutputFile.hpp"

#include "common/SimError.hpp"

namespace gpusim {

namespace {
constexpr size_t kTraceBufferBytes = size_t(1) << 20;
} // namespace

TraceOutputFile::TraceOutputFile(const std::string& path, const std::string& option)
    : path_(path), option_(option) {
    f_ = std::fopen(path.c_str(), "w");
    if (!f_) throw InputError(option + ": " + path + ": cannot open for writing");
    buffer_.reset(new char[kTraceBufferBytes]);
    std::setvbuf(f_, buffer_.get(), _IOFBF, kTraceBufferBytes);
}

TraceOutputFile::~TraceOutputFile() { close(); }

void TraceOutputFile::close() {
    if (!f_) return;
    const bool failed = std::fclose(f_) != 0;
    f_ = nullptr;
    if (failed) std::fprintf(stderr, "gpusim: warning: %s: %s: write failed\n", option_.c_str(), path_.c_str());
}

} // namespace gpusim
