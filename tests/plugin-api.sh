#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/plugin-api.sh — what a plugin author relies on, through the real
# host and real plugins: an error reported fails the pass, an undeclared
# statistic is named, --stats names every statistic, a plugin earlier in
# the search path that shadows another is marked by --list-passes, and the
# shipped passes built against older headers stay within their tables.
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}" "${FIXTURE_DIR:?}"
P="$PASSLINE"
EX="$top_srcdir/tests/pir/example.pir"
FX="--plugin-dir $FIXTURE_DIR"
cd "$T" || exit 99

# ---- an error reported is a failed pass, whatever run returns ----
run "$P" $FX --passes=FxErrorOk "$EX" -o out.pir --stats-json stats.json
expect_status 4 "pl_ctx_error, then PL_OK from run: the pass failed"
expect_err "example.pir:2:3: error: FxErrorOk: reported, then returned PL_OK" "the error is shown where it was reported"
expect_err "passline: error: pass FxErrorOk failed: it reported an error" "the host says why the pass failed"
[ ! -e out.pir ] && [ ! -e stats.json ] && [ ! -s "$T/out" ]
ok $? "no output is written after a reported error"
run "$P" $FX --passes=FxErrorOk "$EX"
[ ! -s "$T/out" ]
ok $? "nothing on standard output either"
run "$P" $FX --passes=FxErrorOk -O FxErrorOk.fail=none "$EX" -o out.pir
expect_status 0 "the same pass without the error succeeds"
[ -s out.pir ]
ok $? "and writes its output"

run "$P" $FX --passes=FxErrorOk -O FxErrorOk.fail=create "$EX" -o out1.pir
expect_status 4 "pl_ctx_error, then PL_OK from create: the pass failed"
expect_err "error: FxErrorOk: reported by create, which returned PL_OK" "the error from create is shown"
expect_err "passline: error: pass FxErrorOk failed to start: it reported an error" "the host says why it did not start"
[ ! -e out1.pir ]
ok $? "no output after an error in create"

# ---- an undeclared statistic ----
run "$P" $FX --passes=FxErrorOk -O FxErrorOk.fail=stat "$EX" -o out2.pir
expect_status 4 "adding to an undeclared statistic fails the pass"
expect_err "error: FxErrorOk: undeclared statistic 'num_undeclared_things'" "the message names the statistic"
[ ! -e out2.pir ]
ok $? "no output after an undeclared statistic"

# ---- --stats names each statistic ----
run "$P" $FX --passes=FxErrorOk,FxOptions -O FxErrorOk.fail=none --stats "$EX" -o out3.pir
expect_status 0 "--stats"
expect_err "                   1  FxErrorOk.num_runs  Runs." "--stats: value, PASS.stat and description"
expect_err "18446744073709551621  FxOptions.big       A statistic of 2^64 + 5 per run." "--stats: names padded to one column"

# ---- shadowing ----
mkdir first
cp "$FIXTURE_DIR/FxShadow.so" first/BucketizeCCOp.so
run "$P" --plugin-dir "$T/first" --plugin-dir "$PLUGIN_DIR" --list-passes
expect_status 0 "--list-passes with a shadowing plugin"
expect_out "$PLUGIN_DIR/BucketizeCCOp.so (shadowed: $T/first/BucketizeCCOp.so comes first in the search path and runs instead)" \
	"the shipped BucketizeCCOp is marked shadowed, naming the one that runs"
grep -q "^$T/first/BucketizeCCOp.so\$" "$T/out"
ok $? "the plugin that runs is listed unmarked"
[ "$(grep -c 'shadowed' "$T/out")" -eq 1 ]
ok $? "nothing else is marked"
run "$P" --plugin-dir "$T/first" --plugin-dir "$PLUGIN_DIR" --passes=BucketizeCCOp "$EX" -o out4.pir
expect_status 0 "running the shadowed pass"
expect_err "the stand-in BucketizeCCOp ran" "the one first in the search path runs"
run "$P" --plugin-dir "$PLUGIN_DIR" --plugin-dir "$PLUGIN_DIR" --list-passes
expect_no_err "shadowed" "a folder listed twice shadows nothing"
! grep -q shadowed "$T/out"
ok $? "(nothing marked)"

