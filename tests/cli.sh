#!/bin/sh
# SPDX-License-Identifier: MIT
# tests/cli.sh — the passline command line: options, exit statuses,
# pipeline files, option validation, stats, reports and output files,
# through the real host and real plugins (fixtures in tests/fixtures).
. "$top_srcdir/tests/tap.sh"
: "${PASSLINE:?}" "${PLUGIN_DIR:?}" "${FIXTURE_DIR:?}"
P="$PASSLINE"
EX="$top_srcdir/tests/pir/example.pir"
FX="--plugin-dir $FIXTURE_DIR"
cd "$T" || exit 99

# ---- help, version, usage ----
run "$P" --help
expect_status 0 "--help"
for opt in --pipeline --passes -O -o --stats --stats-json --time-passes --verify-each \
	--print-after-all --remarks --list-passes --print-pipeline --plugin-dir \
	--allow-insecure-plugins --quiet --threads --version --internal-ccop-bucketing \
	--internal-ccop-bucketing-allgather-size-in-bytes \
	--internal-ccop-bucketing-reducescatter-size-in-bytes \
	--internal-ccop-bucketing-allreduce-size-in-bytes; do
	grep -qF -- "$opt" "$T/out"
	ok $? "--help documents $opt"
done
run "$P" --version
expect_status 0 "--version"
expect_out "passline 0.2.0 (plugin ABI 1.2" "--version names the release and ABI"
run "$P"
expect_status 2 "no INPUT is a usage error"
expect_err "missing INPUT" "no INPUT says so"
run "$P" --no-such-option x.pir
expect_status 2 "an unknown option is a usage error"
expect_err "unknown option '--no-such-option'" "an unknown option is named"
run "$P" -p a.ini --passes=A x.pir
expect_status 2 "-p with --passes is a usage error"
run "$P" --passes= a.pir b.pir
expect_status 2 "two inputs are a usage error"
run "$P" -o
expect_status 2 "-o without its argument is a usage error"
run "$P" --passes=, "$EX"
expect_status 2 "a malformed --passes list is a usage error"

# ---- reading, verifying, writing ----
run "$P" --passes= "$EX"
expect_status 0 "round trip with no passes"
cmp -s "$T/out" "$top_srcdir/tests/pir/example.pir"
ok $? "round trip prints the canonical input unchanged"
run sh -c "\"$P\" --passes= - < \"$EX\""
expect_status 0 "INPUT - reads standard input"
cmp -s "$T/out" "$EX"
ok $? "standard input round trip"
printf 'func @f() {\n  %%a = acme.x %%b : f32[]\n}\n' >bad.pir
run "$P" --passes= bad.pir
expect_status 1 "a use of an undefined value is an input error"
expect_err_exactly "bad.pir:2:15: error: use of undefined value '%b'" "parse errors are file:line:col"
printf 'func @f(%%x: f32[4]) {\n  %%y = all_gather %%x {factor = 2} : f32[4]\n}\n' >badshape.pir
run "$P" --passes= badshape.pir
expect_status 1 "a verifier error is an input error"
expect_err "badshape.pir:2:3: error: 'all_gather': result 0 has type f32[4], expected f32[8]" \
	"verifier errors name the instruction's location"
run "$P" --passes= missing.pir
expect_status 1 "a missing input"
expect_err "missing.pir: error: cannot open: No such file or directory" "a missing input is named"

# -o: atomic, never half-written
cp "$EX" in.pir
run "$P" --passes= in.pir -o out.pir
expect_status 0 "-o FILE"
expect_same_file out.pir "$EX" "-o writes the module"
echo "precious" >keep.pir
run "$P" --passes= bad.pir -o keep.pir
expect_status 1 "-o with a bad input"
[ "$(cat keep.pir)" = precious ]
ok $? "-o: a bad input leaves the old output untouched"
[ -z "$(find . -name '.keep.pir.*')" ]
ok $? "-o: no temporary file is left behind"
run "$P" --passes= in.pir -o no/such/dir/out.pir
expect_status 1 "-o into a missing folder"
expect_err "cannot write no/such/dir/out.pir: No such file or directory" "-o names the missing folder"
[ ! -e no ]
ok $? "-o into a missing folder creates nothing"
printf 'func @f() {\n   return\n}\n' >self.pir
run "$P" --passes= self.pir -o self.pir
expect_status 0 "-o equal to the input"
printf 'func @f() {\n  return\n}\n' | cmp -s - self.pir
ok $? "-o equal to the input replaces it with the canonical module"
mkdir outdir
run "$P" --passes= in.pir -o outdir
expect_status 1 "-o naming a folder"

