#include "cli/SweepCommand.hpp"

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <thread>

#include <boost/program_options.hpp>

#include "common/SimError.hpp"
#include "cli/CommandLine.hpp"
#include "experiments/SlurmArray.hpp"
#include "experiments/Subprocess.hpp"
#include "experiments/SweepSpec.hpp"
#include "experiments/SweepStatCheck.hpp"
#include "experiments/SweepTable.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using nlohmann::json;

namespace gpusim {

namespace {

volatile std::sig_atomic_t gInterrupted = 0;
extern "C" void onInterrupt(int) { gInterrupted = 1; }

// Installs the handler without SA_RESTART, so runJobs' wait returns and sees the flag; the old
// handlers come back when the sweep ends.
class InterruptGuard {
public:
    InterruptGuard() {
        gInterrupted = 0;
        struct sigaction sa {};
        sa.sa_handler = onInterrupt;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = 0;
        sigaction(SIGINT, &sa, &oldInt_);
        sigaction(SIGTERM, &sa, &oldTerm_);
    }
    ~InterruptGuard() {
        sigaction(SIGINT, &oldInt_, nullptr);
        sigaction(SIGTERM, &oldTerm_, nullptr);
    }

private:
    struct sigaction oldInt_ {}, oldTerm_ {};
};

std::string duration(double s) {
    char buf[32];
    const long t = static_cast<long>(s + 0.5);
    if (t >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", t / 3600, t / 60 % 60);
    else if (t >= 60) std::snprintf(buf, sizeof buf, "%ldm%02lds", t / 60, t % 60);
    else std::snprintf(buf, sizeof buf, "%lds", t);
    return buf;
}

std::string safeName(const std::string& s) {
    std::string out;
    for (char c : s) out += (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-') ? c : '_';
    return out;
}

// Prints the end-of-sweep summary and failures on stdout; returns the exit status.
int report(const fs::path& out, const sweep::Table& t) {
    for (const auto& w : t.warnings) std::cerr << "gpusim: warning: " << w << "\n";
    const size_t notOk = t.failed + t.missing;
    if (notOk) {
        // Every failure with its error; missing jobs (an interrupted sweep) only the first few.
        std::cout << "not ok:\n";
        size_t missingShown = 0;
        for (const auto& r : t.rows)
            if (r.status == "failed" || (r.status == "missing" && missingShown++ < 10))
                std::cout << "  " << r.status << "  " << r.job->id << ": " << r.error << "\n";
        if (t.missing > 10) std::cout << "  ... and " << t.missing - 10 << " more missing (results.json lists all)\n";
    }
    std::cout << "summary: " << t.rows.size() << " jobs: " << t.ok << " ok, " << t.failed << " failed, " << t.missing
              << " missing; table in " << (out / "results.csv").string() << " and " << (out / "results.json").string()
              << "\n";
    return notOk ? 1 : 0;
}

int cmdCollect(const std::vector<std::string>& args) {
    std::string dir;
    po::options_description d("gpusim sweep collect options");
    d.add_options()("dir", po::value(&dir)->value_name("DIR"),
                    "a sweep's output directory (holds sweep.json and jobs/)")(
        "help,h", "show these options");
    po::positional_options_description pos;
    pos.add("dir", 1);
    const auto vm = parseCommandLine(d, args, &pos);
    if (vm.count("help")) {
        std::cout << helpText("usage: gpusim sweep collect DIR",
                              "Rebuild a sweep's results table from its job files (jobs run elsewhere, e.g. by Slurm).", d);
        return 0;
    }
    if (dir.empty()) throw InputError("sweep collect: expected the sweep's output directory");
    SweepSpec spec;
    std::vector<SweepJob> jobs;
    sweep::readManifest(dir, spec, jobs);
    const auto table = sweep::collectTable(dir, spec, jobs);
    sweep::writeTable(dir, table, spec);
    return report(dir, table);
}

// `gpusim sweep run-task OUT INDEX`: what one task of a Slurm array runs (SlurmArray.hpp).
int cmdRunTask(const std::vector<std::string>& args) {
    if (args.size() != 2 || args[0] == "--help" || args[0] == "-h")
        throw InputError("sweep run-task: expected OUT INDEX (the sweep's output directory and a job number; "
                         "run by the batch script of gpusim sweep --slurm)");
    const std::string& index = args[1];
    if (index.empty() || index.size() > 9 || index.find_first_not_of("0123456789") != std::string::npos)
        throw InputError("sweep run-task: INDEX: expected a job number, got '" + index +
                         "' (outside a Slurm array task $SLURM_ARRAY_TASK_ID is empty)");
    return slurm::runTask(args[0], std::stoul(index), selfExecutable());
}

// --slurm: the pending jobs as one job array (docs/sweeps.md, "Running on a Slurm cluster").
int runOnSlurm(const fs::path& out, const std::string& specFile, const SweepSpec& spec,
               const std::vector<SweepJob>& jobs, const std::vector<size_t>& pending, slurm::ArrayOptions opt,
               bool submit, bool wait) {
    const fs::path absOut = fs::absolute(out).lexically_normal();
    const std::string self = selfExecutable();
    std::cout << "gpusim sweep: " << jobs.size() << " jobs from " << specFile << " (" << jobs.size() - pending.size()
              << " already done, " << pending.size() << " to run) as a Slurm job array, into " << absOut.string()
              << "\n";
    if (pending.empty()) {
        const auto table = sweep::collectTable(out, spec, jobs);
        sweep::writeTable(out, table, spec);
        return report(out, table);
    }
    opt.jobName = "gpusim-" + fileNameSafe(spec.name);
    const std::string script = slurm::arrayScript(absOut, fs::current_path(), self, pending, opt);
    fs::create_directories(slurm::logDir(absOut));
    sweep::writeAtomically(slurm::scriptFile(absOut), script);
    fs::permissions(slurm::scriptFile(absOut), fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                    fs::perm_options::add);
    const std::string collect = self + " sweep collect " + absOut.string();
    if (!submit) {
        std::cout << "wrote " << slurm::scriptFile(absOut).string() << "; submit it with: sbatch "
                  << slurm::scriptFile(absOut).string() << "\nwhen the array has ended: " << collect << "\n";
        return 0;
    }
    const std::string id = slurm::submit(slurm::scriptFile(absOut));
    std::cout << "submitted Slurm job " << id << ": array " << slurm::arrayIndexList(pending) << " ("
              << pending.size() << " tasks), script " << slurm::scriptFile(absOut).string() << ", task logs in "
              << slurm::logDir(absOut).string() << "/\n";
    if (!wait) {
        std::cout << "when the array has ended (squeue -j " << id << " lists nothing): " << collect << "\n";
        return 0;
    }
    std::cout << "waiting for job " << id << " to end (Ctrl-C stops waiting, not the array; then: " << collect
              << ")\n"
              << std::flush;
    size_t lastDone = SIZE_MAX;
    slurm::waitForArray(id, [&] {
        size_t done = 0;
        std::error_code ec;
        for (size_t i : pending)
            done += fs::exists(sweep::resultFile(out, jobs[i].id), ec) || fs::exists(sweep::failedFile(out, jobs[i].id), ec);
        if (done != lastDone) std::cerr << "  job " << id << ": " << done << "/" << pending.size() << " tasks recorded\n";
        lastDone = done;
    });
    const auto table = sweep::collectTable(out, spec, jobs);
    sweep::writeTable(out, table, spec);
    return report(out, table);
}

class Progress {
public:
    Progress(size_t total, size_t already) : total_(total), done_(already), already_(already), tty_(isatty(2)) {}
    void finished(const std::string& id, bool ok, const std::string& error, double seconds) {
        ++done_;
        if (!ok) ++failed_;
        if (!tty_) {
            std::cerr << "[" << done_ << "/" << total_ << "] " << (ok ? "ok     " : "FAILED ") << id;
            if (ok) std::cerr << "  (" << std::fixed << std::setprecision(1) << seconds << " s)\n";
            else std::cerr << ": " << error << "\n";
            return;
        }
        if (!ok) std::cerr << "\r\033[K  FAILED " << id << ": " << error << "\n";
        draw();
    }
    void start() {
        if (tty_) draw();
    }
    void end() {
        if (tty_) std::cerr << "\n";
    }

private:
    void draw() {
        const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
        const size_t ran = done_ - already_, left = total_ - done_;
        std::string eta = ran ? duration(elapsed / double(ran) * double(left)) : "?";
        constexpr size_t width = 30;
        const size_t fill = total_ ? width * done_ / total_ : width;
        std::cerr << "\r\033[K  [" << std::string(fill, '#') << std::string(width - fill, '.') << "] " << done_ << "/"
                  << total_ << " done, " << failed_ << " failed, elapsed " << duration(elapsed) << ", ETA "
                  << (left ? eta : "0s") << std::flush;
    }
    size_t total_, done_, already_, failed_ = 0;
    bool tty_;
    std::chrono::steady_clock::time_point t0_ = std::chrono::steady_clock::now();
};

} // namespace

int cmdSweep(const std::vector<std::string>& args) {
    if (!args.empty() && args[0] == "collect") return cmdCollect({args.begin() + 1, args.end()});
    if (!args.empty() && args[0] == "run-task") return cmdRunTask({args.begin() + 1, args.end()});
    std::string specFile, outDir;
    std::vector<std::string> plugins;
    slurm::ArrayOptions slurmOpt;
    unsigned parallel = std::max(1u, std::thread::hardware_concurrency());
    po::options_description d("gpusim sweep options");
    d.add_options()("spec", po::value(&specFile)->value_name("SPEC"), "sweep specification (JSON; see docs/sweeps.md)")(
        "jobs,j", po::value(&parallel)->value_name("N")->default_value(parallel), "jobs run at the same time")(
        "out,o", po::value(&outDir)->value_name("DIR"), "output directory (default: sweep-<spec name>)")(
        "resume", "keep the finished jobs of an earlier run into --out and run only the others")(
        "list", "print the job ids and command lines, run nothing")(
        "slurm", "submit the jobs as a Slurm job array (sbatch) instead of running them here")(
        "partition", po::value(&slurmOpt.partition)->value_name("NAME"),
        "--slurm: the partition (default: the cluster's)")(
        "slurm-option", po::value(&slurmOpt.extra)->value_name("OPT")->composing(),
        "--slurm: one more sbatch option for the script, e.g. --time=30:00 (repeatable)")(
        "max-running", po::value(&slurmOpt.maxRunning)->value_name("K"),
        "--slurm: at most this many tasks at a time (array %K)")(
        "wait", "--slurm: wait for the array to end, then collect the table")(
        "no-submit", "--slurm: write the batch script but do not submit it")("help,h", "show these options");
    addPluginOption(d, plugins);
    po::positional_options_description pos;
    pos.add("spec", 1);
    const auto vm = parseCommandLine(d, args, &pos);
    if (vm.count("help")) {
        std::cout << helpText("usage: gpusim sweep SPEC [-j N] [--out DIR] [--resume] [--plugin LIB]...\n"
                              "       gpusim sweep SPEC --slurm [--out DIR] [--resume] [--partition P] [--slurm-option OPT]...\n"
                              "                   [--max-running K] [--wait | --no-submit]\n"
                              "       gpusim sweep collect DIR",
                              "Run a design-space sweep (docs/sweeps.md) and collect one results table.", d);
        return 0;
    }
    if (specFile.empty()) throw InputError("sweep: expected a SPEC file (gpusim sweep SPEC; see docs/sweeps.md)");
    if (parallel == 0) throw InputError("--jobs: must be at least 1");
    const bool slurm = vm.count("slurm") > 0;
    if (slurm) {
        if (!vm["jobs"].defaulted()) throw InputError("--jobs: not used with --slurm (see --max-running)");
        if (vm.count("wait") && vm.count("no-submit")) throw InputError("--wait: cannot wait with --no-submit");
        if (vm.count("max-running") && slurmOpt.maxRunning == 0) throw InputError("--max-running: must be at least 1");
        slurm::validateArrayOptions(slurmOpt);
    } else {
        for (const char* o : {"partition", "slurm-option", "max-running", "wait", "no-submit"})
            if (vm.count(o)) throw InputError(std::string("--") + o + ": only with --slurm");
    }
    // Loaded here to check the spec's scheduler names; every job loads them again.
    const std::vector<std::string> pluginPaths = loadPlugins(plugins);
    SweepSpec spec = loadSweepSpec(specFile);
    spec.plugins = pluginPaths;
    validateSweepSpec(spec);
    const std::vector<SweepJob> jobs = expandSweep(spec);
    const fs::path out = outDir.empty() ? fs::path("sweep-" + safeName(spec.name)) : fs::path(outDir);
    const std::string self = selfExecutable();
    if (vm.count("list")) {
        for (const auto& j : jobs) {
            std::cout << j.id << "\n ";
            for (const auto& a : sweepJobArgv(spec, j, "gpusim", sweep::resultFile(out, j.id).string())) std::cout << " " << a;
            std::cout << "\n";
        }
        return 0;
    }

    // Statistic names before any job runs (SweepStatCheck.hpp: a one-cycle run of the first job).
    sweep::checkSweepStats(spec, jobs, self, slurm ? 1 : parallel);

    const bool resume = vm.count("resume") > 0;
    const fs::path manifestFile = out / "sweep.json";
    if (fs::exists(manifestFile)) {
        if (!resume)
            throw InputError("--out: " + out.string() +
                             " already holds a sweep: pass --resume to continue it, or choose another --out");
        std::ifstream in(manifestFile);
        const json old = json::parse(in, nullptr, false);
        const json now = spec.fixedOptions();
        if (old.is_discarded() || !old.contains("fixed"))
            throw InputError(manifestFile.string() + ": not a sweep manifest; cannot resume into " + out.string());
        for (const auto& [k, v] : now.items())
            if (!old["fixed"].contains(k) || old["fixed"][k] != v)
                throw InputError(specFile + ": " + k + ": differs from the sweep being resumed in " + out.string() +
                                 " (was " + (old["fixed"].contains(k) ? old["fixed"][k].dump() : "absent") +
                                 "); its finished jobs would not match: use another --out");
    }
    fs::create_directories(sweep::jobsDir(out));
    sweep::writeAtomically(manifestFile, sweep::manifest(spec, jobs).dump(1) + "\n");

    std::vector<size_t> pending;
    for (size_t i = 0; i < jobs.size(); ++i) {
        if (!sweep::readResult(out, jobs[i].id).is_null()) continue;
        std::error_code ec;
        fs::remove(sweep::failedFile(out, jobs[i].id), ec);
        fs::remove(sweep::tempResultFile(out, jobs[i].id), ec);
        pending.push_back(i);
    }
    if (slurm) return runOnSlurm(out, specFile, spec, jobs, pending, slurmOpt, !vm.count("no-submit"), vm.count("wait") > 0);
    const size_t already = jobs.size() - pending.size();
    std::cout << "gpusim sweep: " << jobs.size() << " jobs from " << specFile << " (" << already
              << " already done, " << pending.size() << " to run), " << parallel << " at a time, into "
              << out.string() << "\n"
              << std::flush;

    std::vector<ProcessJob> pj;
    for (size_t i : pending) {
        const SweepJob& j = jobs[i];
        pj.push_back({sweepJobArgv(spec, j, self, sweep::tempResultFile(out, j.id).string()),
                      sweep::stdoutFile(out, j.id).string(), sweep::stderrFile(out, j.id).string()});
    }
    Progress progress(jobs.size(), already);
    {
        InterruptGuard guard;
        progress.start();
        runJobs(
            pj, parallel,
            [&](size_t k, const ProcessOutcome& o) {
                const SweepJob& j = jobs[pending[k]];
                const fs::path tmp = sweep::tempResultFile(out, j.id);
                std::error_code ec;
                if (!(o.status == 0 && fs::exists(tmp)) && gInterrupted && o.status == 128 + SIGINT) {
                    fs::remove(tmp, ec);  // cut short: neither done nor failed, rerun on --resume
                    return;
                }
                const std::string error = sweep::recordJobOutcome(out, j.id, o.status);
                progress.finished(j.id, error.empty(), "exit " + std::to_string(o.status) + ": " + error, o.seconds);
            },
            [] { return gInterrupted != 0; });
        progress.end();
    }
    const auto table = sweep::collectTable(out, spec, jobs);
    sweep::writeTable(out, table, spec);
    const int status = report(out, table);
    if (gInterrupted) {
        std::cout << "interrupted: rerun with --resume to run the " << table.missing << " missing jobs\n";
        return 130;
    }
    return status;
}

} // namespace gpusim
