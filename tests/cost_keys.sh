#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cost_keys.sh — the cost model's keys, one row each
# (sdk/analysis/cost_keys.def): every preset's terms, read back from
# --stats-json, within the hardware's physical bounds (the datasheet
# figures below, written here independently of the table); a key set
# beyond its bound warned about; the manual and bench/fit_cost_model.py
# checked against what --list-passes says of each key; collectives across
# nodes costed by the algorithm NCCL would pick, and the time split by
# class, kind and tier.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}"
P="$PASSLINE"
PD="--plugin-dir $PLUGIN_DIR"
MAN="$top_srcdir/doc/passline-pipeline.5.in"
cd "$T" || exit 99

printf 'HloModule m, replica_count=8\n\nENTRY main {\n  p = f32[16]{0} parameter(0)\n  ROOT e = f32[16]{0} exponential(p)\n}\n' >one.hlo

if ! have python3; then
	skip "python3 is not installed"
	done_testing
	exit 0
fi

# ---- every preset within the datasheet's bounds ----
for dev in h100 b200; do
	run "$P" $PD --passes=ScheduleEstimate -O cost_model.preset=$dev one.hlo -o out.pir \
		--stats-json s.json
	expect_status 0 "$dev: ScheduleEstimate runs"
	python3 - "$dev" s.json >bounds.txt 2>&1 <<'PY'
import json, sys
dev, path = sys.argv[1], sys.argv[2]
# dense datasheet figures: TFLOP/s, GB/s (HBM), GB/s a direction (NVLink),
# GB/s (one 400 Gb/s NIC per GPU for the H100, at most 800 Gb/s for the B200)
sheet = {
    "h100": {"fp8": 1979, "bf16": 989.4, "tf32": 494.7, "f32": 67, "f64": 67,
             "hbm": 3350, "nvlink": 450, "nic": 50, "memory_gb": 80},
    "b200": {"fp8": 4500, "bf16": 2250, "tf32": 1100, "f32": 80, "f64": 40,
             "hbm": 8000, "nvlink": 900, "nic": 100, "memory_gb": 180},
}[dev]
m = json.load(open(path))["cost_model"]
bad = []
def check(key, bound):
    if not (m[key] <= bound * (1 + 1e-9)):
        bad.append("%s = %g above %g" % (key, m[key], bound))
assert m["preset"] == dev, m["preset"]
for c in ("fp8", "bf16", "tf32", "f32", "f64"):
    check("peak_tflops." + c, sheet[c])
check("memory_gb_per_s", sheet["hbm"])
check("intra.link_gb_per_s", sheet["nvlink"])
check("inter.link_gb_per_s", sheet["nic"])
n_bus = n_copy = 0
for k, v in m.items():
    if k == "preset":
        continue
    if v < 0:
        bad.append("%s = %g is negative" % (k, v))
    if k.endswith(".bus_gb_per_s"):
        check(k, 2 * sheet["nvlink"]); n_bus += 1
    if k.endswith(".copy_gb_per_s"):
        check(k, sheet["hbm"]); n_copy += 1
if m["device_memory_gb"] != sheet["memory_gb"]:
    bad.append("device_memory_gb = %g" % m["device_memory_gb"])
assert n_bus == 6 and n_copy == 6, (n_bus, n_copy)
print("\n".join(bad) if bad else "within bounds")
PY
	ok $? "$dev: the terms read back"
	grep -qx "within bounds" bounds.txt
	ok $? "$dev: every term within its physical bound ($(head -3 bounds.txt | tr '\n' ' '))"
done

# ---- a key set beyond its bound: a warning, the run goes on ----
run "$P" $PD --passes=ScheduleEstimate -O cost_model.preset=h100 \
	-O cost_model.peak_tflops.bf16=2000 -O cost_model.all_reduce.bus_gb_per_s=1000 \
	one.hlo -o out.pir
expect_status 0 "a key beyond its bound is not an error"
expect_err "warning: cost_model.peak_tflops.bf16 = 2000 TFLOP/s is above its physical bound, the h100's dense BF16 peak (989.4 TFLOP/s)" \
	"a peak above the datasheet's is warned about"
expect_err "warning: cost_model.all_reduce.bus_gb_per_s = 1000 GB/s is above its physical bound, twice intra.link_gb_per_s (900 GB/s)" \
	"a bus bandwidth above twice its link is warned about"
