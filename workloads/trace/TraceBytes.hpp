#pragma once
// Random access, by byte offset, to the text of one trace file, for warps whose instructions are
// read a window at a time while the simulation runs (TraceWarpStream.hpp).
//
// A plain file is read in place, with pread on a descriptor of its own (so any thread may read
// at the same time). An .xz file cannot be read at an offset without decoding everything before
// it, and one decoder per resident warp would cost a dictionary each (1 MiB at the tracer's
// preset, 8 MiB at xz's default) and decode the file's start over and over; so the kernel's
// reader, which decodes the file once front to back, copies the decoded text into an unnamed
// temporary file (created in TMPDIR, or /tmp, and unlinked at once: it goes away with the
// process however the run ends) and the windows read that copy. The copy costs disk (the
// decoded size of the sections read so far), not memory: what the kernel has finished with is
// handed back with release(), which punches it out of the file where the file system can.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace gpusim {

class TraceBytes {
public:
    // The file itself. Throws InputError if it cannot be opened.
    static std::shared_ptr<TraceBytes> openPlain(const std::string& path);
    // An empty temporary file standing for `name` (the .xz file) in messages, filled by append().
    static std::shared_ptr<TraceBytes> decodedCopy(const std::string& name);

    ~TraceBytes();
    TraceBytes(const TraceBytes&) = delete;
    TraceBytes& operator=(const TraceBytes&) = delete;

    // Appends to the decoded copy (not for plain files). Throws InputError if the disk is full.
    void append(std::string_view bytes);
    // Up to `n` bytes from `offset` into `dst`; fewer only at the end of the data. Thread-safe.
    // Throws InputError "NAME:LINE: ..." (LINE: `line`, where the reading stands) on a read error.
    size_t read(uint64_t offset, char* dst, size_t n, uint64_t line) const;
    // Bytes [begin, end) will not be read again: a decoded copy gives their disk space back
    // (best effort; a plain file is left alone).
    void release(uint64_t begin, uint64_t end) const;
    const std::string& name() const { return name_; }

private:
    TraceBytes(std::string name, int fd, bool copy) : name_(std::move(name)), fd_(fd), copy_(copy) {}

    std::string name_;
    int fd_ = -1;
    bool copy_ = false;
};

} // namespace gpusim
