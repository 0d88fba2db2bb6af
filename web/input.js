// Mouse and keys (docs/view.md): wheel zooms at the cursor, drag pans, drag on the ruler
// zooms to a range, shift+drag selects a range, clicks pick marks, rows and groups.
import { S, redraw, setView, whole, zoomAt, pan, timeAt, nsPerPx, scrollTo, toggleCollapse,
	toggleRow, setFilterSoon, refreshRate, clearSelection, selectRange, selectMark } from './view.js';
import { ROW_H } from './rows.js';
import { rectText, STATE_LABELS, fmtCount, callFlags } from './draw.js';
import { fmtExact, fmtDur } from './time.js';
import * as panels from './panels.js';

const $ = (id) => document.getElementById(id);
const CLICK_PX = 3;

function local(ev, el) {
	const r = el.getBoundingClientRect();
	return { x: ev.clientX - r.left, y: ev.clientY - r.top };
}
const lineAt = (y) => S.lines[Math.floor((y + S.scrollY) / ROW_H)];

function wheelDelta(ev) {
	const unit = ev.deltaMode === 1 ? 16 : ev.deltaMode === 2 ? 400 : 1;
	return { dx: ev.deltaX * unit, dy: ev.deltaY * unit };
}

function onWheelZoom(ev) {
	ev.preventDefault();
	panels.tooltip(0, 0, null);
	const { dx, dy } = wheelDelta(ev);
	const { x } = local(ev, ev.currentTarget);
	if (ev.shiftKey || Math.abs(dx) > Math.abs(dy)) { pan((ev.shiftKey ? dy || dx : dx) * nsPerPx()); return; }
	zoomAt(x, 2 ** (dy / 300));
}

// A mark within 4 px of (x, y) on a row: [rowId, mark] or null.
function markAt(x, y) {
	const line = lineAt(y);
	if (!line || line.node.rowId === null) return null;
	const ms = S.marks.get(line.node.rowId);
	if (!ms) return null;
	const t = timeAt(x), tol = 4 * nsPerPx();
	let best = null, bd = Infinity;
	for (const m of ms) {
		const d = Math.abs(m[0] - t);
		if (d <= tol && d < bd) { best = m; bd = d; }
	}
	return best ? [line.node.rowId, best] : null;
}

// The rect under time t of a row: binary search (rects come in time order).
function rectAt(rowId, t) {
	const rs = S.rects.get(rowId);
	if (!rs) return null;
	let lo = 0, hi = rs.length - 1;
	while (lo <= hi) {
		const mid = (lo + hi) >> 1;
		if (rs[mid][1] <= t) lo = mid + 1; else if (rs[mid][0] > t) hi = mid - 1; else return rs[mid];
	}
	return null;
}

function rowsTooltip(x, y) {
	const line = lineAt(y);
	if (!line || line.node.rowId === null) return line ? line.node.label : null;
	const rowId = line.node.rowId, row = S.rowById.get(rowId);
	if (row.kind === 'calls') return callTooltip(row, rectAt(rowId, timeAt(x)), timeAt(x));
	const lines = [line.node.label];
	const mk = markAt(x, y);
	if (mk) {
		const [, m] = mk;
		lines.push(`${S.meta.classes[m[1]].name}${m[2] > 1 ? ` (${m[2]} events in this pixel)` : ''}`, `at ${fmtExact(m[0])}`, 'click: show the event');
		return lines.join('\n');
	}
	const t = timeAt(x);
	const r = rectAt(rowId, t);
	if (!r) { lines.push(`${fmtExact(t)}`); return lines.join('\n'); }
	const st = S.meta.states[r[2]];
	const what = rectText(S, row, r[2], r[3]);
	lines.push(`${st ? STATE_LABELS[st.name] || st.name : r[2]}${what ? `: ${what}` : ''}`);
	if (r[4] > 1) lines.push(`${r[4]} spans in this pixel (colour: the one in its middle)`);
	lines.push(`from ${fmtExact(r[0])}`, `to   ${fmtExact(r[1])}`,
		`duration ${fmtDur(r[1] - r[0])}${clipped(r) ? ' in the view (the span goes on beyond it)' : ''}`);
	return lines.join('\n');
}

