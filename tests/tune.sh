#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/tune.sh — passline tune: the search's rules checked from outside.
# On a small hand-made step (tests/hlo/xla_flags.hlo) and, with HLO_DIR, the
# 70B step under the published recipe's flags: every configuration of the
# JSON is judged against the memory limit, exactly one is the user's, the
# recommendation is the fastest that fits and its flags, run on their own
# through conf/xla-gpu.ini, predict the step tune reported; two runs (and
# -j 1 against -j 2) write the same bytes; bad options are usage errors.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE --plugin-dir $PLUGIN_DIR"
TUNE="$PASSLINE tune --plugin-dir $PLUGIN_DIR"
XG="$top_srcdir/conf/xla-gpu.ini"
IN="$top_srcdir/tests/hlo/xla_flags.hlo"
cd "$T" || exit 99
if ! have python3; then
	skip "python3 is not installed"
	done_testing
	exit 0
fi

# check_json FILE LIMIT: prints the recommended flags and its step_ns, or
# fails when a rule is broken.
check_json() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
limit = int(sys.argv[2])
cs = d["configurations"]
assert len(cs) >= 2, "too few configurations"
assert sum(1 for c in cs if c["current"]) == 1, "not exactly one current configuration"
assert len({c["xla_flags"] for c in cs}) == len(cs), "a configuration evaluated twice"
ran = [c for c in cs if not c.get("failed")]
for c in ran:
    assert c["fits"] == (c["peak_bytes"] <= limit), "fits disagrees with the limit"
fit = [c for c in ran if c["fits"]]
best = min(fit, key=lambda c: c["step_ns"])
assert cs[0] is best or cs[0]["step_ns"] == best["step_ns"], "the first is not the fastest that fits"
assert cs[0]["peak_bytes"] <= limit, "the recommendation is over the limit"
print(cs[0]["xla_flags"])
print(cs[0]["step_ns"])
PY
}

run $TUNE --help
expect_status 0 "tune --help"
expect_out "usage: passline tune [options] INPUT" "tune --help gives the usage"

LIMIT=100000000000
run $TUNE -q -O cost_model.preset=h100 --memory-limit 100GB --budget 60 -j 2 \
	--json a.json "$IN"
expect_status 0 "tune runs on the small step"
tail -n 1 "$T/out" | grep -q '^XLA_FLAGS="--xla_gpu_all_reduce_combine_threshold_bytes='
ok $? "the last line is the XLA_FLAGS of the recommendation"
expect_out "your flags:" "the user's configuration is reported with its rank"
expect_out "Pareto front" "the step-against-memory front is printed"
check_json a.json $LIMIT >rec.txt
ok $? "the JSON keeps the rules (one current, each fits as the limit says, the first the fastest that fits)"
flags=$(sed -n 1p rec.txt)
step=$(sed -n 2p rec.txt)
tail -n 1 "$T/out" | grep -qF "XLA_FLAGS=\"$flags\""
ok $? "the printed line is the JSON's first configuration"

# the recommendation, on its own, predicts the same step
run $P -q -p "$XG" -O cost_model.preset=h100 --xla-flags="$flags" "$IN" -o rec.hlo \
	--stats-json rec.json
expect_status 0 "the recommended flags run through conf/xla-gpu.ini"
python3 -c 'import json; print(json.load(open("rec.json"))["stats"]["ScheduleEstimate"]["step_ns"])' >got.txt
[ "$(cat got.txt)" = "$step" ]
ok $? "the recommended flags predict exactly the step tune reported ($step ns)"

run $TUNE -q -O cost_model.preset=h100 --memory-limit 100GB --budget 60 -j 1 \
	--json b.json "$IN"
expect_same_file a.json b.json "the JSON is the same on one process and on two"
run $TUNE -q -O cost_model.preset=h100 --memory-limit 100GB --budget 60 -j 2 \
	--json c.json "$IN"
expect_same_file a.json c.json "the JSON is the same from run to run"
python3 -c 'import json, sys; m = json.load(open(sys.argv[1]))["cost_model"]; assert m["preset"] == "h100" and m["device_memory_gb"] == 80, m' a.json
ok $? "the JSON names the cost model the configurations ran under"

# the user's own flags are the current configuration
run env XLA_FLAGS="--xla_gpu_all_reduce_combine_threshold_bytes=4096 --xla_gpu_enable_triton_gemm=false" \
	$TUNE -q -O cost_model.preset=h100 --memory-limit 100GB --budget 40 --json u.json "$IN"
