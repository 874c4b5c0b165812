"""gpusim.run(progress=...): the plain progress lines of `gpusim run --progress=plain` (stderr) read
as they come, turned into Progress values for a callback, or into a tqdm bar when tqdm is installed
(Debian python3-tqdm), else copied to sys.stderr. The line's format is ProgressReporter's
(platforms/ProgressReporter.cpp)."""

import re
import subprocess
import sys
import threading
from dataclasses import dataclass
from typing import Optional

_LINE = re.compile(r"^\[gpusim\] (\d+\.\d) % done \((\d+)/(\d+) CTAs\), ETA (\S+), (\S+) elapsed; "
                   r"kernels (\d+)/(\d+) ended(?:, running (.*?))?; cycle (\d+), IPC ([0-9.]+), ")


@dataclass
class Progress:
    """One progress line: CTAs finished of all the workload's kernels, the estimate of the host
    time left (None before the first CTA finished), kernels ended, the simulated cycle."""
    percent: float
    ctas_done: int
    ctas_total: int
    eta_seconds: Optional[int]
    elapsed_seconds: int
    kernels_ended: int
    kernels: int
    running: str  # "kernel0 (atax_kernel1) CTA 45/120, ...", or ""
    cycle: int
    ipc: float
    line: str


def _seconds(clock):
    """'m:ss' or 'h:mm:ss' -> seconds; '?' -> None."""
    if clock == "?":
        return None
    total = 0
    for part in clock.split(":"):
        total = total * 60 + int(part)
    return total


def parse(line):
    """A Progress for a progress line, None for any other line."""
    m = _LINE.match(line)
    if not m:
        return None
    return Progress(float(m[1]), int(m[2]), int(m[3]), _seconds(m[4]), _seconds(m[5]), int(m[6]), int(m[7]),
                    m[8] or "", int(m[9]), float(m[10]), line)


class _Sink:
    """Where progress goes for progress=True: a tqdm bar counting CTAs, or the lines on stderr."""

    def __init__(self):
        try:
            from tqdm import tqdm
        except ImportError:
            tqdm = None
        self._tqdm = tqdm
        self._bar = None

    def __call__(self, p):
        if self._tqdm is None:
            sys.stderr.write(p.line + "\n")
            sys.stderr.flush()
            return
        if self._bar is None:
            self._bar = self._tqdm(total=p.ctas_total, unit="CTA", desc="gpusim")
        self._bar.update(p.ctas_done - self._bar.n)
        self._bar.set_postfix_str(f"cycle {p.cycle}, kernels {p.kernels_ended}/{p.kernels} ended", refresh=True)

    def close(self):
        if self._bar is not None:
            self._bar.close()


def run_with_progress(cmd, env, timeout, progress):
    """Runs cmd (a `gpusim run --progress=plain`), handing each progress line to `progress` (a
    function, or True for _Sink); returns a CompletedProcess whose stderr holds the other lines."""
    sink = _Sink() if progress is True else None
    call = sink if sink else progress
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    fired = []

    def expire():
        fired.append(True)
        proc.kill()

    timer = threading.Timer(timeout, expire) if timeout else None
    if timer:
        timer.start()
    other = []
    out = []
    reader = threading.Thread(target=lambda: out.append(proc.stdout.read()))
    reader.start()
    try:
        for line in proc.stderr:
            p = parse(line.rstrip("\n"))
            if p is None:
                other.append(line)
            else:
                call(p)
        proc.wait()
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    finally:
        if timer:
            timer.cancel()
        if sink:
            sink.close()
        reader.join()
        proc.stdout.close()
        proc.stderr.close()
    if fired:
        raise subprocess.TimeoutExpired(cmd, timeout)
    return subprocess.CompletedProcess(cmd, proc.returncode, "".join(out), "".join(other))
