// The Slurm back end of `gpusim sweep` without a cluster: the array index list (resume submits
// only the jobs without a result), the batch script against hand-written text, its option
// errors, the task runner (`gpusim sweep run-task`) recording ok / failed / killed jobs exactly as
// the local runner does (with a stand-in gpusim, and once with the real one on a tiny job), and
// sbatch / squeue handling with stand-in programs on PATH. The real single-node Slurm run is
// tb/slurm/slurm_sweep_test.sh (ctest label `slurm`).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/SimError.hpp"
#include "cli/SweepCommand.hpp"
#include "experiments/SlurmArray.hpp"
#include "experiments/Subprocess.hpp"
#include "experiments/SweepSpec.hpp"
#include "experiments/SweepTable.hpp"

namespace slurm_array_test {

using namespace gpusim;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string readText(const fs::path& p) {
    std::ifstream in(p);
    std::ostringstream os;
    os << in.rdbuf();
    return os.str();
}

void writeText(const fs::path& p, const std::string& text) {
    std::ofstream(p) << text;
}

void writeProgram(const fs::path& p, const std::string& body) {
    writeText(p, "#!/bin/sh\n" + body);
    fs::permissions(p, fs::perms::owner_all);
}

// A fresh directory per test (each test case runs in its own process).
struct Scratch {
    JobDirectory dir{"gpusim-slurm-test"};
    fs::path operator/(const std::string& s) const { return dir / s; }
};

std::string scriptError(const fs::path& out, const fs::path& work, const std::vector<size_t>& idx,
                        const slurm::ArrayOptions& opt) {
    try {
        slurm::arrayScript(out, work, "/opt/gpusim/bin/gpusim", idx, opt);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

std::string sweepError(const std::vector<std::string>& args) {
    try {
        cmdSweep(args);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

// A stand-in for `gpusim run`: what it does depends on the --workload value; it writes the
// --stats file only for "ok" (a minimal stats document: the table needs only "summary").
const char* kFakeGpusim = R"(
w=""; stats=""
while [ $# -gt 0 ]; do
  case "$1" in --workload) w=$2; shift ;; --stats) stats=$2; shift ;; esac
  shift
done
echo "ran $w" >> "$(dirname "$0")/ran.txt"
case "$w" in
  ok) printf '{"summary": {"cycles": 100, "warp_instructions": 50, "ipc": 0.5}}' > "$stats"; echo done ;;
  fail) echo "gpusim: error: --workload: fail: unknown workload" >&2; exit 2 ;;
  nostats) exit 0 ;;
  kill) kill -9 $$ ;;
esac
)";

// A manifest of four jobs, one per behaviour of the stand-in, into out.
std::vector<SweepJob> writeFakeSweep(const fs::path& out) {
    const SweepSpec spec = parseSweepSpec(
        json::parse(R"({"platforms": ["fermi15"], "schedulers": ["gto"], "workloads": ["ok", "fail", "nostats", "kill"]})"),
        "fake.json");
    const auto jobs = expandSweep(spec);
    fs::create_directories(sweep::jobsDir(out));
    writeText(out / "sweep.json", sweep::manifest(spec, jobs).dump(1));
    return jobs;
}

} // namespace

TEST(SweepSlurm, IndexListJoinsConsecutiveIndicesIntoRanges) {
    EXPECT_EQ(slurm::arrayIndexList({0, 1, 2, 3, 4, 5, 6, 7, 8, 9}), "0-9");
    // 1 alone, 3..5 a run, 9 alone.
    EXPECT_EQ(slurm::arrayIndexList({1, 3, 4, 5, 9}), "1,3-5,9");
    EXPECT_EQ(slurm::arrayIndexList({7}), "7");
    // Sorted and deduplicated first: {1, 2, 3}.
    EXPECT_EQ(slurm::arrayIndexList({3, 1, 2, 2}), "1-3");
    EXPECT_EQ(slurm::arrayIndexList({0, 2, 4}), "0,2,4");
}