expect_status 0 "tune takes the user's XLA_FLAGS"
python3 - u.json <<'PY'
import json, sys
cs = json.load(open(sys.argv[1]))["configurations"]
cur = [c for c in cs if c["current"]][0]
assert "--xla_gpu_all_reduce_combine_threshold_bytes=4096" in cur["xla_flags"], cur
assert all("--xla_gpu_enable_triton_gemm=false" in c["xla_flags"] for c in cs)
PY
ok $? "the user's flags are the current configuration, and a flag tune does not search is kept in all"

# nothing fits: no recommendation
run $TUNE -q -O cost_model.preset=h100 --memory-limit 1kB --budget 20 "$IN"
expect_status 0 "tune with a limit nothing fits"
expect_out "no configuration fits the memory limit" "it says that nothing fits"
grep -q '^XLA_FLAGS=' "$T/out"
[ $? -ne 0 ]
ok $? "no flags are recommended above the limit"

# no preset named: the h100 device, whose 80 GB times JAX's 0.75 is the
# limit; the exact integer model (an old key) names no device memory
run $TUNE --budget 8 -j 1 "$IN"
expect_status 0 "tune without a preset or a limit"
expect_out "fit in 60.00 GB" "the limit is h100's memory times 0.75"
expect_no_err "names no device memory" "and nothing is said of a missing device memory"
run $TUNE --budget 8 -j 1 -O cost_model.latency_ns=10000 "$IN"
expect_err "the cost model names no device memory" "the exact integer model has no device memory"

# a step with no collectives
printf 'HloModule none\nENTRY e {\n  p = f32[8] parameter(0)\n  ROOT n = f32[8] negate(p)\n}\n' >none.hlo
run $TUNE -q none.hlo
expect_status 0 "a step with no collectives exits 0"
expect_out "has no collectives" "and says it has none"

# usage errors
run $TUNE --memory-limit 12parsecs "$IN"
expect_status 2 "a size with an unknown unit is a usage error"
run $TUNE --json - "$IN"
expect_status 2 "--json - would share standard output with the table"
run $TUNE
expect_status 2 "tune without INPUT"
run $TUNE --xla-flags="--xla_gpu_all_reduce_combine_threshold_bytes=abc" "$IN"
expect_status 1 "a modelled flag with a bad value is refused"
expect_err "xla_gpu_all_reduce_combine_threshold_bytes" "the bad flag is named"

# the 70B step under the published recipe's flags
D="${HLO_DIR:-}/dumps/xla-benchmarks__hlo_llama31_70b_bf16_16x8.hlo"
if [ -n "${HLO_DIR:-}" ] && [ -f "$D" ]; then
	RECIPE="--xla_gpu_enable_latency_hiding_scheduler=true --xla_gpu_all_reduce_combine_threshold_bytes=2147483648 --xla_gpu_all_gather_combine_threshold_bytes=2147483648 --xla_gpu_reduce_scatter_combine_threshold_bytes=33554432 --xla_gpu_enable_pipelined_all_gather=true --xla_gpu_enable_pipelined_reduce_scatter=true --xla_gpu_enable_pipelined_all_reduce=true --xla_gpu_enable_while_loop_double_buffering=true --xla_gpu_enable_all_gather_combine_by_dim=false --xla_gpu_enable_reduce_scatter_combine_by_dim=false --xla_disable_hlo_passes=rematerialization"
	run env XLA_FLAGS="$RECIPE" $TUNE -q -O cost_model.preset=h100 --memory-limit 1TB \
		--budget 50 --json big.json "$D"
	expect_status 0 "tune on the 70B step under the recipe's flags"
	n=$(python3 -c 'import json; print(len(json.load(open("big.json"))["configurations"]))')
	[ "$n" -ge 50 ]
	ok $? "at least 50 configurations evaluated on the 70B step ($n)"
	check_json big.json 1000000000000 >big.txt
	ok $? "the 70B JSON keeps the rules"
	run $P -q -p "$XG" -O cost_model.preset=h100 --xla-flags="$(sed -n 1p big.txt)" "$D" \
		-o big.hlo --stats-json bigrec.json
	python3 -c 'import json; print(json.load(open("bigrec.json"))["stats"]["ScheduleEstimate"]["step_ns"])' >bgot.txt
	[ "$(cat bgot.txt)" = "$(sed -n 2p big.txt)" ]
	ok $? "the 70B recommendation reproduces its prediction"
else
	skip "HLO_DIR has no 70B dump"
fi
done_testing
