#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# run-sanitizers.sh: the whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer,
# then each libFuzzer target for a bounded time. Needs clang with its runtimes
# (Debian: apt-get install -y clang libclang-rt-14-dev). Called by CI; works from a clean
# clone and can be re-run (the two build directories are wiped and configured again).
#
#   tests/run-sanitizers.sh                  # 60 s per fuzzer
#   FUZZ_SECONDS=600 tests/run-sanitizers.sh # longer fuzzing
#   SKIP_TESTS=1 / SKIP_FUZZ=1               # only one of the two stages
#
# Build directories (in the source tree): build-asan (-Db_sanitize=address,undefined) and
# build-fuzz (-Dfuzz=true). Fuzzing works on copies of tests/fuzz/corpus/* in
# build-fuzz/fuzz-run/, where crash inputs and logs are left. Exit status 0 only if every
# test passed and no fuzzer found anything (crash, leak, timeout, out of memory).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
SRC=$(pwd)
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
FUZZ_TIMEOUT=${FUZZ_TIMEOUT:-25}   # seconds for one input before libFuzzer calls it a hang
SKIP_TESTS=${SKIP_TESTS:-0}
SKIP_FUZZ=${SKIP_FUZZ:-0}
ASAN_DIR=build-asan
FUZZ_DIR=build-fuzz
FUZZERS=(metadata packets events elf analyses daemon timeline-cache gentp)

die() {
	echo "run-sanitizers: $*" >&2
	exit 2
}
section() {
	printf '\n==== %s ====\n' "$*"
}

[[ $FUZZ_SECONDS =~ ^[0-9]+$ ]] && [ "$FUZZ_SECONDS" -gt 0 ] ||
	die "FUZZ_SECONDS must be a positive number of seconds (got '$FUZZ_SECONDS')"
command -v meson >/dev/null || die "meson not found"
command -v clang >/dev/null ||
	die "clang not found (Debian: apt-get install -y clang libclang-rt-14-dev)"
echo 'int main(void){return 0;}' >"${TMPDIR:-/tmp}/spoor-sancheck.$$.c"
if ! clang -fsanitize=address,undefined "${TMPDIR:-/tmp}/spoor-sancheck.$$.c" \
	-o "${TMPDIR:-/tmp}/spoor-sancheck.$$" 2>/dev/null; then
	rm -f "${TMPDIR:-/tmp}/spoor-sancheck.$$"*
	die "clang cannot link sanitizer runtimes (Debian: apt-get install -y libclang-rt-14-dev)"
fi
rm -f "${TMPDIR:-/tmp}/spoor-sancheck.$$"*

# Configure a build directory from scratch (wiping an earlier configuration). C++ (the test
# programs in C++) with clang++ too: one sanitizer runtime for the program and the libraries.
setup() {
	local dir=$1
	shift
	if [ -d "$dir/meson-private" ]; then
		CC=clang CXX=clang++ meson setup --wipe "$dir" "$@"
	else
		CC=clang CXX=clang++ meson setup "$dir" "$@"
	fi
}

tests_status="skipped"
tests_detail=""
declare -A fuzz_status fuzz_detail fuzz_artifact

# ---- 1. the test suite under ASan + UBSan ----
if [ "$SKIP_TESTS" != 1 ]; then
	section "test suite with -Db_sanitize=address,undefined ($ASAN_DIR)"
	export ASAN_OPTIONS=detect_leaks=1
	export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
	# without the Python module: built with ASan it loads only into a Python started with
	# libasan preloaded (the main pass runs its tests under python3 -X dev)
	setup "$ASAN_DIR" -Db_sanitize=address,undefined -Db_lundef=false -Dpython=disabled
	meson compile -C "$ASAN_DIR"
	log=$ASAN_DIR/run-sanitizers-test.log
	if meson test -C "$ASAN_DIR" --print-errorlogs 2>&1 | tee "$log"; then
		tests_status="PASS"
	else
		tests_status="FAIL"
	fi
	# meson's closing summary: "Ok: N", "Fail: N", ...
	tests_detail=$(grep -E '^(Ok|Expected Fail|Fail|Unexpected Pass|Skipped|Timeout): ' "$log" |
		awk -F: '{gsub(/ /, "", $2)} $1 == "Ok" || $2 != 0 {printf "%s%s %s", sep, $2, $1; sep=", "}') || true
	unset ASAN_OPTIONS UBSAN_OPTIONS
fi

# ---- 1b. the tracer's multi-thread tests under ThreadSanitizer ----
tsan_status="skipped"
if [ "$SKIP_TESTS" != 1 ]; then
	section "user-space tracer tests with -Db_sanitize=thread (build-tsan)"
	# die_after_fork=0: a forked child of a traced program starts its own listener thread
	# (lib/ust/daemons.c), which TSan refuses by default after a multi-threaded fork
	export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:die_after_fork=0
	setup build-tsan -Db_sanitize=thread -Db_lundef=false
	meson compile -C build-tsan
	if meson test -C build-tsan --suite ust --print-errorlogs; then
		tsan_status="PASS"
	else
		tsan_status="FAIL"
	fi
	unset TSAN_OPTIONS
