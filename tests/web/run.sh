#!/usr/bin/env bash
# The page's modules that need no browser (web/time.js, web/rows.js), in node: relative
# times and the ruler's steps, the origin as a date, the rows' tree, collapsing and the
# search filter. The page in a browser: tests/browser/.
. "$(dirname "$0")/../cli/lib.sh"
need node nodejs
node "$(dirname "$0")/modules.mjs"
