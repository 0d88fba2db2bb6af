#!/bin/bash
#
# replicate-trace.sh SRC OUT [COPIES]
#
# A bigger LTTng kernel trace for bench/analyses.sh, made from a real one: COPIES (16)
# copies of the trace SRC, one after the other in time. Copy k is SRC's stream files,
# (copied, not linked, so the benchmark reads as much memory as a real trace that size),
# with a plain-text metadata whose clock offset is SRC's plus k seconds (SRC must span less
# than 1 s), and a trace UUID of its own (in the metadata and in every packet header, right
# after the CTF magic number: babeltrace2 merges traces that share a UUID into one). Nothing
# else in the packets changes, so each copy decodes exactly as SRC does; the copies are separate traces (OUT/cNN/kernel) that a reader merges into one
# timeline, as babeltrace (1 and 2), lttng-analyses and spoor do for a folder of traces.
#
# The softirq events are renamed irq_softirq_* -> softirq_* in the copies' metadata:
# lttng-analyses 0.6.1 only knows the latter names, and without the rename it would skip the
# softirq work spoor does (spoor reads both names). The join between copies is real in one
# way only: the gap of up to 1 s between them shows in periods that span it.
set -eu -o pipefail
die() {
	echo "replicate-trace.sh: error: $*" >&2
	exit 1
}
[ $# -ge 2 ] || die "usage: replicate-trace.sh SRC OUT [COPIES]"
src=$1 out=$2 copies=${3:-16}
case $copies in '' | *[!0-9]*) die "COPIES must be a number" ;; esac
command -v babeltrace2 >/dev/null || die "'babeltrace2' not found (apt-get install -y babeltrace2)"
[ -f "$src/metadata" ] || die "no CTF trace in '$src'"
[ ! -e "$out" ] || die "'$out' exists"

meta=$(babeltrace2 --output-format=ctf-metadata "$src")
offset=$(sed -n 's/^[[:space:]]*offset = \([0-9]*\);.*/\1/p' <<<"$meta")
[ "$(wc -l <<<"$offset")" -eq 1 ] && [ -n "$offset" ] || die "expected one clock offset in the metadata"
# the trace block's uuid (the clock has one too, kept)
uuid=$(awk '/^trace[[:space:]]*{/ { t = 1 } t && /uuid = "/ { split($0, q, "\""); print q[2]; exit }' <<<"$meta")
[ ${#uuid} -eq 36 ] || die "no trace UUID in the metadata"
# the packets' magic number and uuid bytes -> the same with copy k's uuid
patch_uuid() { # FILE OLD NEW
	python3 - "$@" <<'PY'
import sys, uuid
path, old, new = sys.argv[1:]
magic = bytes.fromhex("c11ffcc1")  # 0xc1fc1fc1, little-endian (LTTng's x86 traces)
with open(path, "rb") as f:
    data = f.read()
n = data.count(magic + uuid.UUID(old).bytes)
if not n:
    sys.exit("replicate-trace.sh: error: no packet header with the trace uuid in " + path)
with open(path, "wb") as f:
    f.write(data.replace(magic + uuid.UUID(old).bytes, magic + uuid.UUID(new).bytes))
PY
}
for ((k = 0; k < copies; k++)); do
	d=$(printf '%s/c%02d/kernel' "$out" "$k")
	mkdir -p "$d"
	printf '/* CTF 1.8 */\n' >"$d/metadata"
	new=${uuid:0:32}$(printf '%04x' "$k")
	sed "s/^\([[:space:]]*offset = \)$offset;/\1$((offset + k * 1000000000));/;
	     s/uuid = \"$uuid\"/uuid = \"$new\"/;
	     s/name = \"irq_softirq_/name = \"softirq_/" <<<"$meta" >>"$d/metadata"
	for f in "$src"/channel*; do
		cp "$f" "$d/"
		patch_uuid "$d/${f##*/}" "$uuid" "$new"
	done
done
echo "$out: $copies copies of $src"
