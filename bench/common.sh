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

# Replace the lines between <!-- $section:begin --> and <!-- $section:end --> of $doc with
# the file $1.
update_section() {
	local tmp
	tmp=$(mktemp "$doc.XXXXXX")
	awk -v b="<!-- $section:begin -->" -v e="<!-- $section:end -->" -v f="$1" '
		$0 == b { print; while ((getline l < f) > 0) print l; skip = 1; next }
		$0 == e { skip = 0 }
		!skip { print }' "$doc" >"$tmp"
	chmod --reference="$doc" "$tmp"
	mv "$tmp" "$doc"
	note "updated section '$section' of $doc"
}