run "$P" $PD --passes=ScheduleEstimate -O cost_model.preset=h100 \
	-O cost_model.peak_tflops.bf16=900 one.hlo -o out.pir
expect_no_err "warning" "a key within its bound: no warning"

# ---- the manual and the fit against the table ----
run "$P" $PD --list-passes
expect_status 0 "--list-passes"
sed -n 's/^    \([a-z0-9_.]*\) (\(decimal\|int\)): \[\(.*\)\] .*/\1|\3/p' "$T/out" >keys.txt
n=$(wc -l <keys.txt)
[ "$n" -ge 45 ]
ok $? "--list-passes describes every key ($n)"
missing=""
while IFS='|' read -r key summary; do
	# the manual: ".B KEY" then the summary line, exactly
	line=$(awk -v k=".B $key" 'found { print; exit } $0 == k { found = 1 }' "$MAN")
	[ "$line" = "$summary" ] || missing="$missing $key"
done <keys.txt
[ -z "$missing" ]
ok $? "the manual gives every key as --list-passes does (differs:${missing:- none})"
python3 "$top_srcdir/bench/fit_cost_model.py" --keys >fitkeys.txt
ok $? "bench/fit_cost_model.py --keys"
unknown=""
for k in $(cat fitkeys.txt); do
	grep -q "^$k|" keys.txt || unknown="$unknown $k"
done
[ -s fitkeys.txt ] && [ -z "$unknown" ]
ok $? "every key the fit writes is a key of the table (unknown:${unknown:- none})"

# ---- collectives across nodes: 512 devices, 64 nodes of 8 ----
cat >big.hlo <<'HLO'
HloModule m, replica_count=512

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY main {
  p = f32[1]{0} parameter(0)
  w = f32[67108864]{0} parameter(1)
  tiny = f32[1]{0} all-reduce(p), replica_groups=[1,512]<=[512], to_apply=add
  fsdp = f32[67108864]{0} all-reduce(w), replica_groups=[8,64]<=[512], to_apply=add
  dp = f32[67108864]{0} all-reduce(w), replica_groups=[64,8]<=[8,64]T(1,0), to_apply=add
  ROOT t = (f32[1]{0}, f32[67108864]{0}, f32[67108864]{0}) tuple(tiny, fsdp, dp)
}
HLO
run "$P" $PD --passes=ScheduleEstimate -O cost_model.preset=h100 -O ScheduleEstimate.top_exposed=3 \
	big.hlo -o out.pir --stats-json s.json --remarks
expect_status 0 "collectives over 512 devices"
python3 - s.json >comm.txt <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))["stats"]["ScheduleEstimate"]
print(s["comm_ns"], s.get("comm_inter_node_ns", 0), s.get("comm_intra_node_ns", 0))
PY
read -r comm inter intra <comm.txt
[ "$comm" = "$inter" ] && [ "$intra" = 0 ]
ok $? "every group spans nodes: all its time is inter-node ($inter of $comm)"
# the scalar across 512 ranks: NCCL's tree, tens of us, not the ring's ms
tiny=$(sed -n 's/.*%tiny in @main: \([0-9]*\) ns exposed.*/\1/p' "$T/err" | head -1)
[ -n "$tiny" ] && [ "$tiny" -gt 10000 ] && [ "$tiny" -lt 100000 ]
ok $? "a 4-byte all-reduce over 512 ranks takes tens of us ($tiny ns)"
expect_err "latency dominates" "the scalar's time is latency"
# 256 MiB over 64 ranks on 8 nodes: each node's 8 NICs carry the ring
expect_err "%fsdp in @main:" "the FSDP-like all-reduce is reported"
fsdp=$(sed -n 's/.*%fsdp in @main: \([0-9]*\) ns exposed.*/\1/p' "$T/err" | head -1)
dp=$(sed -n 's/.*%dp in @main: \([0-9]*\) ns exposed.*/\1/p' "$T/err" | head -1)
# the hierarchical all-reduce: 2 x 7/8 x 268435456 bytes over the 8 NICs
# at 47 GB/s (1.25 ms) against 2 x 7/8 of it over NVLink (0.52 ms), plus
# the fitted copy (0.77 ms) and ramp (0.1 ms) terms: about 2.2 ms, not
# the 10 ms of one NIC carrying it all
[ -n "$fsdp" ] && [ "$fsdp" -gt 1500000 ] && [ "$fsdp" -lt 3000000 ]
ok $? "a 64-way all-reduce over 8 nodes runs on every NIC of the node ($fsdp ns)"
# one device per node: each group has one NIC a node
[ -n "$dp" ] && [ "$dp" -gt 9000000 ]
ok $? "an 8-way all-reduce with one device per node runs on one NIC ($dp ns)"
expect_err "bandwidth across nodes dominates" "a large one across nodes: the NICs dominate"
expect_err "waited behind" "the exposed report says what each waited behind"

