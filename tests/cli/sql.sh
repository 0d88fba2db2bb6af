#!/usr/bin/env bash
# spoor sql, the command (docs/sql.md, "The command", "Safety"): each format's exact output,
# read back by Python's csv and json modules; errors with SQLite's message and a caret, exit
# 1; what the guard refuses (and that no file appears); TEMP tables; --file and standard
# input; the prompt driven through a pty (.tables, .schema, a query, the history); bad
# options. The tables that read the traces are tested by their own tests.
. "$(dirname "$0")/lib.sh"
T=$SPOOR_TEST_DATA/traces/ust-types
cd "$TMP" || exit 1

sql() { "$SPOOR" sql "$T" "$@"; }

# a query of every kind of value: integer, real, text with a comma, a quote, a line break
# and a non-ASCII letter, the empty string, NULL, a blob
Q="SELECT 1 AS n, 2.5 AS r, 'a,\"b' AS s, '' AS e, NULL AS z, x'00ff' AS b
   UNION ALL SELECT -20, 0.1, 'l1
l2 é', 'x', 7, NULL"

sql -c "$Q" >table.out 2>table.err
check "table: exit 0" test $? -eq 0
printf '%s\n' \
	'  n    r  s         e     z  b' \
	'  1  2.5  a,"b         NULL  X'"'"'00FF'"'" \
	'-20  0.1  l1\nl2 é  x     7  NULL' >table.want
check "table: aligned columns (numbers right, text left, NULL, escapes)" cmp -s table.out table.want
check "table: nothing on stderr" test ! -s table.err

sql --format=csv -c "$Q" >csv.out
check "csv: exit 0" test $? -eq 0
python3 - csv.out <<'EOF' >csv.check 2>&1
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
want = [["n", "r", "s", "e", "z", "b"], ["1", "2.5", 'a,"b', "", "", "X'00FF'"],
        ["-20", "0.1", "l1\nl2 é", "x", "7", ""]]
assert rows == want, rows
# RFC 4180 quoting, the empty string quoted (NULL is an empty field)
raw = open(sys.argv[1]).read()
assert raw.splitlines()[1] == '1,2.5,"a,""b","",,X\'00FF\'', raw
EOF
check "csv: read back by Python's csv module (quotes, commas, line breaks)" test ! -s csv.check
[ -s csv.check ] && cat csv.check

sql -f json -c "$Q" >json.out
check "json: exit 0" test $? -eq 0
python3 - json.out <<'EOF' >json.check 2>&1
import json, sys
rows = json.load(open(sys.argv[1]))
want = [{"n": 1, "r": 2.5, "s": 'a,"b', "e": "", "z": None, "b": "X'00FF'"},
        {"n": -20, "r": 0.1, "s": "l1\nl2 é", "e": "x", "z": 7, "b": None}]
assert rows == want, rows
assert isinstance(rows[0]["r"], float) and isinstance(rows[0]["n"], int)
EOF
check "json: an array of objects, typed (Python's json module)" test ! -s json.check
[ -s json.check ] && cat json.check

# a REAL keeps its exact value and reads as a REAL
sql -f json -c "SELECT 1.0 AS one, 0.1 + 0.2 AS sum, 1e300 * 10 AS big, 1 AS a, 2 AS a" >real.out
check "json: reals exact and typed; a repeated column name made unique" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))[0]
assert r == {"one": 1.0, "sum": 0.1 + 0.2, "big": 1e301, "a": 1, "a:2": 2}, r
assert isinstance(r["one"], float)' real.out

# several statements, in order; result sets set apart; one without rows; none without columns
sql -c "CREATE TEMP TABLE t(a); INSERT INTO t VALUES (1), (2); SELECT a FROM t; SELECT a FROM t WHERE a > 5; SELECT count(*) AS c FROM t" >multi.out
printf 'a\n1\n2\n\na\n\nc\n2\n' >multi.want
check "several statements run in order (TEMP table made, filled, read)" cmp -s multi.out multi.want
sql -f json -c "SELECT 1 AS a; SELECT 2 AS a WHERE 0" >multi.json
check "json: a document per statement with columns; [] for no rows" \
	test "$(tr -d '\n' <multi.json)" = '[{"a": 1}][]'
