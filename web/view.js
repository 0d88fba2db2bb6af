// spoor view's page: the view's state, the requests that fill it, the test hook.
// Drawing is in draw.js, the rows' tree in rows.js, the HTML panels in panels.js, mouse and
// keys in input.js. The API is DESIGN18.md's (docs/view.md for users).
import { getJSON, HttpError, Tracker, Latest } from './api.js';
import { buildTree, layout, matchThreads, rowLabel, ROW_H } from './rows.js';
import { drawRows, drawNames, drawRuler, drawRate, drawCursor, STATE_COLORS } from './draw.js';
import * as panels from './panels.js';
import { bindInput } from './input.js';

const $ = (id) => document.getElementById(id);
const MIN_SPAN = 10;        // ns across the whole canvas at the deepest zoom
const EVENT_LIMIT = 500;

export const S = {
	meta: null, tree: [], lines: [], t0: 0, t1: 1, scrollY: 0,
	rects: new Map(), marks: new Map(), rate: null,      // the current view's answers only
	events: [], eventsMore: false, eventsNote: '',
	selected: null, range: null, stats: null, statsError: null,
	dragRange: null, rulerDrag: null, cursorX: null,
	selectedRows: new Set(), collapsed: new Set(), filter: '', keep: null,
	drawn: {}, drawnMarks: {}, callLabels: {}, error: null,
	stateNames: [], rowById: new Map(), rowOfTid: new Map(), tidName: new Map(),
};

const tracker = new Tracker();
let readyResolve;
const ready = new Promise((res) => { readyResolve = res; });
let firstSpans = false;

const canvases = () => ({ rows: $('rows'), names: $('names'), ruler: $('ruler'), rate: $('rate') });
const rowsWidth = () => Math.max($('rows').clientWidth, 1);
const rowsHeight = () => $('rows').clientHeight;

// ---- drawing

let frame = 0, full = false;
// cursorOnly: only the mouse moved (the ruler and the cursor's line change)
export function redraw(cursorOnly) {
	if (!cursorOnly) full = true;
	if (frame) return;
	tracker.inc();
	// a hidden page gets no animation frames; idle() must still come
	const later = document.hidden ? (f) => setTimeout(f, 0) : requestAnimationFrame;
	frame = later(() => {
		frame = 0;
		if (S.meta) {
			const c = canvases();
			if (full) { drawRows(S, c.rows); drawNames(S, c.names); drawRate(S, c.rate); }
			drawRuler(S, c.ruler); drawCursor(S, $('overlay'));
			if (firstSpans) readyResolve();
		}
		full = false;
		tracker.dec();
	});
}

// ---- the view: time range, rows, scroll

export function setView(t0, t1) {
	const d = Math.max(S.meta.duration, MIN_SPAN);
	let span = Math.min(Math.max(t1 - t0, MIN_SPAN), d);
	if (span !== t1 - t0) t0 = (t0 + t1) / 2 - span / 2;
	t0 = Math.min(Math.max(t0, -span / 2), S.meta.duration - span / 2);
	if (t0 === S.t0 && t0 + span === S.t1) return;
	S.t0 = t0; S.t1 = t0 + span;
	redraw();
	spansReq.call(); rateReq.call(); eventsReq.call();
}
export const whole = () => setView(0, Math.max(S.meta.duration, MIN_SPAN));
export function zoomAt(x, factor) {
	const w = rowsWidth(), span = S.t1 - S.t0;
	const tc = S.t0 + x / w * span, ns = span * factor;
	setView(tc - x / w * ns, tc - x / w * ns + ns);
}
export const pan = (dt) => setView(S.t0 + dt, S.t1 + dt);
export const nsPerPx = () => (S.t1 - S.t0) / rowsWidth();
export const timeAt = (x) => S.t0 + x * nsPerPx();

export function scrollTo(y) {
	const vs = $('vscroll');
	vs.scrollTop = Math.max(0, Math.min(y, S.lines.length * ROW_H - rowsHeight()));
	onScroll();
}
function onScroll() {
	const y = $('vscroll').scrollTop;
	if (y === S.scrollY) return;
	S.scrollY = y;
	redraw();
	spansReq.call();
}