# ---- fused attention: its FLOPs halved under a causal mask, run at
# attention_efficiency of the peak. q, k, v bf16[1,1024,8,128]: 4 x 1048576
# x 1024 = 4294967296 FLOP forward; with no floor and no ramp, compute-bound
# (8.4 MB at 3350 GB/s is 2514 ns): 4294967296 / 0.64 / 819.4 TFLOP/s =
# 8190 ns; causal 4095 ns; at efficiency 1, 5242 ns ----
attn() { # MASK_TYPE EXTRA-OPTION...
	mask=$1; shift
	cat >attn.hlo <<HLO
HloModule m

ENTRY main {
  q = bf16[1,1024,8,128]{3,2,1,0} parameter(0)
  k = bf16[1,1024,8,128]{3,2,1,0} parameter(1)
  v = bf16[1,1024,8,128]{3,2,1,0} parameter(2)
  ROOT a = (bf16[1,1024,8,128]{3,2,1,0}, f32[1,8,1024,1]{3,2,1,0}) custom-call(q, k, v), custom_call_target="te_fused_attn_forward_ffi", backend_config={attn_heads = 8 : i64, is_training = true, mask_type = $mask : i64, qk_head_dim = 128 : i64}
}
HLO
	run "$P" $PD --passes=ScheduleEstimate -O cost_model.preset=h100 -O cost_model.kernel_floor_us=0 \
		-O cost_model.ramp_us.bf16=0 "$@" attn.hlo -o out.pir --stats-json s.json
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["stats"]["ScheduleEstimate"]["compute_custom_call_ns"])' s.json
}
near() { [ -n "$1" ] && [ "$1" -ge $(($2 - 2)) ] && [ "$1" -le $(($2 + 2)) ]; }
t=$(attn 0)
near "$t" 8190
ok $? "attention without a mask: its FLOPs at 0.64 of the bf16 peak ($t ns)"
t=$(attn 3)
near "$t" 4095
ok $? "Transformer Engine's padding-causal mask (3) halves the work ($t ns)"
t=$(attn 2)
near "$t" 4095
ok $? "its causal mask (2) too ($t ns)"
t=$(attn 1)
near "$t" 8190
ok $? "a padding mask (1) is not causal ($t ns)"
t=$(attn 0 -O cost_model.attention_efficiency=1)
near "$t" 5242
ok $? "attention_efficiency=1: at the peak ($t ns)"

# ---- overlap_slowdown: while a collective is in flight its kernels hold
# a share of the device, and compute beside it runs at 1 - share. An
# all-reduce-start of C ns, then a kernel of t ns, then the done: alone
# (share 0) the kernel takes t; at share 0.5 a short one (2t <= C) takes
# 2t, a long one C + (t - C/2) = t + C/2 ----
ov() { # ELEMENTS SHARE: prints "compute comm exposed overlap"
	cat >ov.hlo <<HLO
HloModule m, replica_count=8

add {
  x = f32[] parameter(0)
  y = f32[] parameter(1)
  ROOT s = f32[] add(x, y)
}

ENTRY main {
  p = f32[16777216]{0} parameter(0)
  q = f32[$1]{0} parameter(1)
  s = f32[16777216]{0} all-reduce-start(p), replica_groups={{0,1,2,3,4,5,6,7}}, to_apply=add
  e = f32[$1]{0} exponential(q)
  d = f32[16777216]{0} all-reduce-done(s)
  ROOT t = (f32[16777216]{0}, f32[$1]{0}) tuple(d, e)
}
HLO
	run "$P" $PD --passes=ScheduleEstimate -O cost_model.preset=h100 -O cost_model.overlap_slowdown="$2" \
		-O ScheduleEstimate.top_buffers=0 ov.hlo -o out.pir --stats-json s.json
	python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["stats"]["ScheduleEstimate"]; print(s["compute_ns"], s["comm_ns"], s["exposed_comm_ns"], s["compute_overlap_ns"])' s.json
}
ov 1048576 0 >ov0.txt
ov 1048576 0.5 >ov1.txt
read -r t c x0 o0 <ov0.txt
read -r t2 c2 x2 o2 <ov1.txt
[ "$o0" = 0 ] && [ $((2 * t)) -le "$c" ] && [ "$t2" = $((2 * t)) ] && [ "$o2" = "$t" ] &&
	[ "$c2" = "$c" ] && [ "$x2" = $((c - 2 * t)) ]