sql -f csv -c "SELECT 1 AS a; SELECT 'x' AS b" >multi.csv
check "csv: a header per result set, an empty line between" test "$(cat multi.csv)" = "$(printf 'a\n1\n\nb\nx')"

# errors: SQLite's message, where (SOURCE:LINE), the line with a caret under the part named
sql -c "SELECT 1 AS ok;
SELECT nope FROM sqlite_master; SELECT 3" >err.out 2>err.err
check "an error exits 1" test $? -eq 1
printf '%s\n' 'spoor sql: query:2: no such column: nope' '  SELECT nope FROM sqlite_master; SELECT 3' '         ^' >err.want
check "the error: message, line, caret under the column" cmp -s err.err err.want
check "the statements before the error ran, those after did not" test "$(cat err.out)" = "$(printf 'ok\n 1')"
sql -c "SELECT 1 FRM sqlite_master" 2>syntax.err
check "a syntax error exits 1" test $? -eq 1
check "the syntax error's caret is under the word SQLite names" \
	test "$(sed -n 3p syntax.err)" = "               ^"
grep -q 'near "sqlite_master": syntax error' syntax.err
check "the syntax error is SQLite's" test $? -eq 0

# --file and standard input: several statements, errors named by file and line
printf -- '-- a comment\nCREATE TEMP TABLE t AS\n  SELECT 1 AS a;\nSELECT a + 1 AS b FROM t;\n\nSELECT a FROM missing;\n' >q.sql
sql --file q.sql >file.out 2>file.err
check "--file: exit 1 at the error" test $? -eq 1
check "--file: the statements before it ran" test "$(cat file.out)" = "$(printf 'b\n2')"
check "--file: the error names the file and line" grep -q '^spoor sql: q.sql:6: no such table: missing' file.err
printf 'SELECT 40 + 2 AS x;\nSELECT 1 AS y;\n' | sql -f csv >stdin.out
check "no query, standard input not a terminal: its statements" test "$(cat stdin.out)" = "$(printf 'x\n42\n\ny\n1')"
printf 'CREATE TEMP TABLE kept(a TEXT, "b c" INTEGER);\n.tables\n.schema kept\n.format json\nSELECT 1 AS n;\n.nope\nSELECT 2 AS m' |
	sql >dot.out 2>dot.err
check "standard input: the last statement needs no ';'" test $? -eq 0
check "standard input: .tables lists a TEMP table" grep -q '^kept$' dot.out
check "standard input: .schema TABLE, names quoted where SQL needs it" \
	test "$(sed -n '/^CREATE TABLE kept/,/^);/p' dot.out)" = "$(printf 'CREATE TABLE kept (\n  a TEXT,\n  "b c" INTEGER\n);')"
check "standard input: .format json" test "$(tail -n 6 dot.out | tr -d '\n')" = '[{"n": 1}][{"m": 2}]'
check "standard input: an unknown command is said" grep -q 'unknown command .nope' dot.err
printf 'SELECT 1 AS a;\n\n-- a comment\nSELECT b\n  FROM missing;\nSELECT 3;\n' | sql >stdin-err.out 2>stdin-err.err
check "standard input: the first error exits 1" test $? -eq 1
check "standard input: the error's line counts from the input's first" \
	grep -q '^spoor sql: stdin:4: no such table: missing' stdin-err.err
check "standard input: the statements after the error do not run" test "$(cat stdin-err.out)" = "$(printf 'a\n1')"
sql --file missing.sql 2>nofile.err
check "--file of a missing file exits 1" test $? -eq 1

