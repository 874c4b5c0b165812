"""Python policies for tb/python/test_gpusim.py."""
import gpusim


class LoadBudget(gpusim.Policy):
    """at most `budget` loads in flight per warp, oldest warp first"""

    name = "py-budget"
    parameters = {"budget": (1, 0, 64, "loads in flight a warp may have (0: no limit)")}

    def registerStats(self, stats):
        self.blocked = stats.counter("blocked", "loads held back by the budget")

    def attach(self, sm):
        self.slots = sm.warpSlots()

    def order(self, sched, warps, sm):
        warps.sort(key=lambda w: sm.warp(w).age)

    def canIssue(self, warp, sm):
        w = sm.warp(warp)
        if self.params["budget"] and w.nextIsLoad and w.pendingLoads >= self.params["budget"]:
            self.blocked.inc()
            return False
        return True


class Broken(gpusim.Policy):
    name = "py-broken"

    def order(self, sched, warps, sm):
        raise ValueError("deliberately broken")


class BadOrder(gpusim.Policy):
    name = "py-bad-order"

    def order(self, sched, warps, sm):
        return warps[:-1]
