"""gpusim from Python (docs/extending.md, "Python").

    import gpusim
    r = gpusim.run(platform="fermi15", scheduler="gto", workload="atax:n=64", set={"l1d.ways": 4})
    r.summary["ipc"], r.stats["sm0.issued"], r.to_pandas()
    r = gpusim.run(workload="atax:n=64", sample_interval=1000); r.time_series(), r.kernel_stats()
    r = gpusim.load("stats.json")   # a file written by gpusim run --stats
    df = gpusim.sweep(schedulers=["lrr", "gto"], workloads=["atax:n=64", "bicg:n=64"], jobs=2)
    gpusim.platforms(), gpusim.schedulers(), gpusim.workloads(), gpusim.schema()

Every simulation runs in a process of its own (a SystemC kernel runs once per process): run() starts
the gpusim executable with --stats, sweep() runs `gpusim sweep` (in parallel, or as a Slurm job
array). A warp-scheduling policy written in Python subclasses Policy; the gpusim process runs it
in an embedded interpreter (the plugin libgpusim_python.so), which imports the class from its
module or script, or, for a class typed at a prompt or in a notebook, loads it serialised by value
(cloudpickle, Debian python3-cloudpickle).

Where the executable is found, first match: $GPUSIM_EXECUTABLE (and $GPUSIM_PYTHON_PLUGIN);
$GPUSIM_BUILD_DIR; the build or install this copy of the package belongs to (its _install.py);
the build/ directory of the source checkout holding this package (./setup.sh's); gpusim on PATH.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from . import _progress
from ._progress import Progress

__all__ = ["run", "load", "sweep", "platforms", "schedulers", "workloads", "schema", "Policy", "Result", "Progress",
           "GpusimError", "executable", "plugin"]

_HERE = os.path.dirname(os.path.abspath(__file__))
_PLUGIN_NAME = "libgpusim_python.so"


class GpusimError(RuntimeError):
    """The gpusim command failed: `status` is its exit status (2 bad input, 3 model error),
    `stderr` its whole error output; the message is its last error line."""

    def __init__(self, message, status=None, stderr=""):
        super().__init__(message)
        self.status = status
        self.stderr = stderr


def _locate():
    """(executable, plugin or None)."""
    exe = os.environ.get("GPUSIM_EXECUTABLE")
    if exe:
        plugin = os.environ.get("GPUSIM_PYTHON_PLUGIN") or os.path.join(os.path.dirname(exe), "python", _PLUGIN_NAME)
        return exe, plugin if os.path.isfile(plugin) else None
    candidates = []
    if os.environ.get("GPUSIM_BUILD_DIR"):
        b = os.environ["GPUSIM_BUILD_DIR"]
        candidates.append((os.path.join(b, "gpusim"), os.path.join(b, "python", _PLUGIN_NAME)))
    try:
        from . import _install  # written by CMake into the build tree's and the installed copy

        candidates.append((os.path.join(_HERE, _install.EXECUTABLE), os.path.join(_HERE, _install.PLUGIN)))
    except ImportError:
        pass
    build = os.path.join(os.path.dirname(_HERE), "build")  # the source checkout's ./setup.sh build
    candidates.append((os.path.join(build, "gpusim"), os.path.join(build, "python", _PLUGIN_NAME)))
    for exe, plugin in candidates:
        if os.path.isfile(exe) and os.access(exe, os.X_OK):
            return os.path.normpath(exe), os.path.normpath(plugin) if os.path.isfile(plugin) else None
    exe = shutil.which("gpusim")
    if exe:
        plugin = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(exe))), "lib", "gpusim", _PLUGIN_NAME)
        return exe, plugin if os.path.isfile(plugin) else None
    raise GpusimError("gpusim executable not found: run ./setup.sh, or set GPUSIM_BUILD_DIR or GPUSIM_EXECUTABLE")


def executable():
    """The gpusim executable this module runs."""
    return _locate()[0]


def plugin():
    """The Python policy plugin (libgpusim_python.so), or None when it was not built."""
    return _locate()[1]


# ---------------------------------------------------------------------------------------------
# Python policies


class Policy:
    """A warp-scheduling policy written in Python: subclass it, set `name`, override the hooks
    you need (those not overridden cost nothing). One instance per SM, made with the parameters
    declared in `parameters` as keyword arguments (also in self.params). The hooks, their
    arguments and the SM view have the names of the C++ interface (scheduler/SchedulerPolicy.hpp,
    scheduler/SmView.hpp): sm.warp(slot).age, sm.mshrFree(), ...

    A prototyping path: every hook call crosses into Python (docs/extending.md gives the measured
    cost per call); port a policy that works to a C++ plugin for speed.
    """

    name = None  # the scheduler name, as --scheduler takes it
    description = ""  # one line for `gpusim list schedulers` (default: the docstring's first line)
    # {"k": (default, min, max, "description")}: whole numbers when all three are ints.
    parameters = {}
    # The C++ capability: order() depends only on the warps and on what the hooks saw, and onCycle
    # is not overridden; the SM then skips calls while nothing can issue (speed only).
    idleWhileStalled = False

    def __init__(self, **params):
        self.params = params

    def attach(self, sm):
        """Once, before the first cycle, with the SM's view."""

    def registerStats(self, stats):
        """Once: stats.counter("name", "description") -> a counter (.inc(n=1), .value) reported
        as sm<i>.sched.name."""

    def order(self, sched, warps, sm):
        """Priority order of scheduler `sched`'s valid warp slots `warps` (a list), highest
        first: return the reordered list, or reorder it in place and return None."""

    def canIssue(self, warp, sm):
        """The policy's gate, asked last: True lets the warp's next instruction issue."""
        return True

    def onCycle(self, cycle, sm): pass
    def onIssue(self, sched, warp, sm): pass
    def onL1Access(self, event): pass  # event.warp, .pc, .lineAddr, .hit, .merged, .isWrite, .reusePredicted
    def onL1Evict(self, lineAddr, ownerWarp): pass
    def onMshrAlloc(self, lineAddr): pass
    def onMshrFree(self, lineAddr): pass
    def onLoadServiced(self, event): pass  # event.warp, .pc, .activeLanes, .accesses, .setsTouched, .fullyCached
    def onLoadComplete(self, warp, pc, fullyCached, accesses): pass
    def onBarrierArrive(self, warp): pass
    def onBarrierRelease(self, ctaSlot): pass
    def onWarpStart(self, warp): pass
    def onWarpEnd(self, warp): pass
    def onCtaStart(self, ctaSlot): pass
    def onCtaEnd(self, ctaSlot): pass
    def onKernelStart(self): pass
    def onKernelEnd(self): pass


