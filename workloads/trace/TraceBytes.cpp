#include "workloads/trace/TraceBytes.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "common/SimError.hpp"

namespace gpusim {

std::shared_ptr<TraceBytes> TraceBytes::openPlain(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw InputError(path + ": cannot open (" + std::strerror(errno) + ")");
    return std::shared_ptr<TraceBytes>(new TraceBytes(path, fd, false));
}

std::shared_ptr<TraceBytes> TraceBytes::decodedCopy(const std::string& name) {
    std::error_code ec;
    std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
    if (ec) dir = "/tmp";
    std::string tmpl = (dir / "gpusim-trace-XXXXXX").string();
    const int fd = ::mkostemp(tmpl.data(), O_CLOEXEC);
    if (fd < 0)
        throw InputError(name + ": cannot create a temporary file in " + dir.string() + " for the decoded text (" +
                         std::strerror(errno) + ")");
    ::unlink(tmpl.c_str());  // nameless from now on: removed when the descriptor closes
    return std::shared_ptr<TraceBytes>(new TraceBytes(name, fd, true));
}

TraceBytes::~TraceBytes() {
    if (fd_ >= 0) ::close(fd_);
}

void TraceBytes::append(std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            throw InputError(name_ + ": cannot write the decoded text to a temporary file (" +
                             std::strerror(n < 0 ? errno : ENOSPC) + ")");
        bytes.remove_prefix(static_cast<size_t>(n));
    }
}

size_t TraceBytes::read(uint64_t offset, char* dst, size_t n, uint64_t line) const {
    size_t got = 0;
    while (got < n) {
        const ssize_t r = ::pread(fd_, dst + got, n - got, static_cast<off_t>(offset + got));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0)
            throw InputError(name_ + ":" + std::to_string(line) + ": read error (" + std::strerror(errno) + ")");
        if (r == 0) break;
        got += static_cast<size_t>(r);
    }
    return got;
}

void TraceBytes::release(uint64_t begin, uint64_t end) const {
    if (!copy_ || end <= begin) return;
    // Failure (a file system without hole punching) only leaves the disk space in use.
    (void)::fallocate(fd_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(begin),
                      static_cast<off_t>(end - begin));
}

} // namespace gpusim