ok $? "a short kernel beside a collective takes twice as long at share 0.5 ($t -> $t2 ns; exposed $x0 -> $x2)"
ov 268435456 0 >ov0.txt
ov 268435456 0.5 >ov1.txt
read -r t c x0 o0 <ov0.txt
read -r t2 c2 x2 o2 <ov1.txt
[ "$t" -gt "$c" ] && [ "$x0" = 0 ] && [ "$t2" = $((t + c / 2 + c % 2)) ] && [ "$o2" = $((t2 - t)) ]
ok $? "a long one is slowed only while the collective runs ($t -> $t2 ns beside $c)"

# ---- a fraction is at most 1 (its unit says so): refused above ----
for key in memory_fraction overlap_slowdown attention_efficiency; do
	run "$P" $PD --passes=ScheduleEstimate -O cost_model.$key=1.5 one.hlo -o out.pir
	expect_status 1 "$key = 1.5 is refused"
	expect_err "$key: 1.5 is above the maximum 1" "$key: the message names the maximum"
done

# ---- the h100 device by default, and its kernel floor op by op as under fusion:
# a chain of small kernels fused is never slower than op by op; so on real
# steps, without a cost key (the default device) ----
printf 'HloModule m\n\nENTRY main {\n  p = f32[64]{0} parameter(0)\n  a = f32[64]{0} exponential(p)\n  b = f32[64]{0} negate(a)\n  c = f32[64]{0} add(a, b)\n  ROOT d = f32[64]{0} multiply(c, p)\n}\n' >chain.hlo
fused_of() { # fused_of JSON: preset, unfused and fused makespans of --stats-json JSON
	python3 - "$1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
s = j["stats"]["ScheduleEstimate"]
print(j["cost_model"]["preset"], s["unfused_makespan_ns"], s["fused_makespan_ns"])
PY
}
run "$P" $PD --passes=ScheduleEstimate -O cost_model.kernel_floor_us=5.4 chain.hlo -o out.pir \
	--stats-json s.json
expect_status 0 "ScheduleEstimate with a key set by name, no preset"
fused_of s.json >fused.txt
read -r preset unfused fused <fused.txt
[ "$preset" = h100 ]
ok $? "no preset given: --stats-json names the device it ran under, h100 ($preset)"
[ "$fused" -le "$unfused" ] && [ "$unfused" -ge 20000 ]
ok $? "four ops pay four kernel floors op by op, the fused kernel one ($fused <= $unfused)"
run "$P" $PD --passes=ScheduleEstimate chain.hlo -o out.pir --stats-json s.json
fused_of s.json >fused.txt
read -r preset unfused fused <fused.txt
[ "$preset" = h100 ] && [ "$fused" -le "$unfused" ] && [ "$unfused" -ge 20000 ]
ok $? "without any cost key: h100, four floors op by op, one fused ($fused <= $unfused)"
D=${HLO_DIR:-$top_srcdir/../shared/hlo}/dumps
for b in kahfizulkifli__misc__sharding_fsdp wenboqian__pbtxt__gpt2_tp-2_n_layer-2; do
	if [ ! -f "$D/$b.hlo" ]; then
		skip "no $b.hlo at $D (set HLO_DIR)"
		continue
	fi
	run "$P" $PD --passes=ScheduleEstimate "$D/$b.hlo" -o out.pir --stats-json s.json
	fused_of s.json >fused.txt
	read -r preset unfused fused <fused.txt
	[ "$status" -eq 0 ] && [ "$preset" = h100 ] && [ "$fused" -gt 0 ] && [ "$fused" -le "$unfused" ]
	ok $? "$b, no cost key: h100, fused $fused ns <= op by op $unfused ns"
done

done_testing
