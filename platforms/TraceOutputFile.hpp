#pragma once
// A trace file that a run writes as it goes (--trace-tlm, --trace-warps). It is opened with a
// 1 MiB stdio buffer, because a trace writes a line per TLM phase or warp event and unbuffered
// writes would dominate the run. A file that cannot be opened is an InputError naming the option
// and the path. A write failure that shows only at close (a full disk) is a warning on stderr:
// the run's results stand, but the trace is incomplete. A path ending in ".gz" is written
// gzip-compressed (zlib, level 1), readable by zcat, gunzip, Python's gzip and ui.perfetto.dev.
#include <cstdio>
#include <memory>
#include <string>

namespace gpusim {

class TraceOutputFile {
public:
    TraceOutputFile(const std::string& path, const std::string& option);
    ~TraceOutputFile();
    TraceOutputFile(const TraceOutputFile&) = delete;
    TraceOutputFile& operator=(const TraceOutputFile&) = delete;

    std::FILE* get() const { return f_; }  // nullptr once closed
    bool open() const { return f_ != nullptr; }
    void close();

    static bool isGzipPath(const std::string& path);
    // `path` ends in `suffix` (".json"), or in it followed by ".gz".
    static bool hasFormatSuffix(const std::string& path, const std::string& suffix);

private:
    std::FILE* f_ = nullptr;
    std::string path_, option_;
    std::unique_ptr<char[]> buffer_;
};

} // namespace gpusim