TEST(SweepSlurm, ScriptWithEveryOption) {
    slurm::ArrayOptions opt;
    opt.jobName = "gpusim-mshr";
    opt.partition = "short";
    opt.maxRunning = 4;
    opt.extra = {"--time=30:00", "--mem=2G", "-A proj42"};
    const std::string s = slurm::arrayScript("/shared/sweeps/mshr", "/home/ann/study", "/opt/gpusim/bin/gpusim",
                                             {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, opt);
    EXPECT_EQ(s, "#!/bin/sh\n"
                 "# Written by `gpusim sweep --slurm`: array task I runs job I of /shared/sweeps/mshr/sweep.json\n"
                 "# and records it in /shared/sweeps/mshr/jobs (ID.json, or ID.failed). When the array has\n"
                 "# ended: gpusim sweep collect /shared/sweeps/mshr\n"
                 "#SBATCH --array=0-9%4\n"
                 "#SBATCH --job-name=gpusim-mshr\n"
                 "#SBATCH --ntasks=1\n"
                 "#SBATCH --cpus-per-task=1\n"
                 "#SBATCH --chdir=/home/ann/study\n"
                 "#SBATCH --output=/shared/sweeps/mshr/slurm/%A_%a.out\n"
                 "#SBATCH --partition=short\n"
                 "#SBATCH --time=30:00\n"
                 "#SBATCH --mem=2G\n"
                 "#SBATCH -A proj42\n"
                 "exec '/opt/gpusim/bin/gpusim' sweep run-task '/shared/sweeps/mshr' \"$SLURM_ARRAY_TASK_ID\"\n");
}

TEST(SweepSlurm, ScriptOfAResumeHasOnlyThePendingIndicesAndNoOptionalLines) {
    // Jobs 0..9 of which 0, 1, 3, 4, 7, 8, 9 have results: pending 2, 5, 6.
    const std::string s = slurm::arrayScript("/s/o", "/w", "/b/gpusim", {2, 5, 6}, {});
    EXPECT_EQ(s, "#!/bin/sh\n"
                 "# Written by `gpusim sweep --slurm`: array task I runs job I of /s/o/sweep.json\n"
                 "# and records it in /s/o/jobs (ID.json, or ID.failed). When the array has\n"
                 "# ended: gpusim sweep collect /s/o\n"
                 "#SBATCH --array=2,5-6\n"
                 "#SBATCH --ntasks=1\n"
                 "#SBATCH --cpus-per-task=1\n"
                 "#SBATCH --chdir=/w\n"
                 "#SBATCH --output=/s/o/slurm/%A_%a.out\n"
                 "exec '/b/gpusim' sweep run-task '/s/o' \"$SLURM_ARRAY_TASK_ID\"\n");
}

TEST(SweepSlurm, ScriptQuotesTheExecLineForTheShell) {
    // A quote in the executable's path: 'it'\''s' is the shell's way to write it's.
    const std::string s = slurm::arrayScript("/o", "/w", "/opt/it's/gpusim", {0}, {});
    EXPECT_NE(s.find("exec '/opt/it'\\''s/gpusim' sweep run-task '/o'"), std::string::npos) << s;
}

TEST(SweepSlurm, BadPathsAndOptionsAreOneLineErrors) {
    const slurm::ArrayOptions none;
    EXPECT_EQ(scriptError("rel/out", "/w", {0}, none), "--out: rel/out: must be an absolute path");
    EXPECT_EQ(scriptError("/my sweeps/o", "/w", {0}, none),
              "--out: '/my sweeps/o': must not contain blanks, quotes or backslashes (it is written into #SBATCH lines)");
    EXPECT_EQ(scriptError("/o", "/home/a\"b", {0}, none),
              "the current directory: '/home/a\"b': must not contain blanks, quotes or backslashes (it is written "
              "into #SBATCH lines)");
    EXPECT_EQ(scriptError("/o", "/w", {}, none), "--slurm: no job to submit");

    auto extra = [&](const std::string& o) {
        slurm::ArrayOptions opt;
        opt.extra = {o};
        return scriptError("/o", "/w", {0}, opt);
    };
    EXPECT_EQ(extra("time=30"), "--slurm-option: 'time=30': expected an sbatch option such as --time=30:00");
    EXPECT_EQ(extra("--array=0-3"),
              "--slurm-option: '--array=0-3': --array is set by gpusim sweep itself (use --partition / "
              "--max-running for those)");
    EXPECT_NE(extra("-o /tmp/x").find("-o is set by gpusim sweep itself"), std::string::npos);
    EXPECT_NE(extra("--output /tmp/x").find("--output is set"), std::string::npos);
    EXPECT_NE(extra("-pgpu").find("-p is set"), std::string::npos);
    EXPECT_EQ(extra("--time=1\n#SBATCH --array=1"), "--slurm-option: an option must not contain a line break");
    // A long option is compared whole (--open-mode is not -o), a short one by its letter.
    EXPECT_EQ(extra("--open-mode=append"), "");
    EXPECT_EQ(extra("-t 10"), "");

    slurm::ArrayOptions part;
    part.partition = "a b";
    EXPECT_EQ(scriptError("/o", "/w", {0}, part), "--partition: 'a b': not a partition name");
}

TEST(SweepSlurm, SweepOptionsAreCheckedBeforeTheSpecIsRead) {
    // The spec file does not exist: each option error must come first.
    EXPECT_EQ(sweepError({"none.json", "--partition", "p"}), "--partition: only with --slurm");
    EXPECT_EQ(sweepError({"none.json", "--wait"}), "--wait: only with --slurm");
    EXPECT_EQ(sweepError({"none.json", "--slurm-option=--time=5"}), "--slurm-option: only with --slurm");
    EXPECT_EQ(sweepError({"none.json", "--slurm", "-j", "2"}), "--jobs: not used with --slurm (see --max-running)");
    EXPECT_EQ(sweepError({"none.json", "--slurm", "--wait", "--no-submit"}), "--wait: cannot wait with --no-submit");
    EXPECT_EQ(sweepError({"none.json", "--slurm", "--max-running", "0"}), "--max-running: must be at least 1");
    EXPECT_NE(sweepError({"none.json", "--slurm", "--slurm-option", "--chdir=/x"}).find("--chdir is set by gpusim"),
              std::string::npos);
    EXPECT_EQ(sweepError({"run-task", "/o"}).rfind("sweep run-task: expected OUT INDEX", 0), 0u);
    EXPECT_EQ(sweepError({"run-task", "/o", ""}),
              "sweep run-task: INDEX: expected a job number, got '' (outside a Slurm array task "
              "$SLURM_ARRAY_TASK_ID is empty)");
}

TEST(SweepSlurm, NoSubmitWritesManifestAndScriptAndResumeListsOnlyPendingJobs) {
    Scratch t;
    writeText(t / "two.json", R"({"name": "two", "platforms": ["fermi15"], "schedulers": ["gto"],
        "workloads": ["atax:n=32", "bicg:n=32", "mvt:n=32"]})");
    const fs::path out = t / "out";
    ASSERT_EQ(cmdSweep({(t / "two.json").string(), "--slurm", "--no-submit", "--out", out.string(), "--max-running",
                        "2", "--partition", "debug"}),
              0);
    SweepSpec spec;
    std::vector<SweepJob> jobs;
    sweep::readManifest(out, spec, jobs);
    ASSERT_EQ(jobs.size(), 3u);
    const std::string script = readText(slurm::scriptFile(out));
    EXPECT_NE(script.find("#SBATCH --array=0-2%2\n"), std::string::npos) << script;
    EXPECT_NE(script.find("#SBATCH --job-name=gpusim-two\n"), std::string::npos) << script;
    EXPECT_NE(script.find("#SBATCH --partition=debug\n"), std::string::npos) << script;
    EXPECT_NE(script.find("#SBATCH --chdir=" + fs::current_path().string() + "\n"), std::string::npos) << script;
    EXPECT_NE(script.find("sweep run-task '" + fs::absolute(out).lexically_normal().string() + "'"),
              std::string::npos)
        << script;
    EXPECT_TRUE((fs::status(slurm::scriptFile(out)).permissions() & fs::perms::owner_exec) != fs::perms::none);

    // Without --resume the directory is refused, as for a local sweep.
    EXPECT_NE(sweepError({(t / "two.json").string(), "--slurm", "--no-submit", "--out", out.string()})
                  .find("already holds a sweep"),
              std::string::npos);
    // Job 1 finished, job 0 failed: --resume submits jobs 0 and 2 ("0,2"), and clears 0's .failed.
    writeText(sweep::resultFile(out, jobs[1].id), R"({"summary": {"cycles": 1}})");
    writeText(sweep::failedFile(out, jobs[0].id), R"({"status": 3, "error": "x"})");
    ASSERT_EQ(cmdSweep({(t / "two.json").string(), "--slurm", "--no-submit", "--resume", "--out", out.string()}), 0);
    EXPECT_NE(readText(slurm::scriptFile(out)).find("#SBATCH --array=0,2\n"), std::string::npos);
    EXPECT_FALSE(fs::exists(sweep::failedFile(out, jobs[0].id)));
}

