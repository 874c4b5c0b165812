#pragma once
// The progress display of a `gpusim run` on stderr: percent done, an estimate of the time left,
// the kernels running and the simulated cycle. Two forms: a bar redrawn in place (a terminal) and
// plain lines, one every --progress-interval seconds (a log file: nohup, Slurm, Python).
//
// Done is the fraction of the workload's CTAs finished, over every kernel it launches; the time
// left assumes the CTAs still to come cost, on average, the host time the finished ones took. That
// is an approximation: kernels whose CTAs differ in length (or a kernel that ends with fewer CTAs
// running than SMs) make it wrong by as much as they differ. A display only: it reads the model
// and the host clock, never changes either, so the statistics are the same with or without it.
#include <cstdint>
#include <cstdio>
#include <string>

#include "modules/CtaDispatcher.hpp"

namespace gpusim {

enum class ProgressMode { None, Bar, Plain };

// "none", "bar", "plain"; throws InputError naming `option` for another word.
ProgressMode progressModeFrom(const std::string& s, const std::string& option);

// What one display shows.
struct ProgressSnapshot {
    double elapsedSeconds = 0;  // host time since the run started
    uint64_t cycle = 0, warpInstructions = 0;
    CtaDispatcher::Progress work;
};

class ProgressReporter {
public:
    // Bar: first drawn after kBarDelaySeconds, then redrawn every kBarPeriodSeconds (a short run
    // shows nothing). Plain: a line every `plainIntervalSeconds`, the first after one interval.
    ProgressReporter(ProgressMode mode, double plainIntervalSeconds, std::FILE* out = stderr);

    static constexpr double kBarDelaySeconds = 2.0, kBarPeriodSeconds = 0.5;

    ProgressMode mode() const { return mode_; }
    // A display is due at this host time.
    bool due(double elapsedSeconds) const { return mode_ != ProgressMode::None && elapsedSeconds >= next_; }
    // Draws the bar or writes the line, and sets when the next one is due.
    void show(const ProgressSnapshot& s);
    // Ends the bar's line (before the summary or an error message); nothing for plain lines.
    void finish();

    // The text of one display, without the bar's carriage return (for tests and the two forms).
    static std::string plainLine(const ProgressSnapshot& s);
    static std::string barLine(const ProgressSnapshot& s);
    // `line` cut to columns - 1 characters: a bar wider than the terminal would wrap, and the
    // carriage return would then redraw only its last row.
    static std::string fit(const std::string& line, unsigned columns);

private:
    ProgressMode mode_;
    double interval_;
    double next_;
    std::FILE* out_;
    unsigned columns_;    // the terminal's width (80 when it cannot be asked)
    bool drawn_ = false;  // the bar is on the screen, its line not ended
};

} // namespace gpusim