fi

# ---- 2. the fuzzers ----
stat_of() { # stat_of LOG NAME: a libFuzzer final stat (-print_final_stats=1)
	sed -n "s/^stat::$2: *//p" "$1" | tail -n 1
}
if [ "$SKIP_FUZZ" != 1 ]; then
	section "fuzzers, $FUZZ_SECONDS s each ($FUZZ_DIR)"
	setup "$FUZZ_DIR" -Dfuzz=true
	meson compile -C "$FUZZ_DIR"
	run=$FUZZ_DIR/fuzz-run
	rm -rf "$run"
	mkdir -p "$run"
	for name in "${FUZZERS[@]}"; do
		exe=$FUZZ_DIR/tests/fuzz/fuzz-$name
		corpus=$run/corpus-$name
		art=$run/artifacts-$name
		log=$run/fuzz-$name.log
		mkdir -p "$corpus" "$art"
		cp -R tests/fuzz/corpus/"$name"/. "$corpus"/
		seeds=$(find "$corpus" -type f | wc -l)
		extra=()
		[ -f tests/fuzz/tsdl.dict ] && [ "$name" = metadata ] && extra+=(-dict=tests/fuzz/tsdl.dict)
		[ "$name" = gentp ] && extra+=(-dict=tests/fuzz/gentp.dict)
		# the daemon logs what each input does: its stderr closed (libFuzzer's reports stay)
		[ "$name" = daemon ] && extra+=(-close_fd_mask=2)
		section "fuzz-$name: $seeds seeds, $FUZZ_SECONDS s"
		set +e
		ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
			timeout -k 10 $((FUZZ_SECONDS + 300)) "$exe" \
			-max_total_time="$FUZZ_SECONDS" -timeout="$FUZZ_TIMEOUT" -rss_limit_mb=2048 \
			-print_final_stats=1 -artifact_prefix="$art/" "${extra[@]}" "$corpus" >"$log" 2>&1
		rc=$?
		set -e
		# progress lines look like "#1234 NEW cov: 746 ft: 2547 corp: 268/1988Kb ..."
		last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
		cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
		ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
		corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
		fuzz_detail[$name]="$(stat_of "$log" number_of_executed_units) runs, $(stat_of "$log" average_exec_per_sec) exec/s, cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?} (from $seeds seeds), peak rss $(stat_of "$log" peak_rss_mb) MB"
		artifact=$(find "$art" -type f | head -n 1)
		if [ "$rc" -eq 0 ] && [ -z "$artifact" ]; then
			fuzz_status[$name]="OK"
			grep -E '^#[0-9]+[[:space:]]+DONE|^Done ' "$log" | tail -n 2 || true
		else
			if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
				fuzz_status[$name]="FAIL (killed: no end after $((FUZZ_SECONDS + 300)) s)"
			else
				kind=$(basename "${artifact:-none}" | cut -d- -f1)
				fuzz_status[$name]="FAIL (${kind:-exit $rc}, exit status $rc)"
			fi
			fuzz_artifact[$name]=$artifact
			# the report: sanitizer/libFuzzer error line and the top of the stack
			grep -m 1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error:|^fuzz-[a-z]+: ' "$log" || true
			grep -m 12 -E '^ +#[0-9]+ 0x' "$log" || true
			grep -m 1 '^SUMMARY' "$log" || true
		fi
	done
fi

# ---- summary ----
section "summary"
failed=0
if [ "$SKIP_TESTS" != 1 ]; then
	printf '%-16s %s%s\n' "sanitized tests" "$tests_status" "${tests_detail:+ ($tests_detail)}"
	[ "$tests_status" = PASS ] || failed=1
	[ "$tests_status" = PASS ] || echo "                 logs: $ASAN_DIR/meson-logs/testlog.txt"
	printf '%-16s %s\n' "tsan tests" "$tsan_status"
	[ "$tsan_status" = PASS ] || failed=1
fi
if [ "$SKIP_FUZZ" != 1 ]; then
	for name in "${FUZZERS[@]}"; do
		printf '%-16s %s: %s\n' "fuzz-$name" "${fuzz_status[$name]}" "${fuzz_detail[$name]}"
		if [ "${fuzz_status[$name]}" != OK ]; then
			failed=1
			echo "                 log: $FUZZ_DIR/fuzz-run/fuzz-$name.log"
			if [ -n "${fuzz_artifact[$name]:-}" ]; then
				echo "                 input: ${fuzz_artifact[$name]}"
				echo "                 reproduce: UBSAN_OPTIONS=print_stacktrace=1 $FUZZ_DIR/tests/fuzz/fuzz-$name ${fuzz_artifact[$name]}"
			fi
		fi
	done
fi
if [ "$failed" = 0 ]; then
	echo "all clean"
else
	echo "FAILED (see above)"
fi
exit "$failed"
