# Shared by lttng-ust.sh and gen-tp.sh (sourced after lib.sh): a program's recording by
# spoor compared with LTTng's recording of the same program, names, values and types.

# `provider:event: { payload }` of each event of --format=babeltrace, sorted: the values
# without the tracer's contexts, times and the order of threads
payloads() {
	"$SPOOR" dump --format=babeltrace "$1" |
		LC_ALL=C sed -E 's/^\[[^]]*\] \([^)]*\) [^ ]+ ([A-Za-z_0-9]+:[A-Za-z_0-9]+): .*\}, (\{.*\})$/\1: \2/' |
		LC_ALL=C sort
}
# `event name|member declaration` of each event's payload, from the metadata as babeltrace2
# prints it, sorted; spoor's own spoor:printf and classes spoor did not record left out
types() { # types TRACE [NAMES_FROM]
	local keep=${2:-/dev/null}
	babeltrace2 --output-format=ctf-metadata "$1" |
		awk '/^event \{/ { ev = 1 } ev && /\tname = / { name = $3 }
			ev && /fields := struct/ { f = 1; next } f && /^\t\};/ { f = 0; next }
			f { print name "|" $0 } /^\};/ { ev = 0 }' |
		grep -v '^"spoor:printf";' | sort >"$TMP/types.tmp"
	if [ "$keep" = /dev/null ]; then cat "$TMP/types.tmp"; else
		grep -F -f <(cut -d'|' -f1 "$keep" | sort -u) "$TMP/types.tmp"; fi
}
# the same program's recordings by LTTng and by spoor: names and values, then types
compare() { # compare WHAT LTTNG_TRACE SPOOR_TRACE EVENTS
	payloads "$2" >"$TMP/$1-lttng.txt"
	payloads "$3" >"$TMP/$1-spoor.txt"
	check "$1: $4 events, as LTTng's recording" test "$(wc -l <"$TMP/$1-spoor.txt")" -eq "$4"
	check "$1: every event's name and values as in LTTng's recording" \
		cmp -s "$TMP/$1-spoor.txt" "$TMP/$1-lttng.txt"
	diff "$TMP/$1-spoor.txt" "$TMP/$1-lttng.txt" | head -5
	command -v babeltrace2 >/dev/null || return 0
	local dir
	dir=$(dirname "$(find "$3" -name metadata | head -n 1)")
	# CTF's automatic enum values, which LTTng leaves to the reader, spoor writes out
	types "$dir" | sed -E 's/^([^|]*\|\t\t\t"[^"]*") = [-0-9. ]+,$/\1,/' >"$TMP/$1-spoor-types.txt"
	types "$2" "$TMP/$1-spoor-types.txt" | sed -E 's/^([^|]*\|\t\t\t"[^"]*") = [-0-9. ]+,$/\1,/' \
		>"$TMP/$1-lttng-types.txt"
	check "$1: every field's type as in LTTng's metadata" \
		cmp -s "$TMP/$1-spoor-types.txt" "$TMP/$1-lttng-types.txt"
	diff "$TMP/$1-spoor-types.txt" "$TMP/$1-lttng-types.txt" | head -5
	babeltrace2 "$3" >"$TMP/bt2.txt" 2>/dev/null
	"$SPOOR" dump --format=babeltrace "$3" >"$TMP/sp.txt"
	check "$1: babeltrace2 reads the recording as spoor does" \
		python3 "$(dirname "$0")/bt2-compare.py" "$TMP/sp.txt" "$TMP/bt2.txt"
}