TEST(SweepSlurm, RunTaskRecordsOkFailedAndKilledJobsAsTheLocalRunnerDoes) {
    Scratch t;
    const fs::path gpusim = t / "gpusim";
    writeProgram(gpusim, kFakeGpusim);
    const fs::path out = t / "out";
    const auto jobs = writeFakeSweep(out);
    ASSERT_EQ(jobs.size(), 4u);
    EXPECT_EQ(jobs[0].id, "fermi15__gto__ok");

    // ok: the child wrote ID.json.tmp and exited 0, so it is renamed to ID.json.
    EXPECT_EQ(slurm::runTask(out, 0, gpusim.string()), 0);
    EXPECT_EQ(json::parse(readText(sweep::resultFile(out, jobs[0].id)))["summary"]["cycles"], json(100));
    EXPECT_FALSE(fs::exists(sweep::tempResultFile(out, jobs[0].id)));
    EXPECT_FALSE(fs::exists(sweep::failedFile(out, jobs[0].id)));
    EXPECT_EQ(readText(sweep::stdoutFile(out, jobs[0].id)), "done\n");

    // Exit 2: ID.failed with the status and the last line of stderr; no result.
    EXPECT_EQ(slurm::runTask(out, 1, gpusim.string()), 1);
    EXPECT_EQ(json::parse(readText(sweep::failedFile(out, jobs[1].id))),
              json::parse(R"({"status": 2, "error": "gpusim: error: --workload: fail: unknown workload"})"));
    EXPECT_FALSE(fs::exists(sweep::resultFile(out, jobs[1].id)));

    // Exit 0 but no statistics written.
    EXPECT_EQ(slurm::runTask(out, 2, gpusim.string()), 1);
    EXPECT_EQ(json::parse(readText(sweep::failedFile(out, jobs[2].id))),
              json::parse(R"({"status": 0, "error": "exited 0 without writing statistics"})"));

    // SIGKILL: status 128 + 9 = 137, and with an empty stderr the signal is the error.
    EXPECT_EQ(slurm::runTask(out, 3, gpusim.string()), 1);
    EXPECT_EQ(json::parse(readText(sweep::failedFile(out, jobs[3].id))),
              json::parse(R"({"status": 137, "error": "killed by signal 9"})"));

    // The table collect builds from these files: 1 ok, 3 failed.
    SweepSpec spec;
    std::vector<SweepJob> back;
    sweep::readManifest(out, spec, back);
    const auto table = sweep::collectTable(out, spec, back);
    EXPECT_EQ(table.ok, 1u);
    EXPECT_EQ(table.failed, 3u);
    EXPECT_EQ(table.missing, 0u);

    // A finished job is not rerun (the stand-in logs every run: 4 so far), a stale .failed of a
    // job rerun is replaced, and an index past the manifest is an input error.
    EXPECT_EQ(slurm::runTask(out, 0, gpusim.string()), 0);
    EXPECT_EQ(readText(t / "ran.txt"), "ran ok\nran fail\nran nostats\nran kill\n");
    EXPECT_THROW(slurm::runTask(out, 4, gpusim.string()), InputError);
    EXPECT_THROW(slurm::runTask(t / "nothing", 0, gpusim.string()), InputError);
}

