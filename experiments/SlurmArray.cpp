#include "experiments/SlurmArray.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>

#include "common/SimError.hpp"
#include "experiments/Subprocess.hpp"
#include "experiments/SweepTable.hpp"

namespace gpusim::slurm {

namespace {

// A path for the shell between single quotes ('\'' for a quote inside).
std::string shellQuote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

// #SBATCH lines are split at blanks by sbatch, without a portable way to quote.
void requirePlainPath(const fs::path& p, const std::string& what) {
    if (!p.is_absolute()) throw InputError(what + ": " + p.string() + ": must be an absolute path");
    if (p.string().find_first_of(" \t\n\r'\"\\") != std::string::npos)
        throw InputError(what + ": '" + p.string() +
                         "': must not contain blanks, quotes or backslashes (it is written into #SBATCH lines)");
}

struct Captured {
    int status = 0;
    std::string out, err;
};

std::string readAll(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

// Runs argv (argv[0] a full path) to the end, capturing its output.
Captured capture(const std::vector<std::string>& argv) {
    JobDirectory dir("gpusim-slurm");
    Captured c;
    runJobs({{argv, (dir / "out").string(), (dir / "err").string()}}, 1,
            [&](size_t, const ProcessOutcome& o) { c.status = o.status; });
    c.out = readAll(dir / "out");
    c.err = readAll(dir / "err");
    return c;
}

// A multi-line message as one line, for an InputError.
std::string oneLine(const std::string& text) {
    std::string s;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) {
        if (l.empty()) continue;
        if (!s.empty()) s += " | ";
        s += l;
    }
    return s.empty() ? "no message" : s;
}

// The option name of "--time=10", "-t 10", "-t10": what validateArrayOptions compares.
std::string optionName(const std::string& o) {
    if (o.rfind("--", 0) == 0) return o.substr(0, o.find_first_of("= \t"));
    return o.substr(0, 2);
}

} // namespace

void validateArrayOptions(const ArrayOptions& opt) {
    if (opt.partition.find_first_of(" \t\n\r'\"") != std::string::npos || (!opt.partition.empty() && opt.partition[0] == '-'))
        throw InputError("--partition: '" + opt.partition + "': not a partition name");
    static const std::set<std::string> owned{"--array", "-a", "--output", "-o", "--error", "-e", "--chdir", "-D",
                                             "--job-name", "-J", "--partition", "-p", "--wrap", "--parsable"};
    for (const auto& o : opt.extra) {
        if (o.size() < 2 || o[0] != '-')
            throw InputError("--slurm-option: '" + o + "': expected an sbatch option such as --time=30:00");
        if (o.find_first_of("\n\r") != std::string::npos)
            throw InputError("--slurm-option: an option must not contain a line break");
        if (owned.count(optionName(o)))
            throw InputError("--slurm-option: '" + o + "': " + optionName(o) +
                             " is set by gpusim sweep itself (use --partition / --max-running for those)");
    }
}

std::string arrayIndexList(const std::vector<size_t>& indices) {
    const std::set<size_t> sorted(indices.begin(), indices.end());
    std::string s;
    for (auto it = sorted.begin(); it != sorted.end();) {
        const size_t first = *it;
        size_t last = first;
        for (++it; it != sorted.end() && *it == last + 1; ++it) last = *it;
        if (!s.empty()) s += ',';
        s += std::to_string(first);
        if (last != first) s += '-' + std::to_string(last);
    }
    return s;
}

fs::path scriptFile(const fs::path& out) { return out / "slurm" / "array.sh"; }
fs::path logDir(const fs::path& out) { return out / "slurm"; }

std::string arrayScript(const fs::path& out, const fs::path& workDir, const std::string& gpusim,
                        const std::vector<size_t>& indices, const ArrayOptions& opt) {
    requirePlainPath(out, "--out");
    requirePlainPath(workDir, "the current directory");
    if (!fs::path(gpusim).is_absolute()) throw InputError("the gpusim executable " + gpusim + " must be an absolute path");
    if (indices.empty()) throw InputError("--slurm: no job to submit");
    validateArrayOptions(opt);
    std::ostringstream s;
    s << "#!/bin/sh\n"
      << "# Written by `gpusim sweep --slurm`: array task I runs job I of " << (out / "sweep.json").string() << "\n"
      << "# and records it in " << sweep::jobsDir(out).string() << " (ID.json, or ID.failed). When the array has\n"
      << "# ended: gpusim sweep collect " << out.string() << "\n"
      << "#SBATCH --array=" << arrayIndexList(indices);
    if (opt.maxRunning) s << '%' << opt.maxRunning;
    s << "\n";
    if (!opt.jobName.empty()) s << "#SBATCH --job-name=" << opt.jobName << "\n";
    s << "#SBATCH --ntasks=1\n"
      << "#SBATCH --cpus-per-task=1\n"
      << "#SBATCH --chdir=" << workDir.string() << "\n"
      << "#SBATCH --output=" << (logDir(out) / "%A_%a.out").string() << "\n";
    if (!opt.partition.empty()) s << "#SBATCH --partition=" << opt.partition << "\n";
    for (const auto& o : opt.extra) s << "#SBATCH " << o << "\n";
    s << "exec " << shellQuote(gpusim) << " sweep run-task " << shellQuote(out.string())
      << " \"$SLURM_ARRAY_TASK_ID\"\n";
    return s.str();
}

int runTask(const fs::path& out, size_t index, const std::string& gpusim) {
    SweepSpec spec;
    std::vector<SweepJob> jobs;
    sweep::readManifest(out, spec, jobs);
    if (index >= jobs.size())
        throw InputError("sweep run-task: job " + std::to_string(index) + " is out of range: " +
                         (out / "sweep.json").string() + " has " + std::to_string(jobs.size()) + " jobs");
    const SweepJob& j = jobs[index];
    if (!sweep::readResult(out, j.id).is_null()) {
        // A resubmitted script (by hand) must not redo or disturb finished work.
        std::cout << "already done: " << j.id << "\n";
        return 0;
    }
    std::error_code ec;
    fs::remove(sweep::failedFile(out, j.id), ec);
    fs::remove(sweep::tempResultFile(out, j.id), ec);
    ProcessOutcome outcome;
    runJobs({{sweepJobArgv(spec, j, gpusim, sweep::tempResultFile(out, j.id).string()),
              sweep::stdoutFile(out, j.id).string(), sweep::stderrFile(out, j.id).string()}},
            1, [&](size_t, const ProcessOutcome& o) { outcome = o; });
    const std::string error = sweep::recordJobOutcome(out, j.id, outcome.status);
    if (error.empty())
        std::cout << "ok " << j.id << " (" << std::fixed << std::setprecision(1) << outcome.seconds << " s)\n";
    else
        std::cout << "FAILED " << j.id << ": exit " << outcome.status << ": " << error << "\n";
    return error.empty() ? 0 : 1;
}

std::string findOnPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::istringstream in(path ? path : "");
    for (std::string dir; std::getline(in, dir, ':');) {
        if (dir.empty()) continue;
        const fs::path p = fs::path(dir) / program;
        std::error_code ec;
        if (fs::is_regular_file(p, ec) && access(p.c_str(), X_OK) == 0) return p.string();
    }
    return "";
}

