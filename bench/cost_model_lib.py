# SPDX-License-Identifier: MIT
"""bench/cost_model_lib.py — the cost model's formulas in Python, for the fit
(bench/fit_cost_model.py) and the benchmark (bench/bench_cost.py). They
mirror sdk/analysis/cost_time.c for one collective inside a node and one
matmul; tests/cost_bench.sh checks that passline gives the same times.
Standard library only."""
import csv
import math
import os

KINDS = {
    "all-gather": "all_gather",
    "reduce-scatter": "reduce_scatter",
    "all-reduce": "all_reduce",
    "all-to-all": "all_to_all",
    "collective-permute": "collective_permute",
}
CLASSES = ("fp8", "bf16", "tf32")


def data_dir():
    """$COSTMODEL_DIR, else ../shared/costmodel beside the source tree (or one
    level further up, for a git worktree)."""
    if os.environ.get("COSTMODEL_DIR"):
        return os.environ["COSTMODEL_DIR"]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for up in ("..", os.path.join("..", "..")):
        d = os.path.normpath(os.path.join(root, up, "shared", "costmodel"))
        if os.path.isdir(d):
            return d
    return os.path.normpath(os.path.join(root, "..", "shared", "costmodel"))


def read_collectives(path=None):
    rows = []
    with open(path or os.path.join(data_dir(), "collectives.csv"), newline="") as f:
        for r in csv.DictReader(f):
            perm = r["opcode"] == "collective-permute"
            rows.append({
                "device": r["device"], "kind": KINDS[r["opcode"]], "opcode": r["opcode"],
                "elements": int(r["elements"]), "bytes": int(r["bytes_transferred"]),
                "groups": 0 if perm else int(r["num_groups"]),
                "F": 2 if perm else int(r["devices_per_group"]),
                "pairs": r["source_target_pairs"], "pattern": r["permute_pattern"],
                "time": float(r["time_ns"]),
                "what": "%s/%s" % (r["opcode"], r["permute_pattern"] or
                                   "%sx%s" % (r["num_groups"], r["devices_per_group"])),
            })
    return rows


def dtype_class(lhs, rhs):
    def one(d):
        if d in ("bf16", "f16"):
            return "bf16"
        if d == "f32":
            return "tf32"
        return "fp8"
    a, b = one(lhs), one(rhs)
    return a if CLASSES.index(a) < CLASSES.index(b) else b


SIZE = {"bf16": 2, "f16": 2, "f32": 4}


def read_matmuls(path=None):
    rows = []
    with open(path or os.path.join(data_dir(), "matmuls.csv"), newline="") as f:
        for r in csv.DictReader(f):
            b, m, n, k = (int(r[x]) for x in "bmnk")
            sl, sr, so = (SIZE.get(r[x], 1) for x in ("lhs_dtype", "rhs_dtype", "out_dtype"))
            rows.append({
                "device": r["device"], "b": b, "m": m, "n": n, "k": k,
                "lhs": r["lhs_dtype"], "rhs": r["rhs_dtype"], "out": r["out_dtype"],
                "cls": dtype_class(r["lhs_dtype"], r["rhs_dtype"]),
                "flops": float(r["flop"]),
                "bytes": float(b * m * k * sl + b * k * n * sr + b * m * n * so),
                "time": float(r["time_ns"]),
                "what": "%s x %s" % (r["lhs_dtype"], r["rhs_dtype"]),
            })
    return rows


def share_steps(kind, F):
    """The share of the message each device sends and the steps of the ring."""
    if kind == "all_reduce":
        return 2.0 * (F - 1) / F, 2.0 * (F - 1)
    if kind == "collective_permute":
        return 1.0, 1.0
    return (F - 1.0) / F, F - 1.0


def collective_ns(p, kind, F, B):
    """p: {"latency_us", "bus", "copy", "ramp_us"} of the kind, "step_us",
    "one_shot_kib"."""
    share, steps = share_steps(kind, F)
    if B <= p.get("one_shot_kib", 0) * 1024 and steps > 1:
        steps = 1
    t = (p["latency_us"] + steps * p.get("step_us", 0)) * 1000 + share * B / p["bus"]
    if p.get("copy", 0) > 0:
        t += B / p["copy"]
    t += p.get("ramp_us", 0) * 1000 * math.sqrt(B / 1e6)
    return math.ceil(t)


def matmul_ns(floor_us, peak_tflops, mem, flops, nbytes, ramp_us=0.0):
    return math.ceil(floor_us * 1000 + max(flops / (peak_tflops * 1000), nbytes / mem) +
                     ramp_us * 1000 * math.sqrt(flops / 1e12))


def rel_err(pred, meas):
    return abs(pred / meas - 1)


def quantile(v, q):
    v = sorted(v)
    if not v:
        return float("nan")
    i = q * (len(v) - 1)
    lo = int(math.floor(i))
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (i - lo)
