#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/run.sh — `make bench`: how fast and how lean passline is on
# transformer-shaped modules of about 10^4, 10^5 and 10^6 instructions.
#
# For each size it runs, BENCH_RUNS times each (default 5), the host on a
# module written by bench/pl-genmodel: parse + print alone (--passes=),
# each shipped pass alone, and the whole default pipeline
# (conf/default.ini). Every figure is the median over the runs of what
# --time-passes reports: wall seconds per phase and the peak resident
# memory. It prints one table and writes the same as JSON to
# bench/results/latest.json, with the scaling ratio: the default
# pipeline's time per instruction at 10^6 over that at 10^4, and the time
# of one DetailDynInst count of a 2^40-point domain with a tail mask.
#
# Environment: BENCH_RUNS, BENCH_SHAPE_RUNS (runs per shape of the bytes
# per instruction table, default 3), BENCH_SIZES (default "10000 100000 1000000"),
# BENCH_TARGET_INSTS (default 1200000, empty to skip), BENCH_LAYOUT (flags
# of bench/pl-genmodel for the table, e.g. "--single-function
# --unique-attrs"), BENCH_MLIR_OPT (mlir-opt to compare with), srcdir,
# builddir.
set -eu
: "${srcdir:=.}" "${builddir:=.}"
runs=${BENCH_RUNS:-5}
sizes=${BENCH_SIZES:-"10000 100000 1000000"}
layout=${BENCH_LAYOUT:-}
passline="$builddir/passline"
# In the build tree passline is libtool's wrapper script, which starts a
# shell and a sed before the program: 0.1 s of every run here. Time the
# program it runs, as the tests run it (tests/unwrap.sh) and as mlir-opt
# and an installed passline run.
PASSLINE=$passline
. "$srcdir/tests/unwrap.sh"
passline=$PASSLINE
plugins="$builddir/plugins/.libs"
gen="$builddir/bench/pl-genmodel"
passes="HoistFSDPCollectives BucketizeCCOp CoalesceCCOp DynamicInstEstimator DetailDynInst SplitAsyncCCOp ScheduleEstimate LatencyHidingScheduler"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pl-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$srcdir/bench/results"
json="$srcdir/bench/results/latest.json"

median() { sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

# run_config NAME MODULE ARGS...: BENCH_RUNS runs; sets the medians
# m_read m_verify m_pass m_print m_total m_rss (MiB). Output goes to
# /dev/null, here and beside mlir-opt: the figures are the tools', not the
# disk's (writing hundreds of megabytes makes the page cache's writeback
# part of the next run).
run_config() {
	name=$1
	module=$2
	shift 2
	: >"$tmp/times"
	r=0
	while [ "$r" -lt "$runs" ]; do
		"$passline" --plugin-dir "$plugins" "$@" --time-passes -q "$module" \
			-o /dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
		awk -v run="$r" '
			/ s  read$/ {read = $1} / s  verify$/ {verify = $1}
			/ s  print$/ {print_ = $1} / s  total$/ {total = $1}
			/^peak memory:/ {rss = $3}
			/ s  / && !/ s  (read|verify|print|total)$/ {pass += $1}
			END {printf "%s %s %s %s %s %s\n", read, verify, pass + 0, print_, total, rss}' \
			"$tmp/err" >>"$tmp/times"
		r=$((r + 1))
	done
	m_read=$(awk '{print $1}' "$tmp/times" | median)
	m_verify=$(awk '{print $2}' "$tmp/times" | median)
	m_pass=$(awk '{print $3}' "$tmp/times" | median)
	m_print=$(awk '{print $4}' "$tmp/times" | median)
	m_total=$(awk '{print $5}' "$tmp/times" | median)
	m_rss=$(awk '{print $6}' "$tmp/times" | median)
}

cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo 2>/dev/null || echo unknown)
ncpu=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo "?")
printf 'passline benchmark: %s runs each, median; %s (%s CPUs)\n' "$runs" "$cpu" "$ncpu"
printf '%-9s %-22s %8s %8s %8s %8s %8s %11s %8s\n' insts phase read verify pass print total "insts/s" "B/inst"
{
	printf '{"machine": "%s", "cpus": "%s", "runs": %s, "layout": "%s", "results": [' \
		"$cpu" "$ncpu" "$runs" "${layout:-per-layer}"
} >"$json.tmp"
first=1
per_inst_small=""
per_inst_large=""
for n in $sizes; do
	"$gen" --target-insts "$n" --seed 1 $layout -o "$tmp/m.pir"
	insts=$(grep -c '^  ' "$tmp/m.pir")
	for config in parse+print $passes default; do
		case $config in
		parse+print) run_config "$config" "$tmp/m.pir" --passes= ;;
		default) run_config "$config" "$tmp/m.pir" -p "$srcdir/conf/default.ini" ;;
		*) run_config "$config" "$tmp/m.pir" --passes="$config" ;;
		esac
		rate=$(awk -v n="$insts" -v t="$m_total" 'BEGIN {printf "%.0f", (t > 0 ? n / t : 0)}')
		bpi=$(awk -v n="$insts" -v r="$m_rss" 'BEGIN {printf "%.1f", r * 1048576 / n}')
		printf '%-9s %-22s %8.4f %8.4f %8.4f %8.4f %8.4f %11s %8s\n' "$insts" "$config" \
			"$m_read" "$m_verify" "$m_pass" "$m_print" "$m_total" "$rate" "$bpi"
		[ "$first" = 1 ] || printf ', ' >>"$json.tmp"
		first=0
		printf '{"insts": %s, "phase": "%s", "read_s": %s, "verify_s": %s, "pass_s": %s, "print_s": %s, "total_s": %s, "insts_per_s": %s, "peak_rss_mib": %s, "bytes_per_inst": %s}' \
			"$insts" "$config" "$m_read" "$m_verify" "$m_pass" "$m_print" "$m_total" "$rate" \
			"$m_rss" "$bpi" >>"$json.tmp"
		if [ "$config" = default ]; then
			per=$(awk -v n="$insts" -v t="$m_total" 'BEGIN {printf "%.12f", t / n}')
			[ -n "$per_inst_small" ] || per_inst_small=$per
			per_inst_large=$per
		fi
	done
