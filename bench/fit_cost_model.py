#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/fit_cost_model.py — fits the collective and matmul terms of the h100
and b200 presets to the measured tables in ../shared/costmodel (or
$COSTMODEL_DIR), and checks the shape of the model on held-out rows.

    python3 bench/fit_cost_model.py            # fit, report, print the table
    python3 bench/fit_cost_model.py --write    # ... and write each fitted
                                               # key's V(h100, b200) into
                                               # sdk/analysis/cost_keys.def

The fit is of few parameters per kind, never of the rows:
 - per collective kind: a fixed latency (us), a bus bandwidth (GB/s) for the
   share of the message a ring moves, a copy bandwidth (GB/s) at which
   the whole message is touched once, and a ramp (us at 1 MB) growing with
   the square root of the message, the term a transfer sent in pipelined
   chunks pays to reach its bandwidth ((sqrt(a) + sqrt(B / bw))^2 =
   a + B / bw + 2 sqrt(a B / bw)):
   t = L + share * B / bus + B / copy + ramp * sqrt(B / 1 MB);
   one step latency shared by every kind (intra.latency_us, times the ring's
   steps). Minimises the sum of |pred/meas - 1| (iteratively reweighted
   least squares over the four terms, which are linear).
 - per device: one kernel floor (us) and one memory bandwidth for every
   matmul, one peak and one ramp (us at 1e12 FLOP) per dtype class (fp8,
   bf16, tf32): t = floor + max(flops / peak, bytes / memory) +
   ramp * sqrt(flops / 1e12) (a small matmul has too few tiles to reach
   the peak), by grid search: floor, memory and peaks without a ramp, then
   each class's peak and ramp, then all finely.