function relayout() {
	S.keep = matchThreads(S.tree, S.filter);
	S.lines = layout(S.tree, S.collapsed, S.keep);
	$('vspace').style.height = `${S.lines.length * ROW_H}px`;
	onScroll();
	redraw();
	spansReq.call();
}

export function toggleCollapse(key) {
	if (S.collapsed.has(key)) S.collapsed.delete(key); else S.collapsed.add(key);
	relayout();
}
export function toggleRow(id, add) {
	const had = S.selectedRows.has(id);
	if (!add) S.selectedRows.clear();
	if (had) S.selectedRows.delete(id); else S.selectedRows.add(id);
	redraw();
}
export function setFilter(text) {
	if (text === S.filter) return;
	S.filter = text;
	relayout();
	eventsReq.call(); rateReq.call();
}
// Typing in the search box: applied once typing pauses (the wait counts as work for idle()).
let filterTimer = null;
export function setFilterSoon(text) {
	if (filterTimer) clearTimeout(filterTimer); else tracker.inc();
	filterTimer = setTimeout(() => { filterTimer = null; setFilter(text); tracker.dec(); }, 200);
}
export const refreshRate = () => rateReq.call();
export function clearSelection() {
	S.range = null; S.stats = null; S.selectedRows.clear();
	panels.showStats(null);
	redraw();
}

// Lines on screen that have a row, top to bottom.
function visibleRowIds() {
	const h = rowsHeight(), ids = [];
	const first = Math.max(0, Math.floor(S.scrollY / ROW_H));
	const last = Math.min(S.lines.length, Math.ceil((S.scrollY + h) / ROW_H));
	for (let i = first; i < last; i++) if (S.lines[i].node.rowId !== null) ids.push(S.lines[i].node.rowId);
	return ids;
}

// The range asked of the server: integers inside the trace, px in proportion.
function askRange(w) {
	const t0 = Math.max(0, Math.floor(S.t0)), t1 = Math.min(S.meta.duration, Math.ceil(S.t1));
	if (t1 <= t0) return { t0, t1: t0 + 1, px: 1 };
	return { t0, t1, px: Math.max(1, Math.round(w * (t1 - t0) / (S.t1 - S.t0))) };
}

// ---- requests (each: only the latest answer applies)

// an answer that failed: said in the banner (and the first picture is then the one without it)
const fail = (e) => {
	S.error = e.message;
	panels.showBanner(panels.bannerText(S.meta, S.error));
	firstSpans = true;
	redraw();
};

const spansReq = new Latest(tracker, 40, async (signal) => {
	const ids = visibleRowIds();
	if (!ids.length) return { rows: [], marks: [] };
	const r = askRange(rowsWidth());
	const threads = ids.filter((id) => S.rowById.get(id).kind === 'thread');
	const [sp, mk] = await Promise.all([
		getJSON('spans', { rows: ids.join(','), ...r }, signal),
		S.hasMarks && threads.length ? getJSON('marks', { rows: threads.join(','), ...r }, signal) : { rows: [] },
	]);
	return { rows: sp.rows, marks: mk.rows, range: r };
}, (res) => {
	S.rects = new Map(res.rows.map((r) => [r.id, r.rects]));
	S.rectsRange = res.range;   // the server clips spans to it
	S.marks = new Map(res.marks.map((r) => [r.id, r.marks]));
	if (S.error) { S.error = null; panels.showBanner(panels.bannerText(S.meta, null)); }
	firstSpans = true;
	redraw();
}, fail);