done
ratio=$(awk -v a="$per_inst_large" -v b="$per_inst_small" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}')

# DetailDynInst's exact count on a 2^40-point domain with a tail mask:
# COUNTS affine_loads over [2^33, 128], each masked by 128*i0 + i1 < N with
# its own N (so that no two share a dictionary, which the pass would count
# once), run through the pass; the median pass time over COUNTS.
counts=1000
awk -v n="$counts" 'BEGIN {
	print "func @tail_masks(%buf: f32[1024]) {"
	for (k = 0; k < n; k++)
		printf "  %%x%d = affine_load %%buf {domain = [8589934592, 128], predicate = [\"128*i0 + i1 < %.0f\"]} : f32[1024]\n", k, 1099511627775 - 977 * k
	print "  return"
	print "}"
}' >"$tmp/masks.pir"
run_config count "$tmp/masks.pir" --passes=DetailDynInst
count_us=$(awk -v t="$m_pass" -v n="$counts" 'BEGIN {printf "%.2f", t / n * 1e6}')

# HLO of two shapes that once took time quadratic in their size (through
# round 11), read and written back as HLO at N and 10 x N: operands that
# are nested instructions ("add(x, multiply(y, z))", which XLA's parser
# reads and passline writes back so), and a tuple parameter of N arrays
# with a get-tuple-element of each. hlo_scaling NAME N PROGRAM: PROGRAM,
# an awk program, writes a module of 2n + 2 instructions for n; sets
# hs_small and hs_large (microseconds per instruction, median) and
# hs_ratio.
hlo_scaling() {
	for n in "$2" $(($2 * 10)); do
		awk -v n="$n" "$3" >"$tmp/shape.hlo"
		run_config "$1" "$tmp/shape.hlo" --passes= --output-format hlo
		us=$(awk -v t="$m_total" -v n="$n" 'BEGIN {printf "%.3f", t / (2 * n + 2) * 1e6}')
		if [ "$n" -eq "$2" ]; then hs_small=$us; else hs_large=$us; fi
	done
	rm -f "$tmp/shape.hlo"
	hs_ratio=$(awk -v a="$hs_large" -v b="$hs_small" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}')
}
hlo_n=20000
hlo_scaling nested "$hlo_n" 'BEGIN {
	print "HloModule nested\n\nENTRY main {\n  p = f32[] parameter(0)"
	prev = "p"
	for (k = 0; k < n; k++) {
		printf "  a%d = f32[] add(%s, f32[] multiply(%s, %s))\n", k, prev, prev, prev
		prev = "a" k
	}
	printf "  ROOT r = f32[] add(%s, %s)\n}\n", prev, prev
}'
nested_small=$hs_small nested_large=$hs_large nested_ratio=$hs_ratio
hlo_scaling tuple "$hlo_n" 'BEGIN {
	printf "HloModule wide\n\nENTRY main {\n  p = ("
	for (k = 0; k < n; k++)
		printf "%sf32[]", k ? ", " : ""
	print ") parameter(0)"
	for (k = 0; k < n; k++)
		printf "  g%d = f32[] get-tuple-element(p), index=%d\n", k, k
	prev = "g0"
	for (k = 0; k < n; k++) {
		printf "  s%d = f32[] add(%s, g%d)\n", k, prev, k
		prev = "s" k
	}
	printf "  ROOT r = f32[] negate(%s)\n}\n", prev
}'
tuple_small=$hs_small tuple_large=$hs_large tuple_ratio=$hs_ratio