Every term stays within its physical bound (the datasheet's): a peak at
most the dense datasheet figure, memory at most HBM's, a bus bandwidth at
most twice NVLink's (in-switch reduction), a copy at most the memory's, no
term negative; the fit is constrained to them, never the other way round.
Held out: the rows are split in two by alternate sizes (even and odd
positions in size order within each device, kind and group shape or
dtype); the model is fitted on one half and its error reported on the
other, both ways, before the final fit on every row.
Standard library only (no numpy).
"""
import argparse
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cost_model_lib as cm  # noqa: E402

# The bounds of the fit: vendors' datasheets, dense (the same figures as
# the SHEET(...) bounds of sdk/analysis/cost_keys.def).
DATASHEET = {
    "h100": {"intra.link": 450, "memory": 3350, "fp8": 1979, "bf16": 989.4, "tf32": 494.7},
    "b200": {"intra.link": 900, "memory": 8000, "fp8": 4500, "bf16": 2250, "tf32": 1100},
}
STEP_GRID = [0, 0.25, 0.5, 1, 1.5, 2, 3]
ONE_SHOT_GRID = [0, 64, 256, 1024]


# ---- collectives ----

def solve(a, b):
    """Gaussian elimination of a small dense system; None if singular."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-300:
            return None
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for j in range(c, n + 1):
                    m[r][j] -= f * m[c][j]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit_kind(rows, step_us, one_shot, bus_max, copy_max):
    """L (ns), 1/bus, 1/copy, ramp (ns at 1 MB) minimising sum |pred/meas - 1|
    (IRLS), within the bounds: L, ramp >= 0, bus <= bus_max, copy 0 (no such
    term) or <= copy_max. A term leaving its bound is held at it (or at 0
    for the copy when nearer) and the others solved again."""
    feats = []
    for r in rows:
        share, steps = cm.share_steps(r["kind"], r["F"])
        if r["bytes"] <= one_shot * 1024 and steps > 1:
            steps = 1
        feats.append(([1.0, share * r["bytes"], float(r["bytes"]),
                       1000 * math.sqrt(r["bytes"] / 1e6)],
                      r["time"] - steps * step_us * 1000, r["time"]))
    lo = [0.0, 1.0 / bus_max, 1.0 / copy_max, 0.0]
    w = [1.0] * len(rows)
    x = [0.0] * 4
    for _ in range(60):
        fixed = {}
        if all(abs(f[1] - f[2]) < 1e-9 * max(1.0, f[2]) for f, _, _ in feats):
            fixed[2] = 0.0  # a permute's share is 1: the copy is the bus
        while True:
            free = [c for c in range(4) if c not in fixed]
            a = [[0.0] * len(free) for _ in free]
            b = [0.0] * len(free)
            for (f, y, meas), wi in zip(feats, w):
                s = wi / (meas * meas)
                y = y - sum(f[c] * v for c, v in fixed.items())
                for i, ci in enumerate(free):
                    b[i] += s * f[ci] * y
                    for j, cj in enumerate(free):
                        a[i][j] += s * f[ci] * f[cj]
            sol = solve(a, b) if free else []
            if sol is None:
                return None
            bad = [(ci, v) for ci, v in zip(free, sol) if v < lo[ci] and not (ci == 2 and v <= 0)]
            bad += [(ci, v) for ci, v in zip(free, sol) if ci == 2 and v < 0]
            if not bad:
                break
            for ci, v in bad:
                fixed[ci] = 0.0 if ci == 2 and v < lo[2] / 2 else lo[ci]
        x = [fixed.get(c, 0.0) for c in range(4)]
        for ci, v in zip(free, sol):
            x[ci] = v
        w = []
        for f, y, meas in feats:
            res = abs(sum(xi * fi for xi, fi in zip(x, f)) - y) / meas
            w.append(1.0 / max(res, 1e-3))
    return x


def kind_params(x, step_us, one_shot):
    return {"latency_us": x[0] / 1000, "bus": 1 / x[1] if x[1] > 0 else 1e9,
            "copy": 1 / x[2] if x[2] > 0 else 0, "ramp_us": x[3], "step_us": step_us,
            "one_shot_kib": one_shot}


def fit_collectives(rows, sheet):
    """{kind: params} and the step latency, for one device's rows, within
    the device's bounds."""
    best = None
    for step in STEP_GRID:
        for one_shot in ONE_SHOT_GRID:
            params, total = {}, 0.0
            for kind in sorted({r["kind"] for r in rows}):
                kr = [r for r in rows if r["kind"] == kind]
                x = fit_kind(kr, step, one_shot, 2 * sheet["intra.link"], sheet["memory"])
                if x is None:
                    break
                params[kind] = kind_params(x, step, one_shot)
                total += sum(cm.rel_err(cm.collective_ns(params[kind], kind, r["F"],
                                                         r["bytes"]), r["time"]) for r in kr)
            else:
                if best is None or total < best[0]:
                    best = (total, step, one_shot, params)
    return best[3], best[1], best[2]


def coll_errors(params, rows):
    return [cm.rel_err(cm.collective_ns(params[r["kind"]], r["kind"], r["F"], r["bytes"]),
                       r["time"]) for r in rows]


# ---- matmuls ----

def log_grid(lo, hi, n):
    return [lo * (hi / lo) ** (i / (n - 1)) for i in range(n)]


def fit_matmuls(rows, sheet):
    """floor (us), memory (GB/s), {class: peak TFLOP/s}: grid search of the
    mean |pred/meas - 1|, coarse then fine."""
    classes = sorted({r["cls"] for r in rows})
    by = {c: [r for r in rows if r["cls"] == c] for c in classes}

    def best_peak(floor, mem, c, grid):
        """grid: (peak, ramp) pairs."""
        best = None
        for peak, ramp in grid:
            e = sum(cm.rel_err(cm.matmul_ns(floor, peak, mem, r["flops"], r["bytes"], ramp),
                               r["time"]) for r in by[c])
            if best is None or e < best[0]:
                best = (e, (peak, ramp))
        return best

    def search(floors, mems, grids):
        best = None
        for floor in floors:
            for mem in mems:
                tot, peaks = 0.0, {}
                for c in classes:
                    e, p = best_peak(floor, mem, c, grids[c])
                    tot += e
                    peaks[c] = p
                if best is None or tot < best[0]:
                    best = (tot, floor, mem, peaks)
        return best

    top = sheet["memory"]
    coarse = search([i * 0.5 for i in range(0, 13)], log_grid(top / 8, top, 7),
                    {c: [(p, 0.0) for p in log_grid(sheet[c] / 20, sheet[c], 31)]
                     for c in classes})
    _, f0, m0, p0 = coarse
    ramps = search([f0], [m0], {c: [(p, r) for p in log_grid(p0[c][0] / 2,
                                                               min(sheet[c], p0[c][0] * 3), 31)
                                    for r in [0, 2.5, 5, 10, 20, 40, 80, 160]]
                                for c in classes})
    _, _, _, p1 = ramps
    fine = search([max(0.0, f0 + i * 0.1) for i in range(-5, 6)],
                  [min(top, m0 * (1 + i * 0.05)) for i in range(-4, 5)],
                  {c: [(min(sheet[c], p1[c][0] * (1 + i * 0.02)), p1[c][1] * (1 + j * 0.1))
                       for i in range(-10, 11) for j in range(-3, 4)] for c in classes})
    _, floor, mem, both = fine
    return floor, mem, {c: both[c][0] for c in classes}, {c: both[c][1] for c in classes}


def mm_errors(floor, mem, peaks, ramps, rows):
    return [cm.rel_err(cm.matmul_ns(floor, peaks[r["cls"]], mem, r["flops"], r["bytes"],
                                    ramps[r["cls"]]),
                       r["time"]) for r in rows]


# ---- held-out halves ----

def halves(rows, key, size):
    """Alternate sizes within each group of rows that share key."""
    groups = {}
    for r in rows:
        groups.setdefault(key(r), []).append(r)
    a, b = [], []
    for k in sorted(groups):
        for i, r in enumerate(sorted(groups[k], key=size)):
            (a if i % 2 == 0 else b).append(r)
    return a, b


def summary(errs):
    return "median %5.1f%%  p90 %6.1f%%  (n=%d)" % (100 * cm.quantile(errs, 0.5),
                                                     100 * cm.quantile(errs, 0.9), len(errs))


def report(title, groups, errs_of):
    print(title)
    for name in sorted(groups):
        print("  %-36s %s" % (name, summary(errs_of(groups[name]))))


def fmt(v):
    return ("%.4g" % v) if v and v < 1e8 else "0"


KIND_NAMES = ("all_gather", "reduce_scatter", "all_reduce", "all_to_all", "collective_permute")


def fitted_keys(f):
    """{key name: value} of what the fit sets, by the keys of cost_keys.def."""
    k = f["kinds"]
    out = {"peak_tflops." + c: f["peaks"][c] for c in cm.CLASSES}
    out.update({"ramp_us." + c: f["ramps"][c] for c in cm.CLASSES})
    out["memory_gb_per_s"] = f["mem"]
    out["kernel_floor_us"] = f["floor"]
    out["intra.latency_us"] = f["step"]
    out["one_shot_max_kib"] = f["one_shot"]
    out["collective.latency_us"] = sorted(p["latency_us"] for p in k.values())[len(k) // 2]
    for name in KIND_NAMES:
        if name not in k:
            continue
        p = k[name]
        out[name + ".latency_us"] = p["latency_us"]
        out[name + ".bus_gb_per_s"] = p["bus"]
        out[name + ".copy_gb_per_s"] = p["copy"]
        out[name + ".ramp_us"] = p["ramp_us"]
    return out


def keys_table(fits):
    """One line per fitted key: NAME h100 b200."""
    names = fitted_keys(fits["h100"]).keys()
    return "\n".join("%-34s %10s %10s" % (n, fmt(fits["h100"].get("keys", {}).get(n, 0)),
                                           fmt(fits["b200"].get("keys", {}).get(n, 0)))
                     for n in names)


def write_def(fits, path):
    """Rewrites V(h100, b200) of each fitted key's row in cost_keys.def."""
    with open(path) as f:
        text = f.read()
    for name in fitted_keys(fits["h100"]):
        pat = re.compile(r'(X\([A-Z0-9_]+, "%s",[^\n]*?V\()[^)]*(\))' % re.escape(name))
        vals = "%s, %s" % (fmt(fits["h100"]["keys"][name]), fmt(fits["b200"]["keys"][name]))
        text, n = pat.subn(lambda m: m.group(1) + vals + m.group(2), text)
        if n != 1:
            sys.exit("fit_cost_model: no row for %s in %s" % (name, path))
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--write", action="store_true",
                    help="write the fitted table into sdk/analysis/cost_presets.c")
    ap.add_argument("--quick", action="store_true", help="skip the held-out check")
    ap.add_argument("--keys", action="store_true",
                    help="print the names of the keys the fit writes, one a line, and stop")
    args = ap.parse_args()
    if args.keys:
        dummy = {"kinds": {n: {"latency_us": 0, "bus": 0, "copy": 0, "ramp_us": 0}
                           for n in KIND_NAMES},
                 "peaks": {c: 0 for c in cm.CLASSES}, "ramps": {c: 0 for c in cm.CLASSES},
                 "mem": 0, "floor": 0, "step": 0, "one_shot": 0}
        print("\n".join(fitted_keys(dummy)))
        return
    colls, mms = cm.read_collectives(), cm.read_matmuls()
    fits = {}
    for dev in ("h100", "b200"):
        cr = [r for r in colls if r["device"] == dev]
        mr = [r for r in mms if r["device"] == dev]
        if not args.quick:
            ca, cb = halves(cr, lambda r: r["what"], lambda r: r["bytes"])
            ma, mb = halves(mr, lambda r: r["what"], lambda r: (r["flops"], r["m"], r["n"]))
            for name, (fit_c, test_c, fit_m, test_m) in (("A->B", (ca, cb, ma, mb)),
                                                         ("B->A", (cb, ca, mb, ma))):
                kinds, _, _ = fit_collectives(fit_c, DATASHEET[dev])
                floor, mem, peaks, ramps = fit_matmuls(fit_m, DATASHEET[dev])
                kg = {}
                for r in test_c:
                    kg.setdefault(r["kind"], []).append(r)
                report("%s held out (%s: fitted on one half, error on the other)" % (dev, name),
                       kg, lambda rs: coll_errors(kinds, rs))
                dg = {}
                for r in test_m:
                    dg.setdefault("matmul " + r["cls"], []).append(r)
                report("", dg, lambda rs: mm_errors(floor, mem, peaks, ramps, rs))
        kinds, step, one_shot = fit_collectives(cr, DATASHEET[dev])
        floor, mem, peaks, ramps = fit_matmuls(mr, DATASHEET[dev])
        fits[dev] = {"kinds": kinds, "step": step, "one_shot": one_shot, "floor": floor,
                     "mem": mem, "peaks": peaks, "ramps": ramps}
        kg = {}
        for r in cr:
            kg.setdefault(r["kind"], []).append(r)
        report("%s fitted on every row" % dev, kg, lambda rs: coll_errors(kinds, rs))
        dg = {}
        for r in mr:
            dg.setdefault("matmul " + r["cls"], []).append(r)
        report("", dg, lambda rs: mm_errors(floor, mem, peaks, ramps, rs))
    for dev in fits:
        fits[dev]["keys"] = fitted_keys(fits[dev])
    print("\nfitted keys (cost_keys.def):           h100       b200")
    print(keys_table(fits))
    if args.write:
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sdk", "analysis",
                            "cost_keys.def")
        write_def(fits, path)
        print("written to %s" % os.path.normpath(path))


if __name__ == "__main__":
    main()