def _param_decls(cls):
    """[(name, default, min, max, description, integer)] of a Policy subclass."""
    out = []
    for pname, decl in dict(cls.parameters).items():
        decl = tuple(decl)
        if len(decl) not in (3, 4):
            raise TypeError(f"{cls.__name__}.parameters['{pname}']: expected (default, min, max[, description])")
        default, lo, hi = decl[:3]
        desc = decl[3] if len(decl) == 4 else ""
        integer = all(isinstance(v, int) and not isinstance(v, bool) for v in (default, lo, hi))
        out.append((pname, float(default), float(lo), float(hi), str(desc), integer))
    return out


def _policy_entry(cls, pickle_dir):
    """How the gpusim process finds the class: ('MODULE:QUALNAME' or 'FILE.py:QUALNAME', dir for
    PYTHONPATH or None) when it can import it; else ('FILE.pickle:QUALNAME', None), the class
    serialised by value into pickle_dir (a class typed at a prompt or in a notebook)."""
    if not (isinstance(cls, type) and issubclass(cls, Policy)):
        raise TypeError(f"{cls!r} is not a subclass of gpusim.Policy")
    if not cls.name or not isinstance(cls.name, str):
        raise TypeError(f"{cls.__qualname__} has no `name` (the scheduler name)")
    module = sys.modules.get(cls.__module__)
    found = module
    for part in cls.__qualname__.split("."):
        found = getattr(found, part, None)
    path = getattr(module, "__file__", None)
    if found is not cls or not path:
        return _pickled_policy(cls, module, pickle_dir), None
    path = os.path.abspath(path)
    if cls.__module__ == "__main__":
        return f"{path}:{cls.__qualname__}", None
    root = os.path.dirname(path)
    for _ in range(cls.__module__.count(".")):
        root = os.path.dirname(root)
    if os.path.basename(path) == "__init__.py":
        root = os.path.dirname(root)
    return f"{cls.__module__}:{cls.__qualname__}", root


