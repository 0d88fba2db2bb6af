# spoor view in the background for the view tests (sourced after lib.sh), and their traces.
# view TRACE: spoor view in the background until api/meta answers (the cache built); $PID, $URL
view() {
	rm -f "$TMP/out"
	"$SPOOR" view "$1" >"$TMP/out" 2>"$TMP/err" &
	PID=$!
	URL=
	for _ in $(seq 600); do
		[ -z "$URL" ] && [ -s "$TMP/out" ] && URL=$(head -n 1 "$TMP/out")
		[ -n "$URL" ] && python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1] + "api/meta")' \
			"$URL" 2>/dev/null && return 0
		kill -0 $PID 2>/dev/null || break
		sleep 0.1
	done
	echo "spoor view $1 did not answer:"
	cat "$TMP/err"
	return 1
}
stop() { # the server started by view
	kill -TERM $PID
	wait $PID
}
gen_calls() { # gen-calls.py's traces of $CALLS_TREE and $DL_PROVIDER in $TMP/t
	cp "$CALLS_TREE" "$TMP/calls-tree"
	strip -s "$TMP/calls-tree" -o "$TMP/calls-tree-stripped"
	python3 "$SPOOR_TEST_DATA/gen-calls.py" --prog "$TMP/calls-tree" \
		--stripped "$TMP/calls-tree-stripped" --lib "$DL_PROVIDER" "$TMP/t" ||
		fail "gen-calls.py"
}