# ---- plugins: search, loading, every way to be refused ----
run "$P" --passes=NoSuchPass "$EX"
expect_status 1 "an unknown pass is a pipeline error"
expect_err "unknown pass 'NoSuchPass': no NoSuchPass.so in the plugin search path" "an unknown pass is named"

# a misspelled pass gets the nearest pass the search path offers, in a
# pipeline file as in --passes
printf '[pipeline]\nname = typo\n\n[pass FxOption]\n' >typo.ini
run "$P" $FX -p typo.ini "$EX"
expect_status 1 "a misspelled pass in a pipeline file"
expect_err_exactly "typo.ini:4: error: unknown pass 'FxOption': no FxOption.so in the plugin search path (did you mean 'FxOptions'?)" \
	"a misspelled pass in a pipeline file: file:line and did-you-mean"
run "$P" $FX --passes=FxOptions,FxRunfails "$EX"
expect_status 1 "a misspelled pass in --passes"
expect_err_exactly "passline: error: unknown pass 'FxRunfails': no FxRunfails.so in the plugin search path (did you mean 'FxRunFails'?)" \
	"a misspelled pass in --passes: did-you-mean"
# no plugins at all (no --plugin-dir): one message naming every pass and
# the folders searched, not one line per pass
mkdir noplugins
run env PASSLINE_PLUGIN_PATH="$T/noplugins:$T/nowhere" $PASSLINE --passes=Abc,Defgh,Abc "$EX"
expect_status 1 "passes with no plugin in the search path"
# (the installed folder, last, may hold plugins where passline is installed)
grep -qF "passline: error: unknown passes Abc, Defgh: no NAME.so for them in the plugin search path (searched: $T/noplugins, $T/nowhere (no such folder), " "$T/err"
ok $? "one message names the passes (each once) and the folders searched"
[ "$(wc -l <"$T/err")" -eq 1 ]
ok $? "in one line"
# a module given where the pipeline file belongs
printf 'HloModule m\n\nENTRY e {\n  ROOT p = f32[%s] parameter(0)\n}\n' "$(printf '1,%.0s' $(seq 1 80))1" >mod.hlo
run "$P" $FX -p mod.hlo "$EX"
expect_status 1 "an HLO module given to -p"
expect_err_exactly "mod.hlo: error: this is XLA HLO text (it starts with HloModule), not a pipeline file: a module is the INPUT, the last argument (passline [-p PIPELINE] mod.hlo)" \
	"an HLO module given to -p: said in words, not as an overlong line"
run "$P" $FX -p "$EX" "$EX"
expect_status 1 "a .pir module given to -p"
expect_err "error: this is a .pir module (it starts with func @), not a pipeline file" \
	"a .pir module given to -p: said in words"