def _pickled_policy(cls, module, pickle_dir):
    """Serialises `cls` by value (its code, not a reference to its module) with cloudpickle into
    pickle_dir; the entry naming the file. gpusim.Policy itself stays a reference."""
    try:
        import cloudpickle
    except ImportError:
        raise GpusimError(f"{cls.__qualname__} is defined in {cls.__module__}, which has no file the simulation's "
                          "process could import: sending the class itself needs cloudpickle (Debian "
                          "python3-cloudpickle; ./setup.sh installs it), or define it in a module or script") from None
    # A module without a file that is in sys.modules would be pickled as a reference to it.
    by_value = module is not None and module.__name__ not in ("__main__", __name__)
    if by_value:
        cloudpickle.register_pickle_by_value(module)
    try:
        data = cloudpickle.dumps(cls)
    finally:
        if by_value:
            cloudpickle.unregister_pickle_by_value(module)
    os.makedirs(pickle_dir, exist_ok=True)
    fd, path = tempfile.mkstemp(prefix=f"policy-{cls.name}-", suffix=".pickle", dir=pickle_dir)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return f"{path}:{cls.__qualname__}"


def _scheduler_arg(s, policies):
    """A scheduler given as a string, a Policy subclass, or (subclass, {params}) -> the string;
    the classes are collected in `policies`."""
    if isinstance(s, tuple):
        cls, values = s
        _scheduler_arg(cls, policies)
        return cls.name + (":" + ",".join(f"{k}={v}" for k, v in values.items()) if values else "")
    if isinstance(s, type):
        if s not in policies:
            policies.append(s)
        return s.name
    return str(s)


def _policy_env(policies, plugins, pickle_dir):
    """Command-line additions and environment for the Python policies `policies` (those the
    gpusim process cannot import are written into pickle_dir, which must outlive the runs)."""
    env = os.environ.copy()
    env.setdefault("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1")
    args = []
    for p in plugins:
        args += ["--plugin", os.path.abspath(p)]
    if not policies:
        return args, env
    lib = plugin()
    if lib is None:
        raise GpusimError("Python policies need the plugin libgpusim_python.so, which this build lacks "
                          "(pybind11-dev and python3-dev: ./setup.sh installs them)")
    entries, paths = [], [os.path.dirname(_HERE)]  # this package, for `import gpusim` in there
    for cls in policies:
        entry, root = _policy_entry(cls, pickle_dir)
        entries.append(entry)
        if root and root not in paths:
            paths.append(root)
    env["GPUSIM_PYTHON_POLICIES"] = ";".join(entries)
    # The embedded interpreter is Debian's: only our directories, never another Python's library.
    old = env.get("PYTHONPATH")
    env["PYTHONPATH"] = os.pathsep.join(paths + ([old] if old else []))
    return args + ["--plugin", lib], env


def _set_args(values):
    args = []
    for k, v in (values or {}).items():
        if isinstance(v, bool):
            v = "true" if v else "false"
        args += ["--set", f"{k}={v}"]
    return args


def _check(proc, what):
    if proc.returncode != 0:
        lines = [l for l in proc.stderr.splitlines() if l.strip()]
        last = next((l for l in reversed(lines) if l.startswith("gpusim:")), lines[-1] if lines else "")
        raise GpusimError(f"{what}: exit status {proc.returncode}: {last}", proc.returncode, proc.stderr)


