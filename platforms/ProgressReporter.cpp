#include "platforms/ProgressReporter.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

#include "common/SimError.hpp"

namespace gpusim {

namespace {

std::string format(const char* fmt, auto... args) {
    char buf[256];
    std::snprintf(buf, sizeof buf, fmt, args...);
    return buf;
}

// m:ss below an hour, h:mm:ss above.
std::string clock(double seconds) {
    const auto s = static_cast<unsigned long long>(std::llround(std::max(0.0, seconds)));
    if (s < 3600) return format("%llu:%02llu", s / 60, s % 60);
    return format("%llu:%02llu:%02llu", s / 3600, s / 60 % 60, s % 60);
}

double fractionDone(const ProgressSnapshot& s) {
    return s.work.ctasTotal ? double(s.work.ctasDone) / double(s.work.ctasTotal) : 0.0;
}

// The host time left if the CTAs still to finish take as long each as the finished ones did.
std::string eta(const ProgressSnapshot& s) {
    if (s.work.ctasDone == 0) return "?";
    return clock(s.elapsedSeconds * double(s.work.ctasTotal - s.work.ctasDone) / double(s.work.ctasDone));
}

// "kernels 1/3 ended, running kernel1 (name) CTA 45/120": kernel<i> as the statistics name it.
std::string kernels(const CtaDispatcher::Progress& w) {
    std::string out = format("kernels %zu/%zu ended", w.kernelsEnded, w.kernels);
    for (size_t j = 0; j < w.running.size(); ++j) {
        const auto& k = w.running[j];
        out += (j == 0 ? ", running " : ", ") + format("kernel%zu (", k.index) + k.name +
               format(") CTA %llu/%llu", static_cast<unsigned long long>(k.ctasDone),
                      static_cast<unsigned long long>(k.ctas));
    }
    return out;
}

unsigned terminalColumns(std::FILE* out) {
    winsize w{};
    if (ioctl(fileno(out), TIOCGWINSZ, &w) == 0 && w.ws_col > 0) return w.ws_col;
    return 80;
}

double ipc(const ProgressSnapshot& s) { return s.cycle ? double(s.warpInstructions) / double(s.cycle) : 0.0; }

} // namespace

ProgressMode progressModeFrom(const std::string& s, const std::string& option) {
    if (s == "none") return ProgressMode::None;
    if (s == "bar") return ProgressMode::Bar;
    if (s == "plain") return ProgressMode::Plain;
    throw InputError(option + ": '" + s + "' is not a progress display (bar, plain or none)");
}

ProgressReporter::ProgressReporter(ProgressMode mode, double plainIntervalSeconds, std::FILE* out)
    : mode_(mode), interval_(plainIntervalSeconds),
      next_(mode == ProgressMode::Bar ? kBarDelaySeconds : plainIntervalSeconds), out_(out),
      columns_(mode == ProgressMode::Bar ? terminalColumns(out) : 0) {}

std::string ProgressReporter::fit(const std::string& line, unsigned columns) {
    const size_t room = columns > 1 ? columns - 1 : 0;
    return line.size() <= room ? line : line.substr(0, room);
}

std::string ProgressReporter::plainLine(const ProgressSnapshot& s) {
    return format("[gpusim] %.1f %% done (%llu/%llu CTAs), ETA %s, %s elapsed; ", 100 * fractionDone(s),
                  static_cast<unsigned long long>(s.work.ctasDone), static_cast<unsigned long long>(s.work.ctasTotal),
                  eta(s).c_str(), clock(s.elapsedSeconds).c_str()) +
           kernels(s.work) +
           format("; cycle %llu, IPC %.3f, %.0f cycles/s", static_cast<unsigned long long>(s.cycle), ipc(s),
                  s.elapsedSeconds > 0 ? double(s.cycle) / s.elapsedSeconds : 0.0);
}

std::string ProgressReporter::barLine(const ProgressSnapshot& s) {
    constexpr int kWidth = 20;
    const int fill = std::min(kWidth, static_cast<int>(fractionDone(s) * kWidth));
    return "[gpusim] [" + std::string(fill, '#') + std::string(kWidth - fill, '.') + "] " +
           format("%5.1f %%  ETA %s  cycle %llu  IPC %.2f  ", 100 * fractionDone(s), eta(s).c_str(),
                  static_cast<unsigned long long>(s.cycle), ipc(s)) +
           kernels(s.work);  // last: what a narrow terminal cuts
}

void ProgressReporter::show(const ProgressSnapshot& s) {
    if (mode_ == ProgressMode::Bar) {
        // Back to the line's start, the text, then clear what a longer previous text left.
        std::fprintf(out_, "\r%s\033[K", fit(barLine(s), columns_).c_str());
        drawn_ = true;
        next_ = s.elapsedSeconds + kBarPeriodSeconds;
    } else if (mode_ == ProgressMode::Plain) {
        std::fprintf(out_, "%s\n", plainLine(s).c_str());
        next_ = s.elapsedSeconds + interval_;
    }
    std::fflush(out_);
}

void ProgressReporter::finish() {
    if (!drawn_) return;
    std::fprintf(out_, "\n");
    std::fflush(out_);
    drawn_ = false;
}

} // namespace gpusim