for fx in "FxNotPlugin:not a passline plugin (it has no pl_plugin_entry_v1)" \
	"FxAbiMajor:wrong ABI major version: built for plugin ABI 2.0, this host speaks ABI 1.2" \
	"FxAbiNewer:needs a newer host: built for plugin ABI 1.3, this host speaks ABI 1.2" \
	"FxTooSmall:descriptor too small: plugin descriptor too small" \
	"FxNullDesc:no descriptor: the plugin entry returned no descriptor" \
	"FxMalformed:malformed descriptor: pass 'FxMalformed' has no run function" \
	"FxUndefined:undefined symbol: fx_symbol_nobody_defines"; do
	name=${fx%%:*}
	msg=${fx#*:}
	run "$P" $FX --passes="$name" "$EX"
	expect_status 3 "$name is refused"
	expect_err "cannot load plugin $FIXTURE_DIR/$name.so: $msg" "$name: its own message"
done
mkdir plugdir
echo "not an ELF file" >plugdir/FxText.so
run "$P" --plugin-dir plugdir --passes=FxText "$EX"
expect_status 3 "a text file named .so is refused"
expect_err "plugdir/FxText.so: not a shared object (no ELF header)" "a text file: its own message"
mkdir plugdir/FxFolder.so
run "$P" --plugin-dir plugdir --passes=FxFolder "$EX"
expect_status 3 "a folder named .so is refused"
expect_err "FxFolder.so: is a directory, not a plugin" "a folder: its own message"
printf '[pass FxTwoPasses]\n[pass FxShared]\n' >dup.ini
run "$P" $FX -p dup.ini "$EX"
expect_status 3 "one pass offered by two plugins"
expect_err "pass 'FxShared' is offered by two plugins: $FIXTURE_DIR/FxTwoPasses.so and $FIXTURE_DIR/FxShared.so" \
	"the duplicate names both files"
run "$P" $FX --passes=FxCreateFails "$EX" -o created.pir
expect_status 4 "create failing is a pass failure"
expect_err "passline: error: FxCreateFails: cannot start: the fixture always refuses" "create explains itself"
[ ! -e created.pir ]
ok $? "a failing pass writes no output"
run "$P" $FX --passes=FxRunFails "$EX"
expect_status 4 "run failing is a pass failure"
expect_err "example.pir:2:3: error: FxRunFails: the fixture fails here" "run errors name the instruction"
expect_err "passline: error: pass FxRunFails failed" "the failing pass is named"
run "$P" $FX --passes=FxBreaksIR "$EX" -o broken.pir
expect_status 4 "a pass that breaks the IR fails the run"
expect_err "the IR is invalid after the pipeline" "broken IR is caught by the final verification"
[ ! -e broken.pir ]
ok $? "broken IR is never written"
run "$P" $FX --passes=FxBreaksIR --verify-each "$EX"
expect_status 4 "--verify-each names the pass that broke the IR"
expect_err "the IR is invalid after pass FxBreaksIR" "--verify-each message"

# crashes: a banner naming the pass and plugin, then the same signal
for sig in segv:139:SIGSEGV fpe:136:SIGFPE abrt:134:SIGABRT bus:135:SIGBUS; do
	how=${sig%%:*}
	rest=${sig#*:}
	code=${rest%%:*}
	signame=${rest#*:}
	run "$P" $FX --passes=FxCrash -O FxCrash.signal="$how" "$EX" -o crashed.pir
	[ "$status" -eq "$code" ]
	ok $? "a crashing pass ($signame) dies by its signal"
	expect_err "passline: fatal: $signame" "crash banner names $signame"
	expect_err "while running pass FxCrash (plugin $FIXTURE_DIR/FxCrash.so)" "crash banner names pass and plugin ($how)"
	[ -z "$(find . -name '.crashed.pir.*')" ] && [ ! -e crashed.pir ]
	ok $? "a crash leaves no output or temporary file ($how)"
done

# world-writable plugins are refused unless allowed
mkdir -p ww/dir
cp "$FIXTURE_DIR/FxOptions.so" ww/dir/
chmod 755 ww ww/dir
chmod 666 ww/dir/FxOptions.so
run "$P" --plugin-dir ww/dir --passes=FxOptions "$EX"
expect_status 3 "a world-writable plugin file is refused"
expect_err "refusing a world-writable plugin file" "world-writable file: message"
run "$P" --allow-insecure-plugins --plugin-dir ww/dir --passes=FxOptions "$EX"
expect_status 0 "--allow-insecure-plugins loads it"
chmod 644 ww/dir/FxOptions.so
chmod 777 ww/dir
run "$P" --plugin-dir ww/dir --passes=FxOptions "$EX"
expect_status 3 "a plugin in a world-writable folder is refused"
expect_err "refusing a plugin in a world-writable folder" "world-writable folder: message"
chmod 755 ww/dir

# the current directory is never searched; plugin = is relative to the INI
mkdir -p cwd pipes/plugins
cp "$FIXTURE_DIR/FxOptions.so" cwd/
run_in cwd "$P" --passes=FxOptions "$EX"
expect_status 1 "the current directory is not searched for plugins"
cp "$FIXTURE_DIR/FxOptions.so" pipes/plugins/
printf '[pass FxOptions]\nplugin = plugins/FxOptions.so\n' >pipes/rel.ini
run_in cwd "$P" -p ../pipes/rel.ini "$EX"
expect_status 0 "plugin = resolves against the pipeline file's folder"
printf '[pipeline]\nplugin_dir = plugins\n[pass FxOptions]\n' >pipes/dir.ini
run_in cwd "$P" -p ../pipes/dir.ini "$EX"
expect_status 0 "[pipeline] plugin_dir resolves against the pipeline file's folder"
run env PASSLINE_PLUGIN_PATH="/nonexistent:$FIXTURE_DIR" "$P" --passes=FxOptions "$EX"
expect_status 0 "PASSLINE_PLUGIN_PATH is searched"
# PASSLINE_PLUGIN_PATH is ignored by a setuid passline (secure_getenv).
# Opt-in (PASSLINE_TEST_SETUID=1, which CI sets): it makes a root-owned
# setuid copy of passline, which loads plugins from any --plugin-dir. Its
# folder belongs to the unprivileged user the test runs it as, mode 0700,
# so no other local user can reach the copy while the test runs.
if [ "${PASSLINE_TEST_SETUID:-0}" = 1 ] && really_root && command -v setpriv >/dev/null 2>&1; then
	as_nobody="setpriv --reuid=65534 --regid=65534 --clear-groups"
	chmod 755 "$T"
	mkdir -p suid
	chown 65534:65534 suid
	chmod 700 suid
	cp "$top_builddir/tests/passline-standalone" suid/passline
	chmod 4755 suid/passline
	cp "$EX" suid/example.pir
	chown 65534:65534 suid/example.pir
	run $as_nobody sh -c 'id -u; id -g'
	[ "$(cat "$T/out")" = "65534
65534" ]
	ok $? "setpriv really drops to uid and gid 65534"
	[ "$(stat -c %a:%u suid)" = 700:65534 ]
	ok $? "the setuid copy's folder is private (mode 0700)"
	run env PASSLINE_PLUGIN_PATH="$FIXTURE_DIR" $as_nobody suid/passline --passes=FxOptions suid/example.pir
	expect_status 1 "a setuid passline ignores PASSLINE_PLUGIN_PATH"
	expect_err "unknown pass 'FxOptions'" "a setuid passline does not find plugins through the environment"
	run $as_nobody suid/passline --plugin-dir "$FIXTURE_DIR" --passes=FxOptions suid/example.pir
	expect_status 0 "a setuid passline still loads plugins named on its command line"
	run env PASSLINE_DEFAULT_PIPELINE=/nonexistent.ini $as_nobody suid/passline \
		--plugin-dir "$PLUGIN_DIR" --print-pipeline
	expect_out "; from the built-in default pipeline" "a setuid passline ignores PASSLINE_DEFAULT_PIPELINE"
	chmod 755 suid/passline
	run env PASSLINE_PLUGIN_PATH="$FIXTURE_DIR" $as_nobody suid/passline --passes=FxOptions suid/example.pir
	expect_status 0 "the same binary without setuid uses PASSLINE_PLUGIN_PATH"
	rm -rf suid
else
	skip "the setuid test runs with PASSLINE_TEST_SETUID=1, as real root, with setpriv"
fi
printf '[pass FxOptions]\nplugin = missing/FxOptions.so\n' >missing.ini
run "$P" -p missing.ini "$EX"
expect_status 3 "plugin = naming a missing file"
expect_err "cannot load plugin $T/missing/FxOptions.so: No such file or directory" "a missing plugin file is named"

# ---- pipeline files ----
check_ini() { # check_ini EXPECTED-MESSAGE DESCRIPTION (reads p.ini)
	run "$P" $FX -p p.ini "$EX"
	expect_status 1 "$2"
	expect_err "$1" "$2: message"
}
printf '[pipeline]\nnam = x\n' >p.ini
check_ini "p.ini:2: error: unknown key 'nam' in [pipeline] (did you mean 'name'?)" "unknown [pipeline] key"
printf '[pass FxOptions]\ncount = 1\ncount = 2\n' >p.ini
check_ini "p.ini:3: error: duplicate key 'count' (first set on line 2)" "duplicate key"
printf '[passes FxOptions]\n' >p.ini
check_ini "p.ini:1: error: unknown section [passes FxOptions]; expected [pipeline], [cost_model], [loops] or [pass NAME]" "unknown section"
printf 'count = 1\n' >p.ini
check_ini "p.ini:1: error: key 'count' outside a section" "key outside a section"
printf '\357\273\277[pass FxOptions]\ncount = 1\n' >p.ini
run "$P" $FX -p p.ini --print-pipeline
expect_status 0 "a UTF-8 byte-order mark opening a pipeline file is skipped"
expect_out "count = 1" "the pipeline after a byte-order mark is read whole"
printf '; c\n\357\273\277[pass FxOptions]\n' >p.ini
check_ini "p.ini:2: error: unexpected byte 0xEF at 2:1 before the first section" "a byte-order mark after the first line"
printf '\357\273[pass FxOptions]\n' >p.ini
check_ini "p.ini:1: error: unexpected byte 0xEF at 1:1" "a broken byte-order mark"
printf '\357\273\277  \342\200\213[pass FxOptions]\n' >p.ini
check_ini "p.ini:1: error: unexpected byte 0xE2 at 1:6" "a zero-width space after a byte-order mark"
printf '\033[pass FxOptions]\n' >p.ini
check_ini "p.ini:1: error: unexpected byte 0x1B at 1:1 before the first section" "a control character before the first section"
printf '[pass FxOptions]\nthis line has no equals sign\n' >p.ini
check_ini "p.ini:2: error: syntax error" "a line that is not INI"
printf '[pass FxOptions]\nenabled = maybe\n' >p.ini
check_ini "p.ini:2: error: [pass FxOptions] enabled: expected true or false, not 'maybe'" "bad enabled"
printf '[pipeline]\n[pipeline]\n' >p.ini
check_ini "p.ini:2: error: a second [pipeline] section" "two [pipeline] sections"
printf '[pass Fx-Options]\n' >p.ini
check_ini "p.ini:1: error: invalid pass name 'Fx-Options'" "invalid pass name"
{ printf '[pass FxOptions]\nlabel = '; head -c 300 /dev/zero | tr '\0' x; echo; } >p.ini
check_ini "p.ini:2: error: line longer than 198 characters" "an overlong line"
printf '[pass FxOptions]\n\000\001\002\n' >p.ini
check_ini "p.ini:2: error: NUL byte: this is not a pipeline file" "a binary file"
printf '[pass NoSuchPass]\n' >p.ini
check_ini "p.ini:1: error: unknown pass 'NoSuchPass'" "an unknown pass in a pipeline file"
run "$P" -p nonexistent.ini "$EX"
expect_status 1 "a missing pipeline file"
expect_err "nonexistent.ini: error: cannot open pipeline file: No such file or directory" "missing pipeline file: message"
run "$P" -p "$T" "$EX"
expect_status 1 "a folder as pipeline file"
expect_err "cannot read pipeline file: Is a directory" "folder pipeline file: message"
printf '[pass FxOptions]\n' >unreadable.ini
chmod 000 unreadable.ini
if really_root && command -v setpriv >/dev/null 2>&1; then
	chmod 755 "$T"
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$P" -p "$T/unreadable.ini" "$EX"
elif permissions_enforced; then
	run "$P" -p unreadable.ini "$EX"
else
	status=skip
fi
if [ "$status" = skip ]; then
	skip "file modes are not enforced here (fakeroot): an unreadable pipeline file"
	skip "file modes are not enforced here (fakeroot): its message"
else
	expect_status 1 "an unreadable pipeline file"
	expect_err "cannot open pipeline file: Permission denied" "unreadable pipeline file: message"
fi
# indented keys are keys, comments and blank lines are fine
printf '; comment\n# comment\n\n[pipeline]\n  name = indented\n[pass FxOptions]\n   count = 7 ; inline comment\n' >p.ini
run "$P" $FX -p p.ini "$EX"
expect_status 0 "comments, blank lines, indentation and inline comments"
expect_err "FxOptions: flag=false count=7 size=1024 label=none mode=fast" "the indented option took effect"

# ---- options: every type and every error ----
opt_error() { # opt_error KEY=VALUE MESSAGE
	printf '[pass FxOptions]\n%s\n' "$1" >o.ini
	run "$P" $FX -p o.ini "$EX"
	expect_status 1 "option $1 is refused"
	expect_err "o.ini:2: error: [pass FxOptions] $2" "option $1: message"
}
opt_error "cont = 1" "unknown option 'cont' (did you mean 'count'?)"
opt_error "zzz = 1" "unknown option 'zzz' (see passline --list-passes)"
opt_error "flag = perhaps" "option 'flag': expected true or false, not 'perhaps'"
opt_error "count = many" "option 'count': expected an integer, not 'many'"
opt_error "count = 101" "option 'count': 101 is above the maximum 100"
opt_error "count = -1" "option 'count': -1 is below the minimum 0"
opt_error "count = 99999999999999999999" "option 'count': '99999999999999999999' is out of range of int64"
opt_error "size = 12MB" "option 'size': expected a byte count such as 4096, 64KiB, 16MiB or 1GiB, not '12MB'"
opt_error "size = 9999999999GiB" "option 'size': '9999999999GiB' is out of range of int64"
opt_error "mode = slow" "option 'mode': expected one of fast, exact, not 'slow'"
printf '[pass FxOptions]\nflag = yes\ncount = 100\nsize = 2MiB\nlabel = hello world\nmode = exact\n' >o.ini
run "$P" $FX -p o.ini "$EX"
expect_status 0 "options of every type"
expect_err "FxOptions: flag=true count=100 size=2097152 label=hello world mode=exact" "every option reaches the pass"
expect_err "example.pir:2:3: warning: FxOptions: flag is set" "warnings are located"
run "$P" $FX -p o.ini -q "$EX"
expect_no_err "FxOptions: flag=" "-q hides pass reports"
expect_no_err "warning" "-q hides warnings"
# -O overrides the file and validates the same way
run "$P" $FX -p o.ini -O FxOptions.count=5 -O FxOptions.mode=fast "$EX"
expect_status 0 "-O overrides"
expect_err "count=5 size=2097152 label=hello world mode=fast" "-O values reach the pass"
run "$P" $FX --passes=FxOptions -O FxOptions.count=500 "$EX"
expect_status 1 "-O with a bad value"
expect_err "passline: error: -O: [pass FxOptions] option 'count': 500 is above the maximum 100" "-O bad value: message"
run "$P" $FX --passes=FxOptions -O FxOptionz.count=5 "$EX"
expect_status 1 "-O for a pass not in the pipeline"
expect_err "-O: no pass 'FxOptionz' in the pipeline (did you mean 'FxOptions'?)" "-O unknown pass: message"
run "$P" $FX --passes=FxOptions -O count=5 "$EX"
expect_status 2 "-O without PASS. is a usage error"
run "$P" $FX --passes=FxOptions,FxRunFails -O FxRunFails.enabled=false "$EX"
expect_status 0 "-O PASS.enabled=false skips a step"
printf '[pass FxOptions]\n[pass FxRunFails]\nenabled = false\n' >p.ini
run "$P" $FX -p p.ini "$EX"
expect_status 0 "enabled = false in the file skips a step"

# ---- stats, reports, remarks, timing ----
run "$P" $FX --passes=FxOptions,FxOptions --stats-json stats.json "$EX" -o discard.pir
expect_status 0 "--stats-json"
line='FxOptions: flag=false count=3 size=1024 label=none mode=fast'
# the cost model in force: h100, no preset being named, every key by name
h100='"cost_model": {"preset": "h100", "exact": false, "peak_tflops.fp8": 1979,'
h100="$h100 "'"peak_tflops.bf16": 819.4, "peak_tflops.tf32": 364.5, "peak_tflops.f32": 67,'
h100="$h100 "'"peak_tflops.f64": 67, "memory_gb_per_s": 3350, "kernel_floor_us": 5.4, "ramp_us.fp8": 0,'
h100="$h100 "'"ramp_us.bf16": 13, "ramp_us.tf32": 104, "ramp_us.f32": 0, "ramp_us.f64": 0,'
h100="$h100 "'"overlap_slowdown": 0.18, "attention_efficiency": 0.64,'
h100="$h100 "'"device_memory_gb": 80, "memory_fraction": 0.75, "devices_per_node": 8,'
h100="$h100 "'"intra.link_gb_per_s": 450, "intra.latency_us": 2, "inter.link_gb_per_s": 47,'
h100="$h100 "'"inter.latency_us": 5, "nvls": 1, "collective.latency_us": 9.43, "one_shot_max_kib": 0,'
h100="$h100 "'"all_gather.latency_us": 9.019, "all_gather.bus_gb_per_s": 576.6,'
h100="$h100 "'"all_gather.copy_gb_per_s": 1189, "all_gather.ramp_us": 4.659,'
h100="$h100 "'"reduce_scatter.latency_us": 15.19, "reduce_scatter.bus_gb_per_s": 900,'
h100="$h100 "'"reduce_scatter.copy_gb_per_s": 550.2, "reduce_scatter.ramp_us": 2.318,'
h100="$h100 "'"all_reduce.latency_us": 9.43, "all_reduce.bus_gb_per_s": 900,'
h100="$h100 "'"all_reduce.copy_gb_per_s": 348, "all_reduce.ramp_us": 6.005,'
h100="$h100 "'"all_to_all.latency_us": 19.68, "all_to_all.bus_gb_per_s": 446.5,'
h100="$h100 "'"all_to_all.copy_gb_per_s": 3350, "all_to_all.ramp_us": 7.05,'
h100="$h100 "'"collective_permute.latency_us": 8.682, "collective_permute.bus_gb_per_s": 347.3,'
h100="$h100 "'"collective_permute.copy_gb_per_s": 0, "collective_permute.ramp_us": 18.5,'
h100="$h100 "'"collective_broadcast.latency_us": 9.43, "collective_broadcast.bus_gb_per_s": 450,'
h100="$h100 "'"collective_broadcast.copy_gb_per_s": 0, "collective_broadcast.ramp_us": 0}'
echo '{"input": "'"$EX"'", "pipeline": ["FxOptions", "FxOptions"], "stats": {"FxOptions": {"big": 36893488147419103242, "runs": 2}}, '"$h100"', "reports": {"FxOptions": ["'"$line"'", "'"$line"'"]}}' >want.json
expect_same_file stats.json want.json "stats JSON: exact shape, a pass listed twice summed, values above 2^64 exact, both runs' report lines"
run "$P" $FX --passes=FxOptions --stats "$EX" -o discard.pir
expect_err "===== passline: statistics =====" "--stats prints a table"
expect_err "18446744073709551621  FxOptions.big   A statistic of 2^64 + 5 per run." "--stats: value, PASS.stat, description aligned"
expect_err "                   1  FxOptions.runs  Number of runs." "--stats: values right-aligned"
tail -n 1 "$T/err" | grep -qx 'cost model: h100 (every key in force: --stats-json)'
ok $? "--stats ends with the cost model in force (h100 when none is named)"
run "$P" $FX --passes=FxOptions --stats -O cost_model.preset=b200 "$EX" -o discard.pir
tail -n 1 "$T/err" | grep -qx 'cost model: b200 (every key in force: --stats-json)'
ok $? "--stats names the preset -O gives"
run "$P" $FX --passes=FxOptions --stats -O cost_model.peak_gflops=400000 "$EX" -o discard.pir
tail -n 1 "$T/err" | grep -qx 'cost model: the exact integer model (its keys: --stats-json)'
ok $? "--stats names the exact integer model the old keys keep"
run "$P" $FX --passes=FxOptions --stats-json - "$EX" -o discard.pir
expect_out '"stats": {"FxOptions": {"big": 18446744073709551621, "runs": 1}}' "--stats-json - writes to standard output"
echo "old" >stats2.json
run "$P" $FX --passes=FxOptions --stats-json stats2.json bad.pir
[ "$(cat stats2.json)" = old ]
ok $? "--stats-json: a bad input leaves the old file untouched"
run "$P" $FX --passes=FxOptions --remarks "$EX" -o discard.pir
expect_err "example.pir:2:3: remark: FxOptions: a remark at the first instruction" "--remarks shows remarks"
run "$P" $FX --passes=FxOptions "$EX" -o discard.pir
expect_no_err "remark" "no remarks without --remarks"
run "$P" $FX --passes=FxOptions --time-passes "$EX" -o discard.pir
expect_err "===== passline: wall time per phase =====" "--time-passes prints a table"
for phase in read verify FxOptions print total; do
	grep -qE "^ *[0-9]+\.[0-9]{4} s  $phase\$" "$T/err"
	ok $? "--time-passes shows $phase"
done
grep -qE "^peak memory: [0-9.]+ MiB \([0-9.]+ bytes per instruction read\)\$" "$T/err"
ok $? "--time-passes shows peak memory per instruction"
run "$P" $FX --passes=FxOptions --print-after-all "$EX" -o discard.pir
expect_err "; *** IR after FxOptions ***" "--print-after-all prints a header"
expect_err "func @layer0(" "--print-after-all prints the IR"

# ---- --list-passes and --print-pipeline ----
run "$P" --plugin-dir "$FIXTURE_DIR" --list-passes
expect_status 3 "--list-passes with broken plugins in the path"
expect_out "$FIXTURE_DIR/FxOptions.so" "--list-passes names each file"
expect_out "  plugin FxOptions 1.0 (MIT): A test fixture." "--list-passes shows name, version, license"
expect_out "    count (int, default 3, 0..100): An integer from 0 to 100." "--list-passes shows options with defaults and help"
expect_out "    mode (enum, default fast, one of fast exact): fast or exact." "--list-passes shows enum choices"
expect_out "    stat big: A statistic of 2^64 + 5 per run." "--list-passes shows stats"
expect_err "FxAbiMajor.so: wrong ABI major version" "--list-passes reports broken plugins"
run "$P" --list-passes extra.pir
expect_status 2 "--list-passes takes no INPUT"
printf '[pipeline]\nname = round\ndescription = a round trip\n\n[pass FxOptions]\nflag = on\nsize = 1048576\nmode = exact\n\n[pass FxOptions]\nenabled = false\nlabel = second\n' >rt.ini
run "$P" $FX -p rt.ini --print-pipeline
expect_status 0 "--print-pipeline"
cp "$T/out" printed1.ini
expect_out "size = 1MiB" "--print-pipeline prints canonical values"
expect_out "flag = true" "--print-pipeline prints canonical booleans"
expect_out "; from the file rt.ini" "--print-pipeline names the file the pipeline came from"
run "$P" $FX -p printed1.ini --print-pipeline
grep -v '^; from ' "$T/out" >printed2.ini
grep -v '^; from ' printed1.ini >printed1-body.ini
expect_same_file printed2.ini printed1-body.ini "--print-pipeline parses back to the same pipeline"
run "$P" $FX -p rt.ini -O FxOptions.count=9 --print-pipeline
expect_out "count = 9" "--print-pipeline includes -O overrides"

# lines near inih's limit: printed so they read back, or refused
long=$(head -c 193 /dev/zero | tr '\0' n)
printf '[pipeline]\nname=%s\n[pass FxOptions]\n' "$long" >long.ini
run "$P" $FX -p long.ini --print-pipeline
expect_status 0 "--print-pipeline with a 198-character line"
expect_out "name=$long" "a line that cannot take spaces is printed without them"
cp "$T/out" long-printed.ini
run "$P" $FX -p long-printed.ini --print-pipeline
sed -i 's/^; from the file long-printed\.ini$/; from the file long.ini/' "$T/out"
expect_same_file "$T/out" long-printed.ini "the long line reads back"
d1=$(head -c 90 /dev/zero | tr '\0' d)
mkdir -p "deep/$d1/$d1"
cp "$FIXTURE_DIR/FxOptions.so" "deep/$d1/$d1/"
printf '[pipeline]\nplugin_dir = %s/%s\n[pass FxOptions]\n' "$d1" "$d1" >deep/deep.ini
run "$P" -p deep/deep.ini --print-pipeline
expect_status 1 "--print-pipeline refuses a line inih could not read back"
expect_err "cannot print the pipeline: 'plugin_dir' would not fit on one line of 198 characters" \
	"--print-pipeline says which key is too long"

done_testing