# ---------------------------------------------------------------------------------------------
# Running


class Result:
    """One run: `summary` (dict: cycles, ipc, l1d_read_hit_rate, ...), `stats` (dict: every
    statistic by name; averages and histograms as dicts), `descriptions` and `units` (by statistic
    name), `config`, `kernels`, `scheduler`, `workload`, `seed`, and `data`, the whole --stats
    document (docs/user-guide.md)."""

    def __init__(self, data):
        self.data = data
        self.summary = data.get("summary", {})
        self.stats = data.get("stats", {})
        self.config = data.get("config", {})
        self.kernels = data.get("kernels", [])
        self.scheduler = data.get("scheduler")
        self.workload = data.get("workload")
        self.platform = data.get("platform")
        self.seed = data.get("seed")
        self.descriptions = data.get("descriptions", {})
        self.units = data.get("units", {})

    def time_series(self):
        """The --sample-interval table as a pandas DataFrame, one row per interval (columns cycle,
        ipc, l1d_miss_rate, ..., sm<i>.ipc; a null rate is NaN). Raises ValueError when the run was
        not sampled."""
        import pandas as pd

        ts = self.data.get("time_series")
        if ts is None:
            raise ValueError("this run has no time series (run it with sample_interval=CYCLES)")
        df = pd.DataFrame(ts["columns"], dtype=float)
        df.attrs["interval_cycles"] = ts["interval_cycles"]
        df.attrs["descriptions"] = ts.get("descriptions", {})
        return df

    def kernel_stats(self):
        """Per-kernel statistics as a pandas DataFrame, one row per kernel (index, name, stream,
        start_cycle, end_cycle, then every statistic that moved: counters as their change, averages
        and histograms as their mean over the kernel's samples; docs/user-guide.md)."""
        import pandas as pd

        rows = []
        for k in self.data.get("kernel_stats", []):
            row = {c: k[c] for c in ("index", "name", "stream", "start_cycle", "end_cycle")}
            for n, v in k["stats"].items():
                row[n] = v["mean"] if isinstance(v, dict) else v
            rows.append(row)
        return pd.DataFrame(rows)

    def flat(self):
        """Summary and statistics as one flat dict: nested values as 'a.b' (ldst_stalls.LDST_MSHR,
        sm0.ldst.load_latency.mean); histogram buckets left out."""
        out = {}

        def add(prefix, v):
            if isinstance(v, dict):
                for k, x in v.items():
                    if k != "buckets":
                        add(f"{prefix}.{k}", x)
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                out[prefix] = v

        for k, v in self.summary.items():
            add(k, v)
        for k, v in self.stats.items():
            add(k, v)
        return out

    def to_pandas(self):
        """A pandas Series of flat() (needs pandas: Debian python3-pandas)."""
        import pandas as pd

        s = pd.Series(self.flat())
        s.name = f"{self.platform}/{(self.scheduler or {}).get('name')}/{(self.workload or {}).get('name')}"
        return s

    def __repr__(self):
        s = self.summary
        return (f"<gpusim.Result {self.platform} {(self.scheduler or {}).get('name')} "
                f"{(self.workload or {}).get('name')}: {s.get('cycles')} cycles, IPC {s.get('ipc')}>")


def load(path):
    """The Result of a statistics file written by `gpusim run --stats`."""
    with open(path) as f:
        return Result(json.load(f))