// Whether a rect the server clipped to the range asked (S.rectsRange) goes on beyond it.
function clipped(r) {
	const rr = S.rectsRange;
	return rr && ((r[0] <= rr.t0 && rr.t0 > 0) || (r[1] >= rr.t1 && rr.t1 < S.meta.duration));
}

// A flame row's call (or calls, merged in a pixel): the function, its times (a call's own,
// api/spans' last two, beyond the view too), what the trace does not say of it.
export function callText(row, r) {
	const lines = [`${S.tidName.get(row.tid) ?? row.tid}: calls at depth ${row.depth}`,
		`${S.meta.functions[r[3]] ?? r[3]}()`];
	const one = r[4] === 1 && r.length > 6;
	if (!one) lines.push(`${r[4]} calls in this pixel (name: the longest's)`);
	for (const f of callFlags(r[2])) lines.push(f);
	const b = one ? r[5] : r[0], e = one ? r[6] : r[1];
	lines.push(`from ${fmtExact(b)}`, `to   ${fmtExact(e)}`, `duration ${fmtDur(e - b)}`);
	return lines.join('\n');
}
function callTooltip(row, r, t) {
	if (r) return `${callText(row, r)}\nclick: show the call`;
	return `${S.tidName.get(row.tid) ?? row.tid}: calls at depth ${row.depth}\n${fmtExact(t)}`;
}

function rateTooltip(x) {
	const r = S.rate;
	if (!r) return null;
	const t = timeAt(x);
	const i = Math.floor((t - r.t0) / (r.t1 - r.t0) * r.bins);
	if (i < 0 || i >= r.bins) return null;
	const bin = (r.t1 - r.t0) / r.bins;
	const lines = [`${fmtExact(r.t0 + i * bin)} + ${fmtDur(bin)}`];
	for (const s of r.series) lines.push(`${S.meta.classes[s.class]?.name ?? s.class}: ${fmtCount(s.counts[i])}`);
	return lines.join('\n');
}

// Drags on a canvas: onMove(dx, dy, ev) while the button is down, onEnd(moved, ev).
function drag(el, onStart) {
	el.addEventListener('pointerdown', (ev) => {
		if (ev.button !== 0) return;
		const h = onStart(ev);
		if (!h) return;
		ev.preventDefault();
		el.setPointerCapture(ev.pointerId);
		const x0 = ev.clientX, y0 = ev.clientY;
		let moved = false;
		const move = (e) => {
			if (Math.abs(e.clientX - x0) + Math.abs(e.clientY - y0) >= CLICK_PX) moved = true;
			if (moved && h.move) h.move(e.clientX - x0, e.clientY - y0, e);
		};
		const up = (e) => {
			el.removeEventListener('pointermove', move);
			el.removeEventListener('pointerup', up);
			el.removeEventListener('pointercancel', up);
			if (h.end) h.end(moved, e);
		};
		el.addEventListener('pointermove', move);
		el.addEventListener('pointerup', up);
		el.addEventListener('pointercancel', up);
	});
}

function bindRows() {
	const el = $('rows');
	el.addEventListener('wheel', onWheelZoom, { passive: false });
	drag(el, (ev) => {
		const p = local(ev, el);
		const t = timeAt(p.x);
		if (ev.shiftKey) {
			S.dragRange = { t0: t, t1: t };
			return {
				move: (dx, dy, e) => { S.dragRange.t1 = timeAt(local(e, el).x); redraw(); },
				end: (moved) => {
					const r = S.dragRange; S.dragRange = null;
					if (moved) selectRange(r.t0, r.t1); else redraw();
				},
			};
		}
		const st0 = S.t0, st1 = S.t1, sy = S.scrollY, k = nsPerPx();
		el.style.cursor = 'grabbing';
		return {
			move: (dx, dy) => { setView(st0 - dx * k, st1 - dx * k); scrollTo(sy - dy); },
			end: (moved) => {
				el.style.cursor = '';
				if (moved) return;
				const mk = markAt(p.x, p.y);
				if (mk) { selectMark(mk[0], mk[1]); return; }
				const line = lineAt(p.y);
				const row = line && line.node.rowId !== null ? S.rowById.get(line.node.rowId) : null;
				const r = row && row.kind === 'calls' ? rectAt(row.id, t) : null;
				if (r) panels.showCall(callText(row, r));
			},
		};
	});
	el.addEventListener('pointermove', (ev) => {
		const p = local(ev, el);
		S.cursorX = p.x;
		redraw(true);
		panels.tooltip(ev.clientX, ev.clientY, ev.buttons ? null : rowsTooltip(p.x, p.y));
	});
	el.addEventListener('pointerleave', () => { S.cursorX = null; redraw(true); panels.tooltip(0, 0, null); });
}

