#include "cli/GeneratedPage.hpp"

#include <csignal>
#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

#include "common/SimError.hpp"
#include "experiments/Subprocess.hpp"

namespace gpusim {

std::string todayUtc() {
    const std::time_t t = std::time(nullptr);
    char buf[16];
    std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&t));
    return buf;
}

std::string readTextFile(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

bool runSweepResumed(const std::filesystem::path& spec, const std::filesystem::path& out, unsigned parallel,
                     const std::string& command) {
    const int status = runForeground(
        {selfExecutable(), "sweep", spec.string(), "--out", out.string(), "--resume", "-j", std::to_string(parallel)});
    if (status == 130 || status == 128 + SIGINT) {
        std::cout << "interrupted: rerun the same command to continue\n";
        return false;
    }
    if (status != 0 && status != 1)
        throw InputError(command + ": `gpusim sweep " + spec.string() + "` exited " + std::to_string(status));
    return true;
}

std::string linkFrom(const std::filesystem::path& page, const std::filesystem::path& target) {
    namespace fs = std::filesystem;
    return fs::relative(fs::absolute(target), fs::absolute(page).parent_path()).generic_string();
}

} // namespace gpusim