# ---- the shipped passes, built against older headers ----
# FxOlderCountOps and FxOlderCoalesce are CountOps and CoalesceCCOp built
# with an ops.h that lacks the library's newest op (all_reduce_done) and
# dtype (c128).
mkdir old
cp "$FIXTURE_DIR/FxOlderCountOps.so" old/CountOps.so
cp "$FIXTURE_DIR/FxOlderCoalesce.so" old/CoalesceCCOp.so
cat >older.pir <<'PIR'
func @f(%x: f32[4], %y: c128[2], %z: c128[3]) {
  %s = all_reduce_start %x {group_id = "tp", factor = 2, reduce = "add"} : f32[4]
  %d = all_reduce_done %s : f32[4]
  %a, %b = all_reduce %y, %z {group_id = "tp", factor = 2, reduce = "add"} : (c128[2], c128[3])
  acme.barrier
  return %d, %a, %b
}
PIR
run "$P" --plugin-dir "$T/old" --passes=CountOps,CoalesceCCOp --remarks --stats-json older.json older.pir -o older.out.pir
expect_status 0 "CountOps and CoalesceCCOp built against older headers run"
grep -q '"num_insts": 5,.*"num_all_reduce_start": 1, "num_other": 2}' older.json
ok $? "an op newer than CountOps's headers counts as another op (with acme.barrier)"
expect_err "older.pir:4:3: remark: CoalesceCCOp: all_reduce %a not flattened: an operand's dtype is newer than this pass" \
	"CoalesceCCOp leaves a tuple of a dtype newer than its headers alone"
cmp -s older.pir older.out.pir
ok $? "and the module is unchanged"
run "$P" --plugin-dir "$PLUGIN_DIR" --passes=CountOps,CoalesceCCOp --stats-json current.json older.pir -o current.pir
grep -q '"num_all_reduce_start": 1, "num_all_reduce_done": 1, "num_other": 1}' current.json
ok $? "(the shipped CountOps knows all_reduce_done)"
# the shipped passes, built against the older headers, do what they do
# built against the current ones, on a module whose async collectives end
# in the op those headers lack
passes=HoistFSDPCollectives,BucketizeCCOp,CoalesceCCOp,DynamicInstEstimator,DetailDynInst
passes=$passes,ScheduleEstimate
mkdir old2
for f in Hoist:HoistFSDPCollectives Bucketize:BucketizeCCOp Coalesce:CoalesceCCOp \
	Estimator:DynamicInstEstimator Detail:DetailDynInst Schedule:ScheduleEstimate; do
	cp "$FIXTURE_DIR/FxOlder${f%%:*}.so" "old2/${f#*:}.so"
done
{
	cat "$top_srcdir/examples/fsdp_step.pir"
	cat <<'PIR'
func @overlap(%p: bf16[64,64], %q: f32[16], %out: f32[16]) {
  %s = all_reduce_start %q {group_id = "tp", factor = 4, reduce = "add", id = 6} : f32[16]
  %g = all_gather %p {group_id = "dp", factor = 8, fsdp = true, id = 7} : bf16[512,64]
  %d = all_reduce_done %s : f32[16]
  %h = all_gather %p {group_id = "dp", factor = 8, fsdp = true, id = 8} : bf16[512,64]
  generic_store %d, %out
  return %g, %h
}
PIR
} >step.pir
run "$P" --plugin-dir "$PLUGIN_DIR" --passes=$passes --stats-json new.json step.pir -o new.pir
expect_status 0 "the shipped passes on a module with async collectives"
run "$P" --plugin-dir "$T/old2" --passes=$passes --stats-json old.json step.pir -o old.pir
expect_status 0 "the same, with every pass built against older headers"
cmp -s new.pir old.pir && cmp -s new.json old.json
ok $? "both give the same module and statistics"
grep -q '"DynamicInstEstimator": {"est_inst_count": [1-9]' new.json
ok $? "(the passes did run)"

# ---- the shipped plugins are written as a third party would write them ----
# Each #include names a system header, an installed <passline/...> header
# (as sdk/local.mk installs them), or a header of plugins/ itself.
sed -n 's|^[[:space:]]*sdk/include/\(passline/[a-z_0-9]*\.h\).*|\1|p' "$top_srcdir/sdk/local.mk" \
	| LC_ALL=C sort >installed
echo passline/version.h >>installed # made by configure, installed as well
[ "$(grep -c . installed)" -ge 10 ]
ok $? "the installed headers are listed ($(grep -c . installed))"
: >stray
for f in "$top_srcdir"/plugins/*.[ch]; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*//p' "$f" | while read -r inc rest; do
		name=$(echo "$inc" | tr -d '<>"')
		case $inc in
		\<passline/*) grep -qx "$name" installed ;;
		\<*) case $name in *..* | *sdk/*) false ;; *) true ;; esac ;;
		\"*) case $name in */*) false ;; *) [ -f "$top_srcdir/plugins/$name" ] ;; esac ;;
		*) false ;;
		esac || echo "${f#"$top_srcdir"/}: #include $inc" >>stray
	done
done
[ ! -s stray ]
ok $? "the shipped plugins include only installed SDK headers and their own"
sed 's/^/# /' stray
done_testing