TEST(SweepSlurm, RunTaskRunsARealTinyJobThroughGpusim) {
    Scratch t;
    const fs::path out = t / "out";
    const SweepSpec spec = parseSweepSpec(
        json::parse(R"({"platforms": ["fermi15"], "schedulers": ["gto"], "workloads": ["atax:n=32"]})"), "t.json");
    const auto jobs = expandSweep(spec);
    fs::create_directories(sweep::jobsDir(out));
    writeText(out / "sweep.json", sweep::manifest(spec, jobs).dump());
    const std::string gpusim = GPUSIM_BINARY_DIR "/gpusim";
    ASSERT_EQ(slurm::runTask(out, 0, gpusim), 0) << readText(sweep::stderrFile(out, jobs[0].id));
    const json doc = sweep::readResult(out, jobs[0].id);
    ASSERT_FALSE(doc.is_null());

    // The same job as a direct `gpusim run`: equal cycle counts (the simulation is deterministic).
    int status = -1;
    runJobs({{{gpusim, "run", "--quiet", "--platform", "fermi15", "--scheduler", "gto", "--workload", "atax:n=32",
               "--stats", (t / "direct.json").string()},
              (t / "d.out").string(),
              (t / "d.err").string()}},
            1, [&](size_t, const ProcessOutcome& o) { status = o.status; });
    ASSERT_EQ(status, 0) << readText(t / "d.err");
    const json direct = json::parse(readText(t / "direct.json"));
    EXPECT_GT(doc["summary"]["cycles"].get<uint64_t>(), 0u);
    EXPECT_EQ(doc["summary"]["cycles"], direct["summary"]["cycles"]);
    EXPECT_EQ(doc["summary"]["warp_instructions"], direct["summary"]["warp_instructions"]);
}