# Safety (docs/sql.md): each refusal exits 1 with the guard's reason; no file appears
refused() { # refused DESCRIPTION PATTERN QUERY
	sql -c "$3" >refused.out 2>refused.err
	local rc=$?
	check "$1: refused, exit 1" test $rc -eq 1
	check "$1: says why" grep -q -- "$2" refused.err
}
refused "ATTACH" "ATTACH and DETACH are refused" "ATTACH '$TMP/attached.db' AS x"
check "ATTACH made no file" test ! -e attached.db
refused "ATTACH of a URI" "ATTACH and DETACH are refused" "ATTACH 'file:$TMP/uri.db?mode=rwc' AS x"
check "ATTACH of a URI made no file" test ! -e uri.db
refused "VACUUM INTO" "ATTACH and DETACH are refused" "VACUUM INTO '$TMP/vacuum.db'"
check "VACUUM INTO made no file" test ! -e vacuum.db
refused "DETACH" "ATTACH and DETACH are refused" "DETACH temp"
refused "load_extension()" "load_extension" "SELECT load_extension('$TMP/x.so')"
refused "fts3_tokenizer()" "fts3_tokenizer" "SELECT fts3_tokenizer('simple')"
refused "PRAGMA temp_store_directory" "PRAGMA temp_store_directory with a value is refused" \
	"PRAGMA temp_store_directory = '$TMP'"
refused "PRAGMA journal_mode=" "PRAGMA journal_mode with a value" "PRAGMA journal_mode = WAL"
refused "PRAGMA writable_schema=" "PRAGMA writable_schema with a value" "PRAGMA writable_schema = 1"
refused "PRAGMA user_version=" "PRAGMA user_version with a value" "PRAGMA user_version = 3"
refused "PRAGMA optimize" "PRAGMA optimize is refused" "PRAGMA optimize"
refused "a table in main" "only TEMP tables" "CREATE TABLE m(a)"
refused "a virtual table" "none is made or dropped" "CREATE VIRTUAL TABLE temp.f USING fts5(x)"
refused "writing SQLite's schema" "may not be modified" "UPDATE sqlite_temp_master SET name = 'x'"
refused "a value of a gigabyte" "string or blob too big" "SELECT zeroblob(1000000000)"
refused "ANALYZE of main" "ANALYZE temp" "ANALYZE"
check "no file appeared in the folder" test -z "$(ls -A "$TMP" | grep -v -E '\.(out|err|want|check|json|csv|sql)$')"

# what is allowed: reading PRAGMAs, TEMP tables, views, indexes, triggers; SQLite's
# table-valued functions
sql -f csv -c "PRAGMA user_version; SELECT count(*) AS n FROM pragma_table_list WHERE name = 'sqlite_schema'" >pragma.out
check "reading PRAGMAs (PRAGMA user_version, pragma_table_list) are allowed" \
	test "$(cat pragma.out)" = "$(printf 'user_version\n0\n\nn\n1')"
sql -f csv -c "CREATE TEMP TABLE t(a INTEGER); CREATE INDEX temp.ta ON t(a);
CREATE TEMP TABLE log(x); CREATE TEMP TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.a * 2); END;
INSERT INTO t VALUES (5), (6); UPDATE t SET a = a + 1 WHERE a = 6; DELETE FROM t WHERE a = 5;
CREATE TEMP VIEW v AS SELECT (SELECT sum(a) FROM t) AS t, (SELECT sum(x) FROM log) AS log;
SELECT * FROM v; SELECT value FROM json_each('[3,4]'); DROP VIEW v; DROP TABLE t" >temp.out
check "TEMP tables, indexes, triggers and views; json_each" \
	test "$(cat temp.out)" = "$(printf 't,log\n7,22\n\nvalue\n3\n4')"

# the trace tables, made before the guard, are still there after it (setting temp_store
# once dropped them: it empties the temp schema) and read through a TEMP view
python3 "$SPOOR_TEST_DATA/gen-damaged.py" "$TMP/d" >/dev/null || exit 1
"$SPOOR" sql "$TMP/d/clean" -f csv -c "SELECT count(*) AS n FROM pragma_table_list WHERE schema = 'temp' AND name = 'syscalls';
CREATE TEMP VIEW v AS SELECT count(*) > 0 AS some FROM syscalls; SELECT * FROM v" >tables.out 2>tables.err
check "the trace tables survive the guard, and TEMP views read them" \
	test "$(cat tables.out)" = "$(printf 'n\n1\n\nsome\n1')"