std::string submit(const fs::path& script) {
    const std::string sbatch = findOnPath("sbatch");
    if (sbatch.empty())
        throw InputError("--slurm: sbatch not found on PATH (run this on a Slurm login node); the script is " +
                         script.string());
    const Captured c = capture({sbatch, "--parsable", script.string()});
    if (c.status != 0)
        throw InputError("--slurm: sbatch --parsable " + script.string() + " failed (exit " + std::to_string(c.status) +
                         "): " + oneLine(c.err));
    // --parsable prints "JOBID" or "JOBID;CLUSTER".
    const std::string id = c.out.substr(0, c.out.find_first_of(";\n"));
    if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
        throw InputError("--slurm: sbatch printed no job id: '" + oneLine(c.out) + "'");
    return id;
}

bool arrayActive(const std::string& jobId, std::string& error) {
    error.clear();
    const std::string squeue = findOnPath("squeue");
    if (squeue.empty()) {
        error = "squeue not found on PATH";
        return true;
    }
    const Captured c = capture({squeue, "--noheader", "--jobs=" + jobId, "--states=all", "--format=%T"});
    if (c.status != 0) {
        // Once its record has been purged (MinJobAge after the end) Slurm no longer knows the job.
        if (c.err.find("Invalid job id") != std::string::npos) return false;
        error = "squeue failed (exit " + std::to_string(c.status) + "): " + oneLine(c.err);
        return true;
    }
    static const std::set<std::string> ended{"COMPLETED", "CANCELLED", "FAILED",    "TIMEOUT",      "NODE_FAIL",
                                             "PREEMPTED", "BOOT_FAIL", "DEADLINE",  "OUT_OF_MEMORY", "REVOKED",
                                             "SPECIAL_EXIT"};
    std::istringstream in(c.out);
    for (std::string state; in >> state;)
        if (!ended.count(state)) return true;
    return false;
}

void waitForArray(const std::string& jobId, const std::function<void()>& onPoll) {
    const auto t0 = std::chrono::steady_clock::now();
    unsigned failures = 0;
    for (;;) {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::this_thread::sleep_for(std::chrono::seconds(elapsed < 60 ? 2 : elapsed < 600 ? 10 : 30));
        std::string error;
        const bool active = arrayActive(jobId, error);
        if (!error.empty()) {
            if (++failures >= 10)
                throw InputError("--wait: cannot follow Slurm job " + jobId + ": " + error +
                                 " (the array may still run: collect its results later)");
        } else {
            failures = 0;
            if (!active) return;
        }
        if (onPoll) onPoll();
    }
}

} // namespace gpusim::slurm
