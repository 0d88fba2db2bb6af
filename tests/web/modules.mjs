// web/time.js and web/rows.js in node (tests/web/run.sh): the closing line is lib.sh's.
import { fmtRel, fmtDur, tickStep, fmtOrigin } from '../../web/time.js';
import { buildTree, layout, matchThreads, rowLabel, ROW_H } from '../../web/rows.js';
import { eventLine } from '../../web/panels.js';

let passed = 0, failed = 0;
function check(what, got, want) {
	const ok = JSON.stringify(got) === JSON.stringify(want);
	if (ok) passed++; else failed++;
	console.log(`${ok ? 'ok' : 'FAIL'} - ${what}${ok ? '' : `: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`}`);
}
const thin = (s) => s.replace(/ /g, '\u2009').replace(/\u2009s$/, ' s');

// relative times: seconds, then as many groups of three digits as the step needs
check('every ns digit with step 1', fmtRel(1234567890, 1), thin('1.234 567 890 s'));
check('10 ns step: two ns digits', fmtRel(1234567890, 10), thin('1.234 567 89 s'));
check('1 µs step: down to µs', fmtRel(1234567890, 1000), thin('1.234 567 s'));
check('0.2 s step: tenths', fmtRel(600000000, 2e8), '0.6 s');
check('whole seconds', fmtRel(3e9, 1e9), '3 s');
check('negative times (before the trace)', fmtRel(-5, 1), thin('−0.000 000 005 s'));
check('leading zeros of the fraction kept', fmtRel(1000001, 1), thin('0.001 000 001 s'));
check('durations', [fmtDur(340), fmtDur(1250000), fmtDur(12e9)], ['340 ns', '1.25 ms', '12.0 s']);

// ruler steps: 1, 2 or 5 × 10^k ns, labels at least minPx apart, never under 1 ns
check('2 s over 1000 px, 110 px apart: 0.5 s', tickStep(2e9, 1000, 110), 5e8);
check('10 ns over 1000 px: 2 ns (1 ns would be 100 px apart)', tickStep(10, 1000, 110), 2);
check('never under 1 ns', tickStep(1, 1000, 110), 1);
check('1 ms over 1100 px, 110 px apart: 100 µs', tickStep(1e6, 1100, 110), 1e5);

// the origin: a date when it is the Unix epoch, to the ns (beyond a double's 2^53)
check('origin as a UTC date to the ns', fmtOrigin('1764118702123456789'), '2025-11-26 00:58:22.123456789 UTC');
check('an origin that is no date: plain ns', fmtOrigin('12345'), '12345 ns');

// rows: CPUs under Resources, threads under their process, the main thread as its line
const meta = {
	rows: [
		{ id: 0, kind: 'cpu', cpu: 1 }, { id: 1, kind: 'cpu', cpu: 0 },
		{ id: 2, kind: 'thread', tid: 12, pid: 10, name: 'worker' },
		{ id: 3, kind: 'thread', tid: 10, pid: 10, name: 'app' },
		{ id: 4, kind: 'thread', tid: 7, pid: 7, name: 'bash' },
		{ id: 5, kind: 'thread', tid: 99, pid: 98, name: 'lost' },
	],
	processes: [{ pid: 10, name: 'app', rows: [2, 3] }, { pid: 7, name: 'bash', rows: [4] }],
};
const tree = buildTree(meta);
const labels = (lines) => lines.map((l) => `${'  '.repeat(l.depth)}${l.node.label}`);
check('labels', [rowLabel(meta.rows[0]), rowLabel(meta.rows[2])], ['CPU 1', 'worker (12)']);
check('the tree laid out', labels(layout(tree, new Set(), null)), [
	'Resources', '  CPU 0', '  CPU 1', 'Control flow', '  bash (7)', '  app (10)', '    worker (12)',
	'  threads without a process', '    lost (99)']);
check('lines are ROW_H apart', layout(tree, new Set(), null).map((l) => l.y).slice(0, 3), [0, ROW_H, 2 * ROW_H]);
check('a collapsed process keeps its main thread\'s line', labels(layout(tree, new Set(['p10']), null)).slice(4, 7),
	['  bash (7)', '  app (10)', '  threads without a process']);
check('a collapsed group keeps only its header', labels(layout(tree, new Set(['g-threads']), null)),
	['Resources', '  CPU 0', '  CPU 1', 'Control flow']);
check('search by thread name', [...matchThreads(tree, 'WORK')], [2]);
check('search by process name: all its threads', [...matchThreads(tree, 'app')].sort(), [2, 3]);
check('search by tid', [...matchThreads(tree, '7')], [4]);
check('search naming no thread: null (all rows stay)', matchThreads(tree, 'sched_switch'), null);
check('the filter shows the matching threads (expanded) and the CPUs',
	labels(layout(tree, new Set(['p10']), matchThreads(tree, 'worker'))),
	['Resources', '  CPU 0', '  CPU 1', 'Control flow', '  app (10)', '    worker (12)']);

// flame rows: a thread's calls under it by depth, the main thread's first in its process
const fmeta = {
	rows: [
		{ id: 0, kind: 'thread', tid: 12, pid: 10, name: 'worker' },
		{ id: 1, kind: 'thread', tid: 10, pid: 10, name: 'app' },
		{ id: 2, kind: 'calls', tid: 12, pid: 10, depth: 1, name: 'worker' },
		{ id: 3, kind: 'calls', tid: 12, pid: 10, depth: 0, name: 'worker' },
		{ id: 4, kind: 'calls', tid: 10, pid: 10, depth: 0, name: 'app' },
	],
	processes: [{ pid: 10, name: 'app', rows: [0, 1] }],
};
const ftree = buildTree(fmeta);
check('flame rows under their thread, by depth', labels(layout(ftree, new Set(), null)),
	['Control flow', '  app (10)', '    depth 0', '    worker (12)', '      depth 0', '      depth 1']);
check('a thread collapsed: its flame rows hidden', labels(layout(ftree, new Set(['r0']), null)),
	['Control flow', '  app (10)', '    depth 0', '    worker (12)']);
check('the filter keeps a thread\'s flame rows with it, not another\'s',
	labels(layout(ftree, new Set(), matchThreads(ftree, 'worker'))),
	['Control flow', '  app (10)', '    worker (12)', '      depth 0', '      depth 1']);
check('flame rows are not threads to search', [...matchThreads(ftree, 'app')].sort(), [0, 1]);

// the event list: a function's entry or exit named after its address
const entry = 'T lttng_ust_cyg_profile:func_entry: addr=0x4011D6 call_site=0x7F0012';
check('an entry: its function after the address', eventLine({ text: entry, function: 'main' }),
	'T lttng_ust_cyg_profile:func_entry: addr=0x4011D6 <main> call_site=0x7F0012');
check('a name with $ patterns stays as it is', eventLine({ text: entry, function: "$&$'" }),
	"T lttng_ust_cyg_profile:func_entry: addr=0x4011D6 <$&$'> call_site=0x7F0012");
check('an address no object holds: no name to add', eventLine({ text: entry, function: '0x4011d6' }), entry);
check('other events: spoor dump\'s line', eventLine({ text: 'T hello:tick: n=1' }), 'T hello:tick: n=1');

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