// The search text as a class-name glob, if it names classes.
function classGlob() {
	const q = S.filter.trim();
	if (!q) return null;
	const glob = /[*?[]/.test(q) ? q : `*${q}*`;
	const re = new RegExp('^' + glob.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.') + '$', 'i');
	const hits = S.meta.classes.map((c, i) => (re.test(c.name) ? i : -1)).filter((i) => i >= 0);
	return hits.length ? { glob, hits } : null;
}

const rateReq = new Latest(tracker, 120, async (signal) => {
	const w = $('rate').clientWidth;
	const r = askRange(w);
	const sel = $('rate-class').value;
	const cg = classGlob();
	const classes = sel !== '' ? sel : cg ? cg.hits.slice(0, 8).join(',') : undefined;
	const bins = Math.max(1, Math.min(2000, Math.floor(r.px / 3), r.t1 - r.t0));
	const res = await getJSON('rate', { t0: r.t0, t1: r.t1, bins, classes }, signal);
	return { ...res, t0: r.t0, t1: r.t1 };
}, (res) => { S.rate = res; redraw(); }, fail);

const eventsReq = new Latest(tracker, 150, async (signal) => {
	const r = askRange(rowsWidth());
	const p = { t0: r.t0, t1: r.t1, limit: EVENT_LIMIT };
	const cg = classGlob();
	let local = null, note = '';
	if (cg) { p.name = cg.glob; note = `name ${cg.glob}`; } else if (S.keep) {
		const rows = [...S.keep].map((id) => S.rowById.get(id));
		const pids = new Set(rows.map((x) => x.pid));
		if (rows.length === 1) { p.tid = rows[0].tid; note = `tid ${p.tid}`; } else if (pids.size === 1) { p.pid = rows[0].pid; note = `pid ${p.pid}`; } else {
			local = new Set(rows.map((x) => x.tid)); note = `threads matching "${S.filter.trim()}" among them`;
		}
	}
	const res = await getJSON('events', p, signal);
	const events = local ? res.events.filter((e) => local.has(e.tid)) : res.events;
	return { events, more: res.more, note };
}, (res) => {
	S.events = res.events; S.eventsMore = res.more; S.eventsNote = res.note;
	panels.showEvents(S.events, S.eventsMore, S.eventsNote, S.selected, (ev) => selectEvent(ev, true));
}, fail);

let statsTids = [];
const statsReq = new Latest(tracker, 0, async (signal) => {
	const tids = statsTids.length ? statsTids.join(',') : undefined;
	return getJSON('stats', { t0: S.range.t0, t1: S.range.t1, tids }, signal);
}, (res) => {
	S.stats = res; S.statsError = null;
	panels.showStats(S.range, S.stats, statsTids);
}, (e) => { S.statsError = e.message; panels.showStats(S.range, null, statsTids, e.message); });

// ---- selections

export function selectRange(a, b) {
	const t0 = Math.max(0, Math.round(Math.min(a, b))), t1 = Math.min(S.meta.duration, Math.round(Math.max(a, b)));
	if (t1 <= t0) return;
	S.range = { t0, t1 }; S.stats = null;
	statsTids = [...S.selectedRows].map((id) => S.rowById.get(id)).filter((r) => r.kind === 'thread').map((r) => r.tid);
	panels.showStats(S.range, null, statsTids);
	redraw();
	statsReq.now();
}

export function selectEvent(ev, centre) {
	S.selected = ev;
	panels.showSelected(ev);
	for (const d of $('events').children) d.classList.remove('sel');
	const i = S.events.findIndex((e) => panels.sameEvent(e, ev));
	if (i >= 0) $('events').children[i].classList.add('sel');
	const rowId = S.rowOfTid.get(ev.tid);
	if (centre) {
		const span = S.t1 - S.t0;
		setView(ev.t - span / 2, ev.t + span / 2);
		if (rowId !== undefined) revealRow(rowId);
	}
	redraw();
}

// Scroll (expanding its process) until the row is on screen.
function revealRow(rowId) {
	let at = S.lines.findIndex((l) => l.node.rowId === rowId);
	if (at < 0) {
		const p = S.tree[1].children.find((n) => n.children.some((c) => c.rowId === rowId));
		if (p && S.collapsed.has(p.key)) { S.collapsed.delete(p.key); }
		S.collapsed.delete('g-threads');
		relayout();
		at = S.lines.findIndex((l) => l.node.rowId === rowId);
		if (at < 0) return;
	}
	const y = at * ROW_H, h = rowsHeight();
	if (y < S.scrollY || y + ROW_H > S.scrollY + h) scrollTo(y - h / 2);
}

// A mark → its event, asked of the server (a mark carries only time, class and count).
export async function selectMark(rowId, m) {
	const row = S.rowById.get(rowId);
	tracker.inc();
	try {
		const res = await getJSON('events', { t0: m[0], t1: m[0] + 1, limit: 1, tid: row.tid, name: S.meta.classes[m[1]].name });
		if (res.events.length) selectEvent(res.events[0], false);
	} catch (e) { fail(e); } finally { tracker.dec(); }
}

// ---- start

async function loadMeta() {
	for (;;) {
		try {
			return await getJSON('meta');
		} catch (e) {
			if (e instanceof HttpError && e.status === 503) {
				const p = e.body && typeof e.body.progress === 'number' ? ` ${Math.round(e.body.progress * 100)} %` : '';
				panels.showLoading(`Building the cache…${p}`);
			} else {
				panels.showLoading(`Cannot load the trace: ${e.message}`);
			}
			await new Promise((res) => setTimeout(res, 500));
		}
	}
}

async function start() {
	tracker.inc();
	panels.showLoading('Loading…');
	// a field the server leaves out is empty, not an exception
	const meta = { traces: [], duration: 0, states: [], rows: [], processes: [], classes: [], syscalls: [],
		functions: [], damage: [], lost: 0, cache: '', ...(await loadMeta()) };
	S.meta = meta;
	S.stateNames = meta.states.map((s) => s.name);
	S.stateColors = S.stateNames.map((n) => STATE_COLORS[n] || STATE_COLORS.unknown);
	for (const r of meta.rows) {
		S.rowById.set(r.id, r);
		if (r.kind === 'thread') { S.rowOfTid.set(r.tid, r.id); S.tidName.set(r.tid, rowLabel(r)); }
	}
	S.hasMarks = meta.classes.some((c) => c.user);
	S.tree = buildTree(meta);
	panels.showLoading(null);
	panels.showHeader(meta);
	panels.showBanner(panels.bannerText(meta, null));
	S.lines = layout(S.tree, S.collapsed, null);
	$('vspace').style.height = `${S.lines.length * ROW_H}px`;
	if (!visibleRowIds().length) firstSpans = true;
	bindInput();
	new ResizeObserver(() => { redraw(); spansReq.call(); rateReq.call(); }).observe($('rows-box'));
	$('vscroll').addEventListener('scroll', onScroll);
	whole();
	tracker.dec();
}

// ---- the test hook (PAGE-HOOK.md)

function box(el) {
	const r = el.getBoundingClientRect();
	return { x: r.left, y: r.top, width: r.width, height: r.height };
}

window.spoorView = {
	ready,
	idle: () => tracker.idle(),
	setView: (t0, t1) => setView(t0, t1),
	state() {
		const pick = (e) => (e ? { t: e.t, name: e.name, text: e.text } : null);
		return {
			t0: S.t0, t1: S.t1,
			duration: S.meta ? S.meta.duration : null, origin: S.meta ? S.meta.origin : null,
			rows: S.lines.filter((l) => l.node.rowId !== null).map((l) => {
				const r = S.rowById.get(l.node.rowId);
				return { id: r.id, kind: r.kind, label: rowLabel(r), tid: r.tid, depth: r.depth,
					y: l.y - S.scrollY, height: ROW_H };
			}),
			drawn: { ...S.drawn }, marks: { ...S.drawnMarks }, callLabels: { ...S.callLabels },
			selectedText: $('selected').textContent,
			events: S.events.map(pick), eventsMore: S.eventsMore,
			selected: pick(S.selected),
			range: S.range ? { ...S.range } : null,
			stats: S.stats ? { sched: S.stats.sched, irq: S.stats.irq, syscalls: S.stats.syscalls } : null,
			selectedRows: [...S.selectedRows],
			banner: S.meta ? panels.bannerText(S.meta, S.error) : null,
			filter: S.filter,
			canvas: box($('rows')), ruler: box($('ruler')), rate: box($('rate')), names: box($('names')),
		};
	},
};

start();
