"""Loose round-robin written in Python: the built-in `lrr` (scheduler/LrrPolicy.cpp) line for line.
Warps take turns in slot order, starting after the warp that issued last on this scheduler. The
tests (tb/python) check that it issues exactly as the built-in one, on a hand-built SM and on a
whole GPU; docs/extending.md times it.

    gpusim.run(scheduler=PyLrr, workload="atax:n=64")
"""
import bisect

import gpusim


class PyLrr(gpusim.Policy):
    """loose round-robin in Python (the built-in lrr, for comparison and timing)"""

    name = "py-lrr"
    idleWhileStalled = True  # as the built-in: order() depends only on the warps and the last issuer

    def __init__(self, **params):
        super().__init__(**params)
        self.last = [-1, -1]  # per scheduler: the warp that issued last

    def order(self, sched, warps, sm):
        warps.sort()
        first = bisect.bisect_right(warps, self.last[sched])  # the warp after the last issuer
        return warps[first:] + warps[:first]

    def onIssue(self, sched, warp, sm):
        self.last[sched] = warp


class Trivial(gpusim.Policy):
    """keeps the order it is given (slot order): the cheapest Python order() hook, for timing"""

    name = "py-trivial"

    def order(self, sched, warps, sm):
        return None
