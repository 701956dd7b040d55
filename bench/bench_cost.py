#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""bench/bench_cost.py — make bench-cost: the cost model's presets against
the measured tables in ../shared/costmodel (or $COSTMODEL_DIR).

Each measurement becomes a one-instruction HLO module, run through

    passline --passes=ScheduleEstimate -O cost_model.preset=DEVICE --stats-json -

and its comm_ns (a collective) or compute_ns (a dot) is compared with the
measured time: median and p90 of |pred/meas - 1| per device and kind, and
per device and dtype for matmuls. Every row's passline time is also checked
against the same formula in Python (bench/cost_model_lib.py with the preset
read back from passline's --stats-json); a difference is an error.

    bench_cost.py --passline PATH --plugin-dir DIR [--rows N] [--check]

--rows N takes every k-th row so that about N rows are run; --check only
compares passline with the Python formula (exit 1 on a difference) and
prints no table: tests/cost_bench.sh runs it on a few rows.
A benchmark, not a test: the errors are reported, never asserted."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cost_model_lib as cm  # noqa: E402

HLO_DTYPE = {"bf16": "bf16", "f16": "f16", "f32": "f32", "f8e4m3fn": "f8e4m3fn",
             "f8e5m2": "f8e5m2"}
ADD = "add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n\n"


def collective_hlo(r):
    """The measured collective as the only instruction of an entry
    computation (a reducer beside it for the reducing kinds)."""
    e, F = r["elements"], r["F"]
    groups = "replica_groups=[%d,%d]<=[8]" % (r["groups"], F) if r["groups"] else ""
    op = r["opcode"]
    if op == "all-gather":
        body = "p = f32[%d]{0} parameter(0)\n  ROOT c = f32[%d]{0} all-gather(p), %s, dimensions={0}" % (
            e // F, e, groups)
    elif op == "reduce-scatter":
        body = ("p = f32[%d]{0} parameter(0)\n  ROOT c = f32[%d]{0} reduce-scatter(p), %s, "
                "dimensions={0}, to_apply=add" % (e * F, e, groups))
    elif op == "all-reduce":
        body = "p = f32[%d]{0} parameter(0)\n  ROOT c = f32[%d]{0} all-reduce(p), %s, to_apply=add" % (
            e, e, groups)
    elif op == "all-to-all":
        body = "p = f32[%d]{0} parameter(0)\n  ROOT c = f32[%d]{0} all-to-all(p), %s, dimensions={0}" % (
            e, e, groups)
    else:
        pairs = ",".join("{%s}" % p.replace(">", ",") for p in r["pairs"].split(";"))
        body = ("p = f32[%d]{0} parameter(0)\n  ROOT c = f32[%d]{0} collective-permute(p), "
                "source_target_pairs={%s}" % (e, e, pairs))
    reducer = ADD if op in ("reduce-scatter", "all-reduce") else ""
    return "HloModule m, replica_count=8\n\n%sENTRY main {\n  %s\n}\n" % (reducer, body)


def matmul_hlo(r):
    b, m, n, k = r["b"], r["m"], r["n"], r["k"]
    return ("HloModule m\n\nENTRY main {\n"
            "  l = %s[%d,%d,%d]{2,1,0} parameter(0)\n"
            "  r = %s[%d,%d,%d]{2,1,0} parameter(1)\n"
            "  ROOT d = %s[%d,%d,%d]{2,1,0} dot(l, r), lhs_batch_dims={0}, rhs_batch_dims={0}, "
            "lhs_contracting_dims={2}, rhs_contracting_dims={1}\n}\n" % (
                HLO_DTYPE[r["lhs"]], b, m, k, HLO_DTYPE[r["rhs"]], b, k, n,
                HLO_DTYPE[r["out"]], b, m, n))


def run(args, device, text, tmp):
    path = os.path.join(tmp, "m.hlo")
    with open(path, "w") as f:
        f.write(text)
    out = subprocess.run([args.passline_bin, "--plugin-dir", args.plugin_dir,
                          "--passes=ScheduleEstimate", "-O", "cost_model.preset=" + device,
                          "--stats-json", "-", path, "-o", os.path.join(tmp, "out.pir")],
                         capture_output=True, text=True, env=args.env)
    if out.returncode != 0:
        sys.exit("bench_cost: passline failed on\n%s\n%s" % (text, out.stderr))
    return json.loads(out.stdout.splitlines()[0])


def model_of(js):
    """The preset as passline reports it, in the Python formula's terms."""
    m = js["cost_model"]
    kinds = {}
    for kind in cm.KINDS.values():
        kinds[kind] = {"latency_us": m[kind + ".latency_us"], "bus": m[kind + ".bus_gb_per_s"],
                       "copy": m[kind + ".copy_gb_per_s"], "ramp_us": m[kind + ".ramp_us"],
                       "step_us": m["intra.latency_us"],
                       "one_shot_kib": m["one_shot_max_kib"]}
    return m, kinds


def sample(rows, n):
    if not n or n >= len(rows):
        return rows
    step = len(rows) / n
    return [rows[int(i * step)] for i in range(n)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--passline", required=True)
    ap.add_argument("--plugin-dir", required=True)
    ap.add_argument("--rows", type=int, default=0)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    # a libtool wrapper script costs a shell per run: run the program it
    # wraps, with the library beside it, when it is there
    args.passline_bin, args.env = args.passline, None
    d = os.path.dirname(os.path.abspath(args.passline))
    real = os.path.join(d, ".libs", os.path.basename(args.passline))
    if os.path.isfile(real) and os.path.isfile(os.path.join(d, ".libs", "libpassline.so")):
        args.passline_bin = real
        args.env = dict(os.environ)
        args.env["LD_LIBRARY_PATH"] = os.path.join(d, ".libs") + (
            ":" + os.environ["LD_LIBRARY_PATH"] if os.environ.get("LD_LIBRARY_PATH") else "")
    if not os.path.isfile(os.path.join(cm.data_dir(), "collectives.csv")):
        print("bench-cost: no measurements in %s; set COSTMODEL_DIR" % cm.data_dir())
        return
    colls = sample(cm.read_collectives(), args.rows // 2 if args.rows else 0)
    mms = sample(cm.read_matmuls(), args.rows - args.rows // 2 if args.rows else 0)
    errors, mismatches = {}, 0
    with tempfile.TemporaryDirectory() as tmp:
        for r in colls:
            js = run(args, r["device"], collective_hlo(r), tmp)
            st = js["stats"]["ScheduleEstimate"]
            _, kinds = model_of(js)
            want = cm.collective_ns(kinds[r["kind"]], r["kind"], r["F"], r["bytes"])
            # (compute_ns holds the reducer's add, simulated as a function)
            if st["comm_ns"] != want:
                mismatches += 1
                print("differs: %s %s %d bytes: passline %d ns, formula %d ns" % (
                    r["device"], r["what"], r["bytes"], st["comm_ns"], want))
            errors.setdefault((r["device"], r["kind"]), []).append(
                cm.rel_err(st["comm_ns"], r["time"]))
        for r in mms:
            js = run(args, r["device"], matmul_hlo(r), tmp)
            st = js["stats"]["ScheduleEstimate"]
            m, _ = model_of(js)
            want = cm.matmul_ns(m["kernel_floor_us"], m["peak_tflops." + r["cls"]],
                                m["memory_gb_per_s"], r["flops"], r["bytes"],
                                m["ramp_us." + r["cls"]])
            if st["compute_ns"] != want or st["comm_ns"] != 0:
                mismatches += 1
                print("differs: %s matmul %s b%d m%d n%d k%d: passline %d ns, formula %d ns" % (
                    r["device"], r["what"], r["b"], r["m"], r["n"], r["k"], st["compute_ns"],
                    want))
            errors.setdefault((r["device"], "matmul " + r["what"]), []).append(
                cm.rel_err(st["compute_ns"], r["time"]))
    if not args.check:
        print("%-6s %-28s %8s %8s %5s" % ("device", "kind", "median", "p90", "rows"))
        for (dev, kind) in sorted(errors):
            e = errors[(dev, kind)]
            print("%-6s %-28s %7.1f%% %7.1f%% %5d" % (dev, kind, 100 * cm.quantile(e, 0.5),
                                                      100 * cm.quantile(e, 0.9), len(e)))
    print("%d rows through passline, %d differ from the formula" % (
        len(colls) + len(mms), mismatches))
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