def run(platform="fermi15", scheduler="gto", workload="atax", set=None, seed=1, max_cycles=0,
        policies=(), plugins=(), args=(), timeout=None, progress=None, progress_interval=1.0, sample_interval=0):
    """Simulates one workload and returns a Result. `scheduler`: a name with parameters
    ("swl:warps=4"), a Policy subclass, or (subclass, {"k": v}); `policies`: further Policy
    subclasses the scheduler string may name; `set`: {key: value} (--set); `plugins`: C++ policy
    plugins (--plugin); `args`: more gpusim run options (["--trace-warps", "w.json"]).
    `progress`: None (nothing), True (a tqdm bar when tqdm is installed, Debian python3-tqdm, else
    gpusim's plain lines on stderr) or a function called with a Progress for every line, one every
    `progress_interval` host seconds (the first after one interval). The statistics are the same.
    `sample_interval`: record the time series every that many core cycles (Result.time_series()).
    Raises GpusimError (with .status and .stderr) when gpusim fails."""
    policies = list(policies)
    sched = _scheduler_arg(scheduler, policies)
    with tempfile.TemporaryDirectory(prefix="gpusim-run-") as tmp:
        extra, env = _policy_env(policies, plugins, tmp)
        stats = os.path.join(tmp, "stats.json")
        cmd = [executable(), "run", "--quiet", "--stats", stats, "--platform", str(platform), "--scheduler", sched,
               "--workload", str(workload), "--seed", str(seed), "--max-cycles", str(max_cycles)]
        if sample_interval:
            cmd += ["--sample-interval", str(sample_interval)]
        cmd += _set_args(set) + extra + [str(a) for a in args]
        if progress:
            cmd += ["--progress=plain", f"--progress-interval={progress_interval}"]
            proc = _progress.run_with_progress(cmd, env, timeout, progress)
        else:
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout)
        _check(proc, "gpusim run")
        with open(stats) as f:
            return Result(json.load(f))


# ---------------------------------------------------------------------------------------------
# Sweeps


def _as_list(v):
    return [v] if isinstance(v, (str, type, tuple)) else list(v)


class _Bar:
    """A text progress bar on stderr: redrawn in place on a terminal, a line per 10 % otherwise."""

    def __init__(self, enabled):
        self.enabled = enabled
        self.tty = enabled and sys.stderr.isatty()
        self.start = time.monotonic()
        self.shown = -1

    def draw(self, done, total, failed, what="done"):
        if not self.enabled or total <= 0:
            return
        width = 30
        fill = width * done // total
        elapsed = time.monotonic() - self.start
        text = f"[{'#' * fill}{'.' * (width - fill)}] {done}/{total} {what}, {failed} failed, {elapsed:.0f} s"
        if self.tty:
            sys.stderr.write("\r\033[K" + text)
            sys.stderr.flush()
        elif done * 10 // total != self.shown or done == total:
            self.shown = done * 10 // total
            sys.stderr.write(text + "\n")

    def end(self):
        if self.tty:
            sys.stderr.write("\n")


def sweep(platforms="fermi15", schedulers="gto", workloads="atax", set=None, stats=(), seed=1, max_cycles=0,
          jobs=None, out=None, name="python", resume=False, progress=True, policies=(), plugins=(),
          slurm=False, wait=True, partition=None, slurm_options=(), max_running=None):
    """Runs every combination with `gpusim sweep` (docs/sweeps.md) and returns its results table:
    a pandas DataFrame (a list of dicts without pandas), one row per job, columns id, platform,
    scheduler, workload, one per `set` axis, status, error, cycles, warp_instructions, ipc and the
    `stats` asked for. `set`: {key: value or [values]} (a list is an axis). `jobs`: parallel
    processes (default: the cores). `out`: the sweep's directory (default: a new temporary one; the
    DataFrame's attrs["out"] names it); `resume`: rerun only what has no result there.
    `schedulers` may hold Policy subclasses (or (subclass, {params})).

    slurm=True submits the jobs as a Slurm job array through `gpusim sweep --slurm` (`out` must be
    on a file system the nodes see); with wait=True (default) it waits for the array and returns
    the table, with wait=False it returns the output directory after submitting.
    Raises GpusimError on bad input (exit status 2) or an interrupt."""
    policies = list(policies)
    scheds = [_scheduler_arg(s, policies) for s in _as_list(schedulers)]
    spec = {"name": name, "platforms": _as_list(platforms), "schedulers": scheds, "workloads": _as_list(workloads),
            "stats": list(stats), "seed": seed, "max_cycles": max_cycles}
    if set:
        spec["set"] = dict(set)
    out = os.path.abspath(out) if out else tempfile.mkdtemp(prefix=f"gpusim-sweep-{name}-")
    os.makedirs(out, exist_ok=True)
    # In the sweep's directory: a Slurm job may start after this call has returned.
    extra, env = _policy_env(policies, plugins, os.path.join(out, "policies"))
    with tempfile.TemporaryDirectory(prefix="gpusim-spec-") as tmp:
        spec_path = os.path.join(tmp, f"{name}.json")
        with open(spec_path, "w") as f:
            json.dump(spec, f, indent=1)
        cmd = [executable(), "sweep", spec_path, "--out", out] + extra
        if resume:
            cmd.append("--resume")
        if slurm:
            cmd += ["--slurm"] + (["--wait"] if wait else [])
            if partition:
                cmd += ["--partition", partition]
            cmd += [f"--slurm-option={o}" for o in slurm_options]
            if max_running:
                cmd += ["--max-running", str(max_running)]
        else:
            cmd += ["-j", str(jobs or os.cpu_count() or 1)]
        status, err = _follow(cmd, env, _Bar(progress))
    if status not in (0, 1):
        last = next((l for l in reversed(err) if l.startswith("gpusim:")), err[-1] if err else "")
        raise GpusimError(f"gpusim sweep: exit status {status}: {last}", status, "\n".join(err))
    if slurm and not wait:
        return out
    return _table(out)