TEST(SweepSlurm, SubmitNeedsSbatchOnPathAndReportsItsErrors) {
    Scratch t;
    const fs::path bin = t / "bin";
    fs::create_directories(bin);
    const fs::path script = t / "array.sh";
    writeText(script, "#!/bin/sh\n");
    setenv("PATH", bin.c_str(), 1);
    try {
        slurm::submit(script);
        FAIL() << "no sbatch on PATH must throw";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "--slurm: sbatch not found on PATH (run this on a Slurm login node); the "
                                         "script is " + script.string());
    }

    // The stand-ins first, the system's directories after them for dirname and cat.
    setenv("PATH", (bin.string() + ":/usr/bin:/bin").c_str(), 1);
    writeProgram(bin / "sbatch", "echo 'sbatch: error: invalid partition specified: gpu' >&2\n"
                                 "echo 'sbatch: error: Batch job submission failed' >&2\nexit 1\n");
    try {
        slurm::submit(script);
        FAIL() << "a failing sbatch must throw";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "--slurm: sbatch --parsable " + script.string() +
                                             " failed (exit 1): sbatch: error: invalid partition specified: gpu | "
                                             "sbatch: error: Batch job submission failed");
    }

    // --parsable prints "ID" or "ID;CLUSTER"; the arguments are exactly --parsable SCRIPT.
    writeProgram(bin / "sbatch", "echo \"$@\" > \"$(dirname \"$0\")/args\"\necho '4242;cluster1'\n");
    EXPECT_EQ(slurm::submit(script), "4242");
    EXPECT_EQ(readText(bin / "args"), "--parsable " + script.string() + "\n");

    writeProgram(bin / "sbatch", "echo 'Submitted batch job'\n");
    EXPECT_THROW(slurm::submit(script), InputError);
}

TEST(SweepSlurm, ArrayIsActiveWhileAnyTaskIsNotFinished) {
    Scratch t;
    const fs::path bin = t / "bin";
    fs::create_directories(bin);
    setenv("PATH", bin.c_str(), 1);
    std::string error;
    EXPECT_TRUE(slurm::arrayActive("7", error));
    EXPECT_EQ(error, "squeue not found on PATH");

    // The stand-in prints the states written in bin/states, or fails like squeue does.
    setenv("PATH", (bin.string() + ":/usr/bin:/bin").c_str(), 1);
    writeProgram(bin / "squeue", "echo \"$@\" > \"$(dirname \"$0\")/args\"\ncat \"$(dirname \"$0\")/states\"\n");
    writeText(bin / "states", "COMPLETED\nRUNNING\nPENDING\n");
    EXPECT_TRUE(slurm::arrayActive("7", error));
    EXPECT_EQ(error, "");
    EXPECT_EQ(readText(bin / "args"), "--noheader --jobs=7 --states=all --format=%T\n");
    writeText(bin / "states", "COMPLETED\nCOMPLETING\n");  // completing: still on the node
    EXPECT_TRUE(slurm::arrayActive("7", error));
    writeText(bin / "states", "COMPLETED\nFAILED\nTIMEOUT\nCANCELLED\n");
    EXPECT_FALSE(slurm::arrayActive("7", error));
    EXPECT_EQ(error, "");
    writeText(bin / "states", "");
    EXPECT_FALSE(slurm::arrayActive("7", error));

    writeProgram(bin / "squeue", "echo 'slurm_load_jobs error: Invalid job id specified' >&2\nexit 1\n");
    EXPECT_FALSE(slurm::arrayActive("7", error));  // purged: long finished
    EXPECT_EQ(error, "");
    writeProgram(bin / "squeue", "echo 'slurm_load_jobs error: Unable to contact slurm controller' >&2\nexit 1\n");
    EXPECT_TRUE(slurm::arrayActive("7", error));
    EXPECT_EQ(error, "squeue failed (exit 1): slurm_load_jobs error: Unable to contact slurm controller");
}

} // namespace slurm_array_test
