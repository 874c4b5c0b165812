#include "platforms/TraceOutputFile.hpp"

#include <zlib.h>

#include "common/SimError.hpp"

namespace gpusim {

namespace {
constexpr size_t kTraceBufferBytes = size_t(1) << 20;

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A FILE* whose bytes go through zlib's gzip writer (glibc's fopencookie), so that the writers'
// fprintf calls stay as they are. The stdio buffer in front batches gzwrite calls to 1 MiB.
ssize_t gzCookieWrite(void* cookie, const char* data, size_t n) {
    if (n == 0) return 0;
    const int w = gzwrite(static_cast<gzFile>(cookie), data, static_cast<unsigned>(n));
    return w <= 0 ? -1 : w;
}

int gzCookieClose(void* cookie) { return gzclose(static_cast<gzFile>(cookie)) == Z_OK ? 0 : -1; }

std::FILE* openGzip(const std::string& path) {
    // Level 1: a trace is written during the run, so speed matters more than the last 20%
    // of size (CSV and trace-event JSON still shrink about tenfold).
    gzFile gz = gzopen(path.c_str(), "wb1");
    if (!gz) return nullptr;
    cookie_io_functions_t io{};
    io.write = gzCookieWrite;
    io.close = gzCookieClose;
    std::FILE* f = fopencookie(gz, "w", io);
    if (!f) gzclose(gz);
    return f;
}
} // namespace

TraceOutputFile::TraceOutputFile(const std::string& path, const std::string& option)
    : path_(path), option_(option) {
    f_ = isGzipPath(path) ? openGzip(path) : std::fopen(path.c_str(), "w");
    if (!f_) throw InputError(option + ": " + path + ": cannot open for writing");
    buffer_.reset(new char[kTraceBufferBytes]);
    std::setvbuf(f_, buffer_.get(), _IOFBF, kTraceBufferBytes);
}

TraceOutputFile::~TraceOutputFile() { close(); }

bool TraceOutputFile::isGzipPath(const std::string& path) { return endsWith(path, ".gz"); }

bool TraceOutputFile::hasFormatSuffix(const std::string& path, const std::string& suffix) {
    return endsWith(path, suffix) || endsWith(path, suffix + ".gz");
}

void TraceOutputFile::close() {
    if (!f_) return;
    const bool failed = std::fclose(f_) != 0;
    f_ = nullptr;
    if (failed) std::fprintf(stderr, "gpusim: warning: %s: %s: write failed\n", option_.c_str(), path_.c_str());
}

} // namespace gpusim
