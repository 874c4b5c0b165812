#include "workloads/trace/LineReader.hpp"

#include <lzma.h>

#include <cerrno>
#include <cstring>

#include "common/SimError.hpp"

namespace gpusim {

namespace {

constexpr size_t kFileBuffer = size_t(1) << 20;
constexpr size_t kMemoryBuffer = size_t(64) << 10;  // fuzz inputs: small, and many per second
constexpr size_t kXzInput = size_t(64) << 10;
// A trace line is at most a few hundred bytes; this only stops a file without newlines (a
// binary file given by mistake) from taking all memory.
constexpr size_t kMaxLine = size_t(64) << 20;
constexpr uint8_t kXzMagic[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};

bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

struct LineReader::Xz {
    lzma_stream strm = LZMA_STREAM_INIT;
    std::vector<uint8_t> in = std::vector<uint8_t>(kXzInput);
    bool inputEnded = false;
    ~Xz() { lzma_end(&strm); }
};

std::unique_ptr<LineReader> LineReader::openFile(const std::string& path) {
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) throw InputError(path + ": cannot open (" + std::strerror(errno) + ")");
    return std::unique_ptr<LineReader>(new LineReader(path, f, {}, endsWith(path, ".xz")));
}

std::unique_ptr<LineReader> LineReader::fromMemory(std::string name, std::string_view bytes) {
    const bool xz = bytes.size() >= sizeof kXzMagic && std::memcmp(bytes.data(), kXzMagic, sizeof kXzMagic) == 0;
    return std::unique_ptr<LineReader>(new LineReader(std::move(name), nullptr, std::string(bytes), xz));
}

LineReader::LineReader(std::string name, std::FILE* file, std::string memory, bool xz)
    : name_(std::move(name)), file_(file), memory_(std::move(memory)), buf_(file ? kFileBuffer : kMemoryBuffer) {
    if (!xz) return;
    xz_ = std::make_unique<Xz>();
    // CONCATENATED: `xz -T0` and `cat a.xz b.xz` give several streams in one file.
    if (lzma_stream_decoder(&xz_->strm, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
        if (file_) std::fclose(file_);
        throw InputError(name_ + ": cannot start the xz decoder");
    }
}

LineReader::~LineReader() {
    if (file_) std::fclose(file_);
}

std::string LineReader::where() const { return name_ + ":" + std::to_string(line_) + ": "; }

size_t LineReader::readRaw(uint8_t* dst, size_t n) {
    if (file_) {
        const size_t got = std::fread(dst, 1, n, file_);
        if (got < n && std::ferror(file_))
            throw InputError(name_ + ":" + std::to_string(line_ + 1) + ": read error (" + std::strerror(errno) + ")");
        return got;
    }
    const size_t got = std::min(n, memory_.size() - memoryPos_);
    std::memcpy(dst, memory_.data() + memoryPos_, got);
    memoryPos_ += got;
    return got;
}

bool LineReader::fill() {
    if (eof_) return false;
    char* out = buf_.data() + end_;
    const size_t room = buf_.size() - end_;
    if (!xz_) {
        const size_t got = readRaw(reinterpret_cast<uint8_t*>(out), room);
        if (sink_ && got > 0) sink_(std::string_view(out, got));
        end_ += got;
        if (got == 0) eof_ = true;
        return got > 0;
    }
    lzma_stream& s = xz_->strm;
    s.next_out = reinterpret_cast<uint8_t*>(out);
    s.avail_out = room;
    while (s.avail_out == room) {
        if (s.avail_in == 0 && !xz_->inputEnded) {
            s.avail_in = readRaw(xz_->in.data(), xz_->in.size());
            s.next_in = xz_->in.data();
            xz_->inputEnded = s.avail_in == 0;
        }
        const lzma_ret r = lzma_code(&s, xz_->inputEnded ? LZMA_FINISH : LZMA_RUN);
        if (r == LZMA_STREAM_END) {
            eof_ = true;
            break;
        }
        if (r == LZMA_OK) continue;
        const std::string at = name_ + ":" + std::to_string(line_ + 1) + ": ";
        if (r == LZMA_BUF_ERROR) throw InputError(at + "xz data truncated (file ends inside the compressed stream)");
        if (r == LZMA_FORMAT_ERROR) throw InputError(at + "not xz data");
        if (r == LZMA_MEM_ERROR || r == LZMA_MEMLIMIT_ERROR) throw InputError(at + "xz decoder out of memory");
        throw InputError(at + "xz data corrupt");
    }
    if (sink_ && room != s.avail_out) sink_(std::string_view(out, room - s.avail_out));
    end_ += room - s.avail_out;
    return room != s.avail_out;
}

bool LineReader::next(std::string_view& line) {
    size_t scanFrom = begin_;
    for (;;) {
        const void* nl = std::memchr(buf_.data() + scanFrom, '\n', end_ - scanFrom);
        if (nl) {
            const size_t at = static_cast<const char*>(nl) - buf_.data();
            size_t len = at - begin_;
            if (len > 0 && buf_[at - 1] == '\r') --len;
            line = std::string_view(buf_.data() + begin_, len);
            lineStart_ = bufBase_ + begin_;
            begin_ = at + 1;
            ++line_;
            return true;
        }
        if (eof_) {
            if (begin_ == end_) return false;
            size_t len = end_ - begin_;
            if (buf_[end_ - 1] == '\r') --len;
            line = std::string_view(buf_.data() + begin_, len);
            lineStart_ = bufBase_ + begin_;
            begin_ = end_;
            ++line_;
            return true;
        }
        // Keep the unread part at the front; grow only for a line longer than the buffer.
        const size_t unread = end_ - begin_;
        if (begin_ > 0) {
            std::memmove(buf_.data(), buf_.data() + begin_, unread);
            bufBase_ += begin_;
            begin_ = 0;
            end_ = unread;
        }
        if (end_ == buf_.size()) {
            if (buf_.size() >= kMaxLine)
                throw InputError(name_ + ":" + std::to_string(line_ + 1) + ": line longer than 64 MiB (not a trace file?)");
            buf_.resize(buf_.size() * 2);
        }
        scanFrom = end_;
        fill();
    }
}

} // namespace gpusim
