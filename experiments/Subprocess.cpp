#include "experiments/Subprocess.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

namespace gpusim {

namespace {

using Clock = std::chrono::steady_clock;

pid_t start(const ProcessJob& job) {
    std::vector<char*> argv;
    for (const auto& a : job.argv) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
    if (pid == 0) {
        // Child: only async-signal-safe calls until exec.
        const int out = open(job.stdoutPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int err = open(job.stderrPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0) _exit(127);
        dup2(out, 1);
        dup2(err, 2);
        execv(argv[0], argv.data());
        _exit(127);
    }
    return pid;
}

} // namespace

void runJobs(const std::vector<ProcessJob>& jobs, unsigned parallel,
             const std::function<void(size_t, const ProcessOutcome&)>& onDone,
             const std::function<bool()>& stop) {
    if (parallel == 0) parallel = 1;
    std::map<pid_t, std::pair<size_t, Clock::time_point>> running;
    size_t next = 0;
    bool stopped = false;
    while (next < jobs.size() || !running.empty()) {
        if (!stopped && stop && stop()) {
            stopped = true;
            next = jobs.size();
            for (const auto& r : running) kill(r.first, SIGINT);
            if (running.empty()) break;
        }
        while (next < jobs.size() && running.size() < parallel) {
            running[start(jobs[next])] = {next, Clock::now()};
            ++next;
        }
        int status = 0;
        struct rusage ru {};
        const pid_t pid = wait4(-1, &status, 0, &ru);
        if (pid < 0) {
            if (errno == EINTR) continue;
            throw std::runtime_error(std::string("waitpid failed: ") + std::strerror(errno));
        }
        auto it = running.find(pid);
        if (it == running.end()) continue;  // not ours
        ProcessOutcome o;
        o.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        o.seconds = std::chrono::duration<double>(Clock::now() - it->second.second).count();
        o.cpuSeconds = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                       static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
        o.maxRssKiB = static_cast<uint64_t>(ru.ru_maxrss);
        const size_t index = it->second.first;
        running.erase(it);
        onDone(index, o);
    }
}

int runForeground(const std::vector<std::string>& argv) {
    std::vector<char*> cargv;
    for (const auto& a : argv) cargv.push_back(const_cast<char*>(a.c_str()));
    cargv.push_back(nullptr);
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
    if (pid == 0) {
        execv(cargv[0], cargv.data());
        _exit(127);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) throw std::runtime_error(std::string("waitpid failed: ") + std::strerror(errno));
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string selfExecutable() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

JobDirectory::JobDirectory(const std::string& prefix)
    : path_(std::filesystem::temp_directory_path() / (prefix + "-" + std::to_string(getpid()))) {
    std::filesystem::create_directories(path_);
}

JobDirectory::~JobDirectory() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
}

std::string fileNameSafe(const std::string& s) {
    std::string out;
    for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '=' || c == '-') ? c : '_';
    return out;
}

std::string lastLineOf(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string l, last;
    while (std::getline(in, l))
        if (!l.empty()) last = l;
    return last;
}

} // namespace gpusim
