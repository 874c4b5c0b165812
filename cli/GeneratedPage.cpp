#include "cli/GeneratedPage.hpp"

#include <ctime>
#include <fstream>
#include <sstream>

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

} // namespace gpusim