# The performance targets, on modules of BENCH_TARGET_INSTS (default
# 1200000; empty to skip) instructions in both shapes: one function per
# layer, and one function holding the whole step with an op_name and a
# source line of its own on every instruction, as a tracing compiler
# writes it. Reported, not enforced: a shared machine's one slow minute
# must not fail a build.
target_n=${BENCH_TARGET_INSTS-1200000}
target_json=""
verdict() { awk -v x="$1" -v lim="$2" 'BEGIN {print (x <= lim) ? "met" : "MISSED"}'; }
# target FLAGS...: the default pipeline on BENCH_TARGET_INSTS; sets
# t_insts t_total t_bpi t_per (seconds per instruction), and t_parts and
# t_parts_json: what the module read is made of (bench/pl-memory), bytes
# per instruction, the same on any machine
target() {
	"$gen" --target-insts "$target_n" --seed 1 "$@" -o "$tmp/m.pir"
	t_insts=$(grep -c '^  ' "$tmp/m.pir")
	run_config default "$tmp/m.pir" -p "$srcdir/conf/default.ini"
	t_total=$m_total
	t_bpi=$(awk -v n="$t_insts" -v r="$m_rss" 'BEGIN {printf "%.1f", r * 1048576 / n}')
	t_per=$(awk -v n="$t_insts" -v t="$m_total" 'BEGIN {printf "%.12f", t / n}')
	"$builddir/bench/pl-memory" "$tmp/m.pir" >"$tmp/parts"
	t_parts=$(awk '$1 != "json" && $1 != "total" {printf "%s%s %s", sep, $1, $2; sep = ", "}' "$tmp/parts")
	t_parts_json=$(sed -n 's/^json //p' "$tmp/parts")
}
if [ -n "$target_n" ]; then
	target
	l_insts=$t_insts l_total=$t_total l_bpi=$t_bpi l_parts=$t_parts l_parts_json=$t_parts_json
	# ScheduleEstimate's share of that pipeline, from the last run
	t_sched=$(awk '/ s  ScheduleEstimate$/ {print $1}' "$tmp/err")
	target --single-function --unique-attrs
	u_insts=$t_insts u_total=$t_total u_bpi=$t_bpi u_per=$t_per u_parts=$t_parts
	u_parts_json=$t_parts_json
	# the same shape at a tenth of the size: time per instruction
	"$gen" --target-insts $((target_n / 10)) --seed 1 --single-function --unique-attrs \
		-o "$tmp/m.pir"
	s_insts=$(grep -c '^  ' "$tmp/m.pir")
	run_config default "$tmp/m.pir" -p "$srcdir/conf/default.ini"
	u_ratio=$(awk -v n="$s_insts" -v t="$m_total" -v big="$u_per" \
		'BEGIN {printf "%.2f", (t > 0 ? big / (t / n) : 0)}')
	target_json=$(printf ', "target_insts": %s, "target_total_s": %s, "target_bytes_per_inst": %s, "target_schedule_estimate_s": %s, "single_unique_insts": %s, "single_unique_total_s": %s, "single_unique_bytes_per_inst": %s, "single_unique_scaling": %s, "target_memory_parts": %s, "single_unique_memory_parts": %s' \
		"$l_insts" "$l_total" "$l_bpi" "${t_sched:-0}" "$u_insts" "$u_total" "$u_bpi" "$u_ratio" \
		"$l_parts_json" "$u_parts_json")