def _follow(cmd, env, bar):
    """Runs a sweep, turning its per-job stderr lines into the progress bar. (status, other lines)"""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
    other, failed = [], 0
    job = re.compile(r"^\[(\d+)/(\d+)\] (ok|FAILED)")
    task = re.compile(r"^\s*job \S+: (\d+)/(\d+) tasks recorded")
    try:
        for line in proc.stderr:
            line = line.rstrip("\n")
            m = job.match(line)
            if m:
                failed += m.group(3) == "FAILED"
                bar.draw(int(m.group(1)), int(m.group(2)), failed)
                continue
            m = task.match(line)
            if m:
                bar.draw(int(m.group(1)), int(m.group(2)), 0, "recorded")
                continue
            other.append(line)
        proc.wait()
        proc.stderr.close()
    except KeyboardInterrupt:
        proc.send_signal(2)  # the sweep stops its jobs and writes what has finished
        proc.wait()
        raise
    finally:
        bar.end()
    return proc.returncode, other


def _table(out):
    with open(os.path.join(out, "results.json")) as f:
        res = json.load(f)
    rows = res["rows"]
    try:
        import pandas as pd
    except ImportError:
        return rows
    df = pd.DataFrame(rows, columns=res["columns"])
    df.attrs["out"] = out
    return df


# ---------------------------------------------------------------------------------------------
# Introspection


def _json(*args, plugins=(), policies=()):
    with tempfile.TemporaryDirectory(prefix="gpusim-list-") as tmp:
        extra, env = _policy_env(list(policies), plugins, tmp)
        proc = subprocess.run([executable(), *args, *extra], capture_output=True, text=True, env=env)
    _check(proc, "gpusim " + " ".join(args))
    return json.loads(proc.stdout)


def platforms():
    """[{name, description}] of the shipped platforms (and $GPUSIM_PLATFORM_DIR's)."""
    return _json("list", "platforms", "--json")


def schedulers(plugins=(), policies=()):
    """[{name, description, origin, params: [{name, default, min, max, integer, description}]}],
    with the policies of C++ `plugins` and of Python `policies` (Policy subclasses)."""
    return _json("list", "schedulers", "--json", plugins=plugins, policies=policies)


def workloads():
    """[{name, description, class, source, params: [...]}], then the argument workloads
    [{name, usage, description}] (trace:DIR)."""
    return _json("list", "workloads", "--json")


def schema():
    """Every configuration parameter (docs/configuration.md) by name: {name: {type, default, unit,
    min, max (numbers), choices (enums), description}}."""
    return {p["name"]: p for p in _json("config", "--reference", "--json")}
