#pragma once
// Runs child processes, a bounded number at a time: the jobs of `gpusim regress` (and of
// sweeps). A SystemC simulation cannot be elaborated twice in one process, so every run is a
// child `gpusim run`. Output goes to files; nothing is retried.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace gpusim {

struct ProcessJob {
    std::vector<std::string> argv;  // argv[0] is the program path
    std::string stdoutPath, stderrPath;
};

struct ProcessOutcome {
    int status = 0;          // exit status, or 128 + signal number when killed by a signal
    double seconds = 0;      // wall-clock time
    double cpuSeconds = 0;   // user + system CPU time of the child
    uint64_t maxRssKiB = 0;  // the child's peak resident set size
};

// Starts jobs in index order, at most `parallel` at a time, and calls onDone(index, outcome)
// as each ends (in completion order). Throws std::runtime_error if a process cannot be started.
// When `stop` is given and returns true (checked before each start and after each wait, which a
// signal handler installed without SA_RESTART interrupts), no further job is started, the
// running ones are sent SIGINT once, and runJobs returns when they have ended.
void runJobs(const std::vector<ProcessJob>& jobs, unsigned parallel,
             const std::function<void(size_t, const ProcessOutcome&)>& onDone,
             const std::function<bool()>& stop = nullptr);

// Runs argv in the foreground: the child shares this process's stdout and stderr (its progress
// line stays visible). Returns its exit status (128 + signal number when killed); throws
// std::runtime_error if it cannot be started.
int runForeground(const std::vector<std::string>& argv);

// The running executable's path (/proc/self/exe), to start more of itself.
std::string selfExecutable();

// A fresh directory under the system temp dir for the jobs' files, removed with its contents.
class JobDirectory {
public:
    explicit JobDirectory(const std::string& prefix);
    ~JobDirectory();
    JobDirectory(const JobDirectory&) = delete;
    JobDirectory& operator=(const JobDirectory&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

// `s` with every character but letters, digits, '.', '=' and '-' replaced by '_': the part of a
// job's file name that comes from its platform, scheduler, workload or parameter.
std::string fileNameSafe(const std::string& s);

// The last non-empty line of a job's output file (where `gpusim` writes its error line).
std::string lastLineOf(const std::filesystem::path& file);

} // namespace gpusim
