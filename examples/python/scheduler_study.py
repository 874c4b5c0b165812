"""The CWLP study of docs/validation.md (its Figure 11) from Python: lpc, cwlp and ccws against LRR on
the cwlp32 platform, IPC normalised to LRR per workload, as a bar chart (PNG).

    PYTHONPATH=. python3 examples/python/scheduler_study.py            # the study's sizes (minutes)
    PYTHONPATH=. python3 examples/python/scheduler_study.py --small    # small inputs (CI, seconds)
"""
import argparse

import gpusim
import matplotlib

matplotlib.use("Agg")  # no display needed

FULL = ["kmeans:points=23040", "histogram", "srad", "bfs:nodes=65536", "invertedindex", "vectoradd", "hotspot"]
SMALL = ["kmeans:points=1024", "histogram:bytes=65536", "bfs:nodes=2048", "vectoradd:n=8192"]

if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--small", action="store_true", help="small inputs (the CI test)")
    ap.add_argument("--out", default="cwlp-study", help="directory for the sweep and cwlp-ipc.png")
    ap.add_argument("-j", "--jobs", type=int, default=None)
    a = ap.parse_args()

    # The study: a dozen lines.
    df = gpusim.sweep(platforms="cwlp32", schedulers=["lrr", "lpc", "cwlp", "ccws"],
                      workloads=SMALL if a.small else FULL, jobs=a.jobs, out=a.out + "/sweep", resume=True)
    ipc = df.pivot(index="workload", columns="scheduler", values="ipc")
    norm = ipc.div(ipc["lrr"], axis=0).drop(columns="lrr")[["lpc", "cwlp", "ccws"]]
    norm.loc["amean"] = norm.mean()
    ax = norm.plot.bar(figsize=(8, 4), rot=30, ylabel="IPC / LRR", title="CWLP Figure 11 (cwlp32)")
    ax.axhline(1.0, color="grey", linestyle="--", linewidth=0.8)
    ax.figure.tight_layout()
    ax.figure.savefig(a.out + "/cwlp-ipc.png", dpi=120)

    print(norm.round(3).to_string())
    print(f"figure: {a.out}/cwlp-ipc.png")