fi
# Peak memory per instruction of every shape pl-genmodel makes, on
# BENCH_TARGET_INSTS instructions: the default pipeline's peak resident
# memory over the instruction count (median of BENCH_SHAPE_RUNS runs,
# default 3), and what the module read is made of (bench/pl-memory).
# Memory must not depend on the module's shape: at most 200 bytes per
# instruction on each.
shape_runs=${BENCH_SHAPE_RUNS:-3}
shapes_json=""
shapes_out=""
if [ -n "$target_n" ]; then
	for shape in per-layer single single-unique per-layer-unique unique-opnames \
		unique-all-kinds huge-signature third-party; do
		case $shape in
		per-layer) flags= ;;
		single) flags=--single-function ;;
		single-unique) flags="--single-function --unique-attrs" ;;
		per-layer-unique) flags=--unique-attrs ;;
		unique-opnames) flags="--single-function --unique-opnames" ;;
		unique-all-kinds) flags="--single-function --unique-attrs --unique-attr-kinds" ;;
		huge-signature) flags="--single-function --huge-signature 20000" ;;
		third-party) flags="--single-function --unique-attrs --unique-attr-kinds --unique-opnames --line-base 1000000000 --huge-signature 20000 --long-names" ;;
		esac
		# shellcheck disable=SC2086
		"$gen" --target-insts "$target_n" --seed 1 $flags -o "$tmp/m.pir"
		sh_insts=$(grep -c '^  ' "$tmp/m.pir")
		# the text read, per instruction: what a shape of unique names
		# and values carries, which no representation shares
		sh_text=$(wc -c <"$tmp/m.pir" | awk -v n="$sh_insts" '{printf "%.1f", $1 / n}')
		# a shape the host cannot read is reported as such, not a stop
		if "$passline" --plugin-dir "$plugins" -p "$srcdir/conf/default.ini" -q "$tmp/m.pir" \
			-o /dev/null 2>"$tmp/err"; then
			saved_runs=$runs
			runs=$shape_runs
			run_config default "$tmp/m.pir" -p "$srcdir/conf/default.ini"
			runs=$saved_runs
			sh_bpi=$(awk -v n="$sh_insts" -v r="$m_rss" 'BEGIN {printf "%.1f", r * 1048576 / n}')
			sh_verdict=$(verdict "$sh_bpi" 200)
			"$builddir/bench/pl-memory" "$tmp/m.pir" >"$tmp/parts"
			sh_parts=$(awk '$1 != "json" && $1 != "total" {printf "%s%s %s", sep, $1, $2; sep = ", "}' "$tmp/parts")
			sh_parts_json=$(sed -n 's/^json //p' "$tmp/parts")
		else
			m_total=null m_rss=null sh_bpi=null sh_parts_json=null
			sh_verdict="MISSED (not read: $(sed -n '1s/^[^ ]*: error: //p' "$tmp/err"))"
			sh_parts="-"
		fi
		[ -z "$shapes_json" ] || shapes_json="$shapes_json, "
		shapes_json="$shapes_json$(printf '{"shape": "%s", "flags": "%s", "insts": %s, "text_bytes_per_inst": %s, "total_s": %s, "peak_rss_mib": %s, "bytes_per_inst": %s, "target": "%s", "memory_parts": %s}' \
			"$shape" "$flags" "$sh_insts" "$sh_text" "$m_total" "$m_rss" "$sh_bpi" "$sh_verdict" \
			"$sh_parts_json")"
		shapes_out="$shapes_out$(printf '    %-17s %8s insts %7s B/inst (<= 200): %s\n      text read %s B/inst; of which the module read, one thread: %s' \
			"$shape" "$sh_insts" "${sh_bpi#null}" "$sh_verdict" "$sh_text" "$sh_parts")
"
	done
	target_json="$target_json, \"shapes\": [$shapes_json]"
fi
# Beside LLVM's MLIR, the reference a compiler engineer compares with:
# mlir-opt parsing and printing the same one-function module with unique
# attributes, written as MLIR's generic form (bench/pir-to-mlir.py), against
# passline's whole default pipeline on it; medians of whole-process wall
# time. Only where mlir-opt (BENCH_MLIR_OPT, else on the PATH, else an
# installed LLVM's) and python3 are found.
mlir_opt=${BENCH_MLIR_OPT:-$(command -v mlir-opt || ls /usr/lib/llvm-*/bin/mlir-opt 2>/dev/null | tail -1)}
mlir_line=""
if [ -n "$target_n" ] && [ -n "$mlir_opt" ] && [ -x "$mlir_opt" ] && command -v python3 >/dev/null; then
	"$gen" --target-insts "$target_n" --seed 1 --single-function --unique-attrs -o "$tmp/m.pir"
	python3 "$srcdir/bench/pir-to-mlir.py" "$tmp/m.pir" "$tmp/m.mlir"
	wall() { # wall seconds of one run of the command
		t0=$(date +%s.%N)
		"$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
		t1=$(date +%s.%N)
		awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4f\n", b - a}'
	}
	: >"$tmp/pl" && : >"$tmp/mo"
	r=0
	while [ "$r" -lt "$runs" ]; do
		wall "$passline" --plugin-dir "$plugins" -p "$srcdir/conf/default.ini" -q "$tmp/m.pir" \
			-o /dev/null >>"$tmp/pl"
		wall "$mlir_opt" --allow-unregistered-dialect "$tmp/m.mlir" -o /dev/null >>"$tmp/mo"
		r=$((r + 1))
	done
	pl_s=$(median <"$tmp/pl")
	mo_s=$(median <"$tmp/mo")
	mlir_ratio=$(awk -v a="$mo_s" -v b="$pl_s" 'BEGIN {printf "%.1f", (b > 0 ? a / b : 0)}')
	target_json="$target_json$(printf ', "mlir_opt_s": %s, "passline_default_s": %s, "mlir_opt_ratio": %s' \
		"$mo_s" "$pl_s" "$mlir_ratio")"
	mlir_line=$(printf '  against mlir-opt parsing and printing it: %s s against %s s, %sx faster (>= 15x): %s' \
		"$pl_s" "$mo_s" "$mlir_ratio" "$(awk -v x="$mlir_ratio" 'BEGIN {print (x >= 15) ? "met" : "MISSED"}')")
fi
printf '], "scaling_ratio": %s, "count_2p40_tail_mask_us": %s, "hlo_nested_us": [%s, %s], "hlo_nested_ratio": %s, "hlo_wide_tuple_us": [%s, %s], "hlo_wide_tuple_ratio": %s%s}\n' \
	"$ratio" "$count_us" "$nested_small" "$nested_large" "$nested_ratio" \
	"$tuple_small" "$tuple_large" "$tuple_ratio" "$target_json" >>"$json.tmp"
mv "$json.tmp" "$json"
echo "scaling ratio (default pipeline, time per instruction, largest over smallest): $ratio"
echo "DetailDynInst, one exact count of a 2^40-point domain with a tail mask: $count_us microseconds (median of $runs runs over $counts counts)"
echo "targets:"
if [ -n "$target_n" ]; then
	printf '  one function per layer, %s instructions, read to print: %.3f s (<= 0.87 s): %s\n' \
		"$l_insts" "$l_total" "$(verdict "$l_total" 0.87)"
	printf '    peak memory there: %s bytes per instruction (<= 200): %s\n' "$l_bpi" \
		"$(verdict "$l_bpi" 200)"
	printf '      of which the module read, one thread: %s\n' "$l_parts"
	printf '    ScheduleEstimate there (last run): %s s, %s%% of the pipeline (< 10%%): %s\n' \
		"${t_sched:-0}" "$(awk -v a="${t_sched:-0}" -v t="$l_total" 'BEGIN {printf "%.1f", (t > 0 ? 100 * a / t : 0)}')" \
		"$(verdict "$(awk -v a="${t_sched:-0}" -v t="$l_total" 'BEGIN {print (t > 0 ? a / t : 0)}')" 0.1)"
	printf '  one function, unique attributes, %s instructions, read to print: %.3f s (<= 0.7 s): %s\n' \
		"$u_insts" "$u_total" "$(verdict "$u_total" 0.7)"
	printf '    peak memory there: %s bytes per instruction (<= 200): %s\n' "$u_bpi" \
		"$(verdict "$u_bpi" 200)"
	printf '      of which the module read, one thread: %s\n' "$u_parts"
	printf '    time per instruction there over that at %s instructions: %s (<= 1.2): %s\n' \
		"$s_insts" "$u_ratio" "$(verdict "$u_ratio" 1.2)"
fi
if [ -n "$shapes_out" ]; then
	echo "  peak memory per instruction by shape, default pipeline, median of $shape_runs runs:"
	printf '%s' "$shapes_out"
fi
[ -z "$mlir_line" ] || echo "$mlir_line"
printf '  one 2^40-point count with a tail mask: %s microseconds (< 1000): %s\n' "$count_us" \
	"$(verdict "$count_us" 1000)"
printf '  scaling ratio: %s (< 1.5): %s\n' "$ratio" "$(verdict "$ratio" 1.5)"
printf '  HLO of nested instructions, read and written: %s against %s microseconds per instruction at %s and %s lines, ratio %s (< 1.5): %s\n' \
	"$nested_large" "$nested_small" $((hlo_n * 10)) "$hlo_n" "$nested_ratio" "$(verdict "$nested_ratio" 1.5)"
printf '  HLO of a tuple parameter and its get-tuple-elements, read and written: %s against %s microseconds per instruction at %s and %s elements, ratio %s (< 1.5): %s\n' \
	"$tuple_large" "$tuple_small" $((hlo_n * 10)) "$hlo_n" "$tuple_ratio" "$(verdict "$tuple_ratio" 1.5)"
. "$srcdir/bench/overlap.sh"
echo "written: $json"
