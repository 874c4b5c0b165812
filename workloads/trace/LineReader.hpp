#pragma once
// Line-by-line reading of a trace file, plain text or xz-compressed (liblzma, streamed: memory
// is one input and one output buffer whatever the file size), with the line number every error
// message needs. The same reader runs over a file or over bytes in memory (the fuzz targets).
//
// Lines are returned as views into the reader's buffer, valid until the next call; the
// trailing "\n" (and a "\r" before it) is removed. A last line without "\n" is still a line.
// xz data that is truncated or corrupt throws InputError "NAME:LINE: reason", LINE being the
// line the damage was found in.
//
// Offsets (lineStart) count bytes of the decoded text, so a warp read later a window at a time
// (TraceWarpStream.hpp) can find its lines again; for xz data, a sink set with copyDecodedTo
// receives every decoded byte in order, which is how the decoded text is kept for those reads.
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace gpusim {

class LineReader {
public:
    // Opens `path`; a name ending in ".xz" is decompressed. Throws InputError if it cannot be
    // opened.
    static std::unique_ptr<LineReader> openFile(const std::string& path);
    // Reads from `bytes` (copied); decompressed when it starts with the xz magic bytes. `name`
    // stands for the file in error messages.
    static std::unique_ptr<LineReader> fromMemory(std::string name, std::string_view bytes);

    ~LineReader();
    LineReader(const LineReader&) = delete;
    LineReader& operator=(const LineReader&) = delete;

    // Next line, or false at the end of the data.
    bool next(std::string_view& line);
    // Number of the line last returned (1-based); 0 before the first.
    uint64_t lineNumber() const { return line_; }
    const std::string& name() const { return name_; }
    // "NAME:LINE: " for error messages about the line last returned.
    std::string where() const;
    bool compressed() const { return xz_ != nullptr; }
    // Offset in the decoded text of the first byte of the line last returned.
    uint64_t lineStart() const { return lineStart_; }
    // Every byte decoded from now on is passed to `sink`, in order, before a line returns it;
    // set it before the first next() to receive the whole text.
    void copyDecodedTo(std::function<void(std::string_view)> sink) { sink_ = std::move(sink); }

private:
    struct Xz;
    LineReader(std::string name, std::FILE* file, std::string memory, bool xz);
    // Appends more decoded bytes to buf_; false at the end of the data.
    bool fill();
    size_t readRaw(uint8_t* dst, size_t n);

    std::string name_;
    std::FILE* file_ = nullptr;
    std::string memory_;
    size_t memoryPos_ = 0;
    std::unique_ptr<Xz> xz_;
    std::vector<char> buf_;
    size_t begin_ = 0, end_ = 0;  // unread bytes are buf_[begin_, end_)
    uint64_t bufBase_ = 0;        // offset in the decoded text of buf_[0]
    uint64_t lineStart_ = 0;
    std::function<void(std::string_view)> sink_;
    bool eof_ = false;
    uint64_t line_ = 0;
};

} // namespace gpusim
