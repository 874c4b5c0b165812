#pragma once
// Runs the gpusim executable (or any program) as a child process with separate stdout and
// stderr capture, no shell involved (so arguments need no quoting), and gives back the exit
// status; plus a scratch directory that removes itself. For the CLI and determinism tests.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace gpusim::tb {

struct ProcessResult {
    int status = -1;        // exit status; 128 + signal number when killed by a signal
    bool signaled = false;
    std::string out, err;  // everything written to stdout / stderr

    std::vector<std::string> errLines() const {
        std::vector<std::string> lines;
        std::istringstream in(err);
        for (std::string l; std::getline(in, l);) lines.push_back(l);
        return lines;
    }
};

inline std::string readFile(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

inline void writeFile(const std::filesystem::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + p.string());
}

// A fresh directory under the system temp dir, removed with everything in it on destruction.
class ScratchDir {
public:
    ScratchDir() {
        static std::atomic<unsigned> counter{0};
        const auto base = std::filesystem::temp_directory_path();
        for (;;) {
            path_ = base / ("gpusim-it-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
            if (std::filesystem::create_directory(path_)) break;
        }
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

// Runs `program args...` with stdin from /dev/null and stdout/stderr captured through files.
inline ProcessResult runProcess(const std::string& program, const std::vector<std::string>& args) {
    ScratchDir dir;
    const std::string outPath = (dir / "stdout").string(), errPath = (dir / "stderr").string();
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, program.c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) throw std::runtime_error("cannot start " + program + ": " + std::strerror(rc));
    int ws = 0;
    while (::waitpid(pid, &ws, 0) < 0) {
        if (errno != EINTR) throw std::runtime_error("waitpid failed: " + std::string(std::strerror(errno)));
    }
    ProcessResult r;
    if (WIFEXITED(ws)) {
        r.status = WEXITSTATUS(ws);
    } else if (WIFSIGNALED(ws)) {
        r.signaled = true;
        r.status = 128 + WTERMSIG(ws);
    }
    r.out = readFile(outPath);
    r.err = readFile(errPath);
    return r;
}

#ifdef GPUSIM_BINARY_DIR
inline std::string gpusimExecutable() { return GPUSIM_BINARY_DIR "/gpusim"; }

inline ProcessResult runGpusim(const std::vector<std::string>& args) {
    return runProcess(gpusimExecutable(), args);
}

// "gpusim run --foo" for failure messages.
inline std::string commandLine(const std::vector<std::string>& args) {
    std::string s = "gpusim";
    for (const auto& a : args) s += " " + a;
    return s;
}
#endif

} // namespace gpusim::tb