function bindRuler() {
	const el = $('ruler');
	el.addEventListener('wheel', onWheelZoom, { passive: false });
	drag(el, (ev) => {
		const t = timeAt(local(ev, el).x);
		S.rulerDrag = { t0: t, t1: t };
		return {
			move: (dx, dy, e) => { S.rulerDrag.t1 = timeAt(local(e, el).x); redraw(); },
			end: (moved) => {
				const r = S.rulerDrag; S.rulerDrag = null;
				if (moved && r.t0 !== r.t1) setView(Math.min(r.t0, r.t1), Math.max(r.t0, r.t1)); else redraw();
			},
		};
	});
	el.addEventListener('pointermove', (ev) => { S.cursorX = local(ev, el).x; redraw(true); });
	el.addEventListener('pointerleave', () => { S.cursorX = null; redraw(true); });
}

function bindRate() {
	const el = $('rate');
	el.addEventListener('wheel', onWheelZoom, { passive: false });
	el.addEventListener('pointermove', (ev) => {
		const p = local(ev, el);
		S.cursorX = p.x; redraw(true);
		panels.tooltip(ev.clientX, ev.clientY, rateTooltip(p.x));
	});
	el.addEventListener('pointerleave', () => { S.cursorX = null; redraw(true); panels.tooltip(0, 0, null); });
	$('rate-class').addEventListener('change', refreshRate);
}

function bindNames() {
	const el = $('names');
	el.addEventListener('wheel', (ev) => {
		ev.preventDefault();
		panels.tooltip(0, 0, null);
		scrollTo(S.scrollY + wheelDelta(ev).dy);
	}, { passive: false });
	el.addEventListener('click', (ev) => {
		const p = local(ev, el);
		const line = lineAt(p.y);
		if (!line) return;
		const node = line.node;
		const arrowEnd = 6 + line.depth * 14 + 12;
		if (node.children.length && (node.rowId === null || p.x < arrowEnd)) { toggleCollapse(node.key); return; }
		if (node.rowId !== null) toggleRow(node.rowId, ev.ctrlKey || ev.metaKey);
	});
	el.addEventListener('pointermove', (ev) => {
		const line = lineAt(local(ev, el).y);
		let text = null;
		if (line) {
			text = line.node.label;
			if (line.node.kind === 'process' && line.node.pid !== null) text += `\nprocess ${line.node.name}, pid ${line.node.pid}`;
			if (line.node.rowId !== null) text += '\nclick: select the row (ctrl: add)';
		}
		panels.tooltip(ev.clientX, ev.clientY, text);
	});
	el.addEventListener('pointerleave', () => panels.tooltip(0, 0, null));
}

function bindKeys() {
	document.addEventListener('keydown', (ev) => {
		if (ev.target instanceof HTMLInputElement || ev.target instanceof HTMLSelectElement) {
			if (ev.key === 'Escape') ev.target.blur();
			return;
		}
		if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
		const span = S.t1 - S.t0, w = $('rows').clientWidth, h = $('rows').clientHeight;
		switch (ev.key) {
		case '+': case '=': zoomAt(w / 2, 0.5); break;
		case '-': case '_': zoomAt(w / 2, 2); break;
		case 'ArrowLeft': pan(-span * 0.2); break;
		case 'ArrowRight': pan(span * 0.2); break;
		case 'ArrowUp': scrollTo(S.scrollY - ROW_H); break;
		case 'ArrowDown': scrollTo(S.scrollY + ROW_H); break;
		case 'PageUp': scrollTo(S.scrollY - h + ROW_H); break;
		case 'PageDown': scrollTo(S.scrollY + h - ROW_H); break;
		case '0': case 'Home': whole(); break;
		case 'Escape': clearSelection(); break;
		default: return;
		}
		ev.preventDefault();
	});
}

function bindSearch() {
	const el = $('search');
	el.addEventListener('input', () => setFilterSoon(el.value));
}

export function bindInput() {
	bindRows(); bindRuler(); bindRate(); bindNames(); bindKeys(); bindSearch();
}
