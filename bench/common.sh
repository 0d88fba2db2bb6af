# common.sh: what every benchmark script starts with (sourced, not run): strict mode,
# messages in the script's name, and where the repository and docs/PERFORMANCE.md are.
set -eu -o pipefail
prog=$(basename "$0")
die() {
	echo "$prog: error: $*" >&2
	exit 1
}
note() { echo "$prog: $*" >&2; }
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
doc=$top/docs/PERFORMANCE.md

# The end of a script's EXIT trap: removes the folder $work, or keeps it when $2 is set,
# notes a failure, and exits with the status $1.
end_work() { # end_work RC KEEP
	if [ -n "$2" ]; then
		note "work directory kept: $work"
	else
		rm -rf "$work"
	fi
	[ "$1" -eq 0 ] || note "FAILED (exit $1)"
	exit "$1"
}

# Prints the script's opening comment, its usage, and exits: for -h and --help.
usage() {
	awk 'NR > 2 && !/^#/ { exit } NR > 2 { sub(/^# ?/, ""); print }' "$0"
	exit 0
}

# The options of a benchmark on one trace, [TRACE] [--update-doc] [--runs=N]: sets trace
# (empty when not given), update_doc (1 or empty) and runs (default $BENCH_RUNS, else 5).
trace_options() {
	local arg
	trace= update_doc= runs=${BENCH_RUNS:-5}
	for arg; do
		case $arg in
		--update-doc) update_doc=1 ;;
		--runs=*) runs=${arg#*=} ;;
		-h | --help) usage ;;
		-*) die "unknown option '$arg'" ;;
		*) trace=$arg ;;
		esac
	done
	case $runs in '' | *[!0-9]* | 0) die "--runs takes a number >= 1" ;; esac
}

# Dies unless $doc has the lines <!-- $section:begin --> and <!-- $section:end -->: for a
# script to check before its runs that --update-doc will find its section.
# $trace, made when missing from ../shared's many-threads: COPIES time-shifted copies
# (replicate-trace.sh)
replicated_trace() { # replicated_trace COPIES
	[ ! -d "$trace" ] || return 0
	note "making $trace ..."
	"$here/replicate-trace.sh" "$top/../shared/traces/lttng/many-threads" "$trace" "$1" >&2
}

need_section() {
	[ -f "$doc" ] || die "no $doc"
	grep -qxF "<!-- $section:begin -->" "$doc" && grep -qxF "<!-- $section:end -->" "$doc" ||
		die "$doc lacks the <!-- $section:begin --> / <!-- $section:end --> lines"
}

# Replace the lines between <!-- $section:begin --> and <!-- $section:end --> of $doc with
# the file $1. Given a heading $2, a $doc without those lines gets them at its end, the
# file between them, under that heading (added too unless $doc has it already).
update_section() {
	local tmp b="<!-- $section:begin -->" e="<!-- $section:end -->"
	tmp=$(mktemp "$doc.XXXXXX")
	if [ -n "${2:-}" ] && ! { grep -qxF "$b" "$doc" && grep -qxF "$e" "$doc"; }; then
		{
			cat "$doc"
			grep -qxF "$2" "$doc" || printf '\n%s\n' "$2"
			echo
			echo "$b"
			cat "$1"
			echo "$e"
		} >"$tmp"
	else
		awk -v b="$b" -v e="$e" -v f="$1" '
			$0 == b { print; while ((getline l < f) > 0) print l; skip = 1; next }
			$0 == e { skip = 0 }
			!skip { print }' "$doc" >"$tmp"
	fi
	chmod --reference="$doc" "$tmp"
	mv "$tmp" "$doc"
	note "updated section '$section' of $doc"
}

# snapshot_build BUILD WORK: the recorder and libspoor-ust of BUILD, copied into WORK/bin and
# WORK/lib, so that a rebuild meanwhile changes nothing under a run; sets spoor and libreal.
snapshot_build() {
	[ -x "$1/spoor" ] || die "no $1/spoor (ninja -C $1)"
	[ -e "$1/libspoor-ust.so" ] || die "no $1/libspoor-ust.so (ninja -C $1)"
	mkdir -p "$2/lib" "$2/bin"
	libreal=$(readlink -f "$1/libspoor-ust.so")
	cp "$libreal" "$2/lib/libspoor-ust.so.0"
	ln -sf libspoor-ust.so.0 "$2/lib/libspoor-ust.so"
	cp "$1/spoor" "$2/bin/spoor"
	spoor=$2/bin/spoor
}