# damage: the reader's warnings, the rows before it, the exit status of docs/cli.md
"$SPOOR" sql "$TMP/d/after-end" -f csv -c "SELECT count(*) AS n FROM syscalls" >damage.out 2>damage.err
check "a damaged trace: exit 1" test $? -eq 1
check "a damaged trace: the reader's warning" grep -q '^spoor sql: warning: .*channel0_0: offset [0-9]*: ' damage.err
check "a damaged trace: said last" grep -q 'the trace is damaged: 1 stream(s) stopped early.*the results cover the events before the damage' damage.err
check "a damaged trace: the results are printed" grep -q '^[1-9][0-9]*$' damage.out

# the prompt, through a pty: .tables, a query over two lines, .schema, the history kept
# (readable by its owner only) and brought back by Up in the next session
python3 - "$SPOOR" "$T" "$TMP/state" >prompt.check 2>&1 <<'EOF'
import os, pty, select, sys, termios, time
spoor, trace, state = sys.argv[1:4]

def session(keys, want):
    """Type each key string once the output, past what the previous one waited for, holds
    what that one asks for (the next prompt, where libedit reads and echoes the keys)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.update(XDG_STATE_HOME=state, TERM="dumb")
        os.execv(spoor, [spoor, "sql", trace])
    out, pos = b"", 0
    def wait_for(text):
        nonlocal out, pos
        end = time.time() + 10
        while time.time() < end:
            at = out.replace(b"\r\n", b"\n").find(text.encode(), pos)
            if at >= 0:
                pos = at + len(text)
                # a prompt: libedit prints it before it reads keys raw; a key sent in
                # between is read by the line discipline (a Ctrl-D there is lost)
                while text.endswith("> ") and termios.tcgetattr(fd)[3] & termios.ICANON:
                    if time.time() > end:
                        break
                    time.sleep(0.001)
                return
            if select.select([fd], [], [], 0.1)[0]:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    return
                if not data:
                    return
                out += data
        os.kill(pid, 9)
        raise AssertionError("no %r after %r" % (text, out.decode(errors="replace")))
    wait_for("spoor> ")
    for k, w in zip(keys, want):
        os.write(fd, k.encode())
        for text in w.split("|"):  # "a|b": a, then b after it
            wait_for(text)
    wait_for("\0")  # to the end
    _, status = os.waitpid(pid, 0)
    return out.decode(errors="replace").replace("\r\n", "\n"), status

out, status = session(
    ["CREATE TEMP TABLE answers(v);\n", ".tables\n", "SELECT 6 *\n", "7 AS answer;\n",
     ".schema answers\n", ".format csv\n", "SELECT 'a,b' AS s;\n", "SELECT nope;\n",
     "SELECT 'dropped'\n", "\x03",
     "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c;\n",
     "\x03",
     "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c CROSS JOIN thread_states t WHERE t.ts < 0;\n",
     "\x03", "SELECT 'after' AS a;\n", "\x04"],
    ["spoor> ", "answers\n|spoor> ", "...> ", "42\nspoor> ", ");\nspoor> ", "spoor> ",
     '"a,b"\nspoor> ', "spoor> ", "...> ", "spoor> ", "count(*)\n", "spoor> ",
     "count(*)\n", "spoor> ", "after\nspoor> ", "\0"])
assert status == 0, (status, out)
assert "\nanswers\n" in out, out                             # .tables
assert "answer\n    42\n" in out, out                        # the query, as a table
assert "CREATE TABLE answers (\n  v\n);\n" in out, out       # .schema
assert 's\n"a,b"\n' in out, out                              # .format csv
assert "no such column: nope" in out, out                    # an error: the prompt goes on
assert "dropped" not in out.replace("SELECT 'dropped'", ""), out  # Ctrl-C: the line dropped
assert out.count("prompt:1: interrupted\n") == 2, out       # Ctrl-C: the query stopped,
                                                             # one on an analysis table too
assert "a\nafter\n" in out, out                             # and the prompt goes on
hist = os.path.join(state, "spoor", "sql_history")
assert os.stat(hist).st_mode & 0o777 == 0o600, oct(os.stat(hist).st_mode)
assert "SELECT\\0406\\040*\\0407\\040AS\\040answer;" in open(hist).read() or \
       "SELECT 6 * 7 AS answer;" in open(hist).read(), open(hist).read()
# Up five times: the query before the failing one (not the dropped line), in the new
# session's format
out, status = session(["\x1b[A\x1b[A\x1b[A\x1b[A\x1b[A\n", ".quit\n"], ["'a,b'|s\na,b\n", "\0"])
assert status == 0, (status, out)
assert "s\na,b\n" in out, out
EOF
check "the prompt: .tables, .schema, .format, a query over two lines, errors, history" test ! -s prompt.check
[ -s prompt.check ] && cat prompt.check

# ANALYZE temp: the statistics of the user's TEMP tables, in temp; CREATE TABLE temp.x too
sql -f csv -c "CREATE TEMP TABLE a AS SELECT name, ts FROM events; CREATE INDEX temp.ai ON a(name);
ANALYZE temp; SELECT tbl, idx FROM temp.sqlite_stat1; CREATE TABLE temp.b(x); DROP TABLE temp.b" >analyze.out
check "ANALYZE temp: allowed, its statistics in temp.sqlite_stat1" \
	test "$(cat analyze.out)" = "$(printf 'tbl,idx\na,ai')"

# --max-memory: SQLite's heap is bounded; a runaway TEMP table ends with "out of memory", exit 1
sql --max-memory=32m -c "CREATE TEMP TABLE big AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL
SELECT x + 1 FROM c) SELECT randomblob(100000) AS b FROM c" >mem.out 2>mem.err
check "--max-memory: a runaway TEMP table stops, exit 1" test $? -eq 1
check "--max-memory: SQLite's out of memory said" grep -q '^spoor sql: query:1: out of memory' mem.err
check "--max-memory: a query within it runs" test "$(sql --max-memory=32m -f csv -c "SELECT count(*) AS n FROM events")" = "$(printf 'n\n3600')"

# Losses: one warning per stream that lost events, as dump's (its numbers and times), after
# every query, however many read the stream; not damage: exit 0
D=$SPOOR_TEST_DATA/traces/ust-discard
"$SPOOR" sql "$D" -c "SELECT count(*) FROM events; SELECT count(*) FROM events WHERE ts > 0;
SELECT count(*) FROM events WHERE ts < 0" >loss.out 2>loss.err
check "losses: exit 0" test $? -eq 0
"$SPOOR" dump "$D" 2>&1 >/dev/null | sed 's/^spoor dump:/spoor sql:/; s/;.*//' >loss.want
sed 's/;.*//' loss.err >loss.got
check "losses: a warning per stream, dump's numbers and times" cmp -s loss.got loss.want
check "losses: two streams lost events" test "$(wc -l <loss.want)" -eq 2
check "losses: the results still printed" test "$(head -2 loss.out | tail -1 | tr -d ' ')" = 3421

# bad command lines: usage errors, exit 2
bad() { # bad DESCRIPTION ARGS...
	local what=$1
	shift
	"$SPOOR" sql "$@" >/dev/null 2>bad.err
	local rc=$?
	check "$what: exit 2" test $rc -eq 2
	check "$what: said" grep -q '^spoor sql: ' bad.err
}
bad "no trace" -c "SELECT 1"
bad "an unknown format" "$T" --format=xml -c "SELECT 1"
bad "an unknown option" "$T" --bogus
bad "-c without its query" "$T" -c
bad "-c and --file" "$T" -c "SELECT 1" --file q.sql
bad "a --max-memory that is no size" "$T" --max-memory=lots -c "SELECT 1"
"$SPOOR" sql "$TMP/no-such-trace" -c "SELECT 1" 2>notrace.err
check "a trace that is not there: exit 1" test $? -eq 1
"$SPOOR" sql --help | grep -q -- '--format'
check "--help lists the options" test $? -eq 0
finish
