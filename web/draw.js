// Canvas drawing: the rows (state rects, marks, selection), their names, the ruler and the
// event-rate strip. Everything is drawn from the view's state `S` (view.js); nothing here
// asks the server.
import { ROW_H } from './rows.js';
import { fmtRel, tickStep, fmtDur } from './time.js';

// Trace Compass's control-flow and resource views' colours (ControlFlowPresentationProvider,
// ResourcesPresentationProvider); running and idle are spoor's.
export const STATE_COLORS = {
	unknown: 'rgb(100,100,100)',
	user: 'rgb(0,200,0)',
	syscall: 'rgb(0,0,200)',
	irq: 'rgb(200,0,100)',
	softirq: 'rgb(200,150,100)',
	wait_cpu: 'rgb(200,100,0)',
	blocked: 'rgb(200,200,0)',
	running: 'rgb(0,150,75)',
	idle: 'rgb(200,200,200)',
};
// Short names for the legend and tooltips (api/meta's labels are the states' descriptions).
export const STATE_LABELS = {
	unknown: 'unknown', user: 'user', syscall: 'system call', irq: 'IRQ', softirq: 'softirq',
	wait_cpu: 'waiting for CPU', blocked: 'blocked', running: 'running', idle: 'idle',
};
const DARK_TEXT = new Set(['softirq', 'blocked', 'idle', 'user']);
export const SOFTIRQS = ['HI', 'TIMER', 'NET_TX', 'NET_RX', 'BLOCK', 'IRQ_POLL', 'TASKLET', 'SCHED', 'HRTIMER', 'RCU'];

// An event count of the rate strip: whole, or 3 digits when the server's bins split a count
export const fmtCount = (c) => (Number.isInteger(c) ? String(c) : c >= 100 ? c.toFixed(0) : c.toPrecision(3));

// A stable colour per event class (marks, rate lines).
export function classColor(i) {
	return `hsl(${(i * 137.508) % 360},70%,42%)`;
}

// A function's colour, from its name (FNV-1a): the same function the same colour in every
// row and trace, light enough for its name in black.
export function functionColor(name) {
	let h = 0x811c9dc5;
	for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
	return `hsl(${h % 360},${55 + (h >>> 9) % 25}%,${68 + (h >>> 17) % 12}%)`;
}
// A call's flags (api/spans' state on a flame row): what the trace does not say.
export function callFlags(flags) {
	const out = [];
	if (flags & 1) out.push('entry not in the trace');
	if (flags & 2) out.push('exit not in the trace');
	if (flags & 4) out.push('unwound (longjmp or exception)');
	return out;
}

// Size the canvas's bitmap to its CSS box and the device pixels; returns the context scaled
// to CSS px.
export function fit(canvas) {
	const dpr = window.devicePixelRatio || 1;
	const w = canvas.clientWidth, h = canvas.clientHeight;
	if (canvas.width !== Math.round(w * dpr) || canvas.height !== Math.round(h * dpr)) {
		canvas.width = Math.round(w * dpr);
		canvas.height = Math.round(h * dpr);
	}
	const ctx = canvas.getContext('2d');
	ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
	ctx.clearRect(0, 0, w, h);
	return { ctx, w, h, dpr };
}

export const xOf = (S, t, w) => (t - S.t0) * w / (S.t1 - S.t0);

// The text inside a rect: a syscall's name, irq/softirq numbers, a CPU's running thread.
export function rectText(S, row, state, value) {
	if (row.kind === 'calls') return S.meta.functions[value] ?? '';
	const name = S.stateNames[state];
	if (name === 'syscall' && row.kind === 'thread') return S.meta.syscalls[value] ?? '';
	if (name === 'irq') return `irq ${value}`;
	if (name === 'softirq') return SOFTIRQS[value] ?? `softirq ${value}`;
	if (row.kind === 'cpu' && (name === 'user' || name === 'syscall' || name === 'running' || name === 'wait_cpu'))
		return S.tidName.get(value) ?? `${value}`;
	return '';
}

function visibleLines(S, h) {
	const first = Math.max(0, Math.floor(S.scrollY / ROW_H));
	const last = Math.min(S.lines.length, Math.ceil((S.scrollY + h) / ROW_H));
	return S.lines.slice(first, last);
}

// A line's background, the same behind its name and its row: group headers grey, the
// selected event's thread amber, rows selected by a click blue; a rule below.
function lineBackground(S, ctx, node, y, w) {
	const selRow = S.selected ? S.rowOfTid.get(S.selected.tid) : undefined;
	let bg = null;
	if (node.kind === 'group') bg = '#e4e4e4';
	else if (node.rowId !== null && node.rowId === selRow) bg = '#ffe9a8';
	else if (node.rowId !== null && S.selectedRows.has(node.rowId)) bg = '#dde8ff';
	if (bg) { ctx.fillStyle = bg; ctx.fillRect(0, y, w, ROW_H); }
	ctx.fillStyle = '#eee'; ctx.fillRect(0, y + ROW_H - 1, w, 1);
}

export function drawRows(S, canvas) {
	const { ctx, w, h } = fit(canvas);
	const drawn = {}, marks = {};
	S.callLabels = {};
	const k = w / (S.t1 - S.t0);
	ctx.font = '11px system-ui, sans-serif';
	ctx.textBaseline = 'middle';
	for (const line of visibleLines(S, h)) {
		const y = line.y - S.scrollY, node = line.node;
		lineBackground(S, ctx, node, y, w);
		if (node.rowId === null) continue;
		const row = S.rowById.get(node.rowId);
		const rects = S.rects.get(node.rowId);
		if (rects) drawn[node.rowId] = (row.kind === 'calls' ? drawCalls : drawRects)(S, ctx, row, rects, y, w, k);
		const ms = S.marks.get(node.rowId);
		if (ms) {
			let m = 0;
			for (const [t, c, count] of ms) {
				const x = (t - S.t0) * k;
				if (x < -4 || x > w + 4) continue;
				const s = count > 1 ? 5 : 4;
				ctx.fillStyle = classColor(c);
				ctx.beginPath(); ctx.moveTo(x - s, y); ctx.lineTo(x + s, y); ctx.lineTo(x, y + s + 3); ctx.closePath();
				ctx.fill(); ctx.strokeStyle = '#fff'; ctx.lineWidth = 0.7; ctx.stroke();
				m++;
			}
			marks[node.rowId] = m;
		}
	}
	drawOverlays(S, ctx, w, h);
	S.drawn = drawn; S.drawnMarks = marks;
}

// One row's rects: runs of one state drawn as one rect, edges on device pixels (no seams
// between neighbours); then the labels of single spans wide enough. Returns the rects drawn.
function drawRects(S, ctx, row, rects, y, w, k) {
	const dpr = window.devicePixelRatio || 1;
	const snap = (x) => Math.round(x * dpr) / dpr;
	let n = 0, runState = -1, runX0 = 0, runX1 = 0;
	const flush = () => {
		if (runState < 0) return;
		ctx.fillStyle = S.stateColors[runState] || STATE_COLORS.unknown;
		ctx.fillRect(runX0, y + 3, Math.max(runX1 - runX0, 1 / dpr), ROW_H - 6);
	};
	for (const r of rects) {
		const x0 = (r[0] - S.t0) * k, x1 = (r[1] - S.t0) * k;
		if (x1 < 0 || x0 > w) continue;
		n++;
		const a = snap(Math.max(x0, -1)), b = snap(Math.min(x1, w + 1));
		if (r[2] === runState && a <= runX1 + 1 / dpr) { runX1 = Math.max(runX1, b); continue; }
		flush();
		runState = r[2]; runX0 = a; runX1 = b;
	}
	flush();
	for (const r of rects) {
		if (r[4] !== 1) continue;
		const x0 = Math.max((r[0] - S.t0) * k, 0), x1 = Math.min((r[1] - S.t0) * k, w);
		if (x1 - x0 <= 30) continue;
		const text = rectText(S, row, r[2], r[3]);
		if (text) drawLabel(ctx, text, x0, y, x1 - x0, DARK_TEXT.has(S.stateNames[r[2]]) ? '#000' : '#fff');
	}
	return n;
}

// A flame row's calls: each its function's colour, a call whose entry or exit the trace
// lacks paler, a line between neighbours; the function's name where it fits. The names drawn
// go to S.callLabels (the test hook). Returns the rects drawn.
function drawCalls(S, ctx, row, rects, y, w, k) {
	const dpr = window.devicePixelRatio || 1;
	const snap = (x) => Math.round(x * dpr) / dpr;
	const labels = [];
	let n = 0;
	for (const r of rects) {
		const x0 = (r[0] - S.t0) * k, x1 = (r[1] - S.t0) * k;
		if (x1 < 0 || x0 > w) continue;
		n++;
		const a = snap(Math.max(x0, -1)), b = snap(Math.min(x1, w + 1));
		const name = S.meta.functions[r[3]] ?? '';
		ctx.globalAlpha = r[2] & 3 ? 0.55 : 1;
		ctx.fillStyle = functionColor(name);
		ctx.fillRect(a, y + 1, Math.max(b - a, 1 / dpr), ROW_H - 2);
		ctx.globalAlpha = 1;
		if (b - a > 3) { ctx.fillStyle = 'rgba(255,255,255,0.8)'; ctx.fillRect(b - 1 / dpr, y + 1, 1 / dpr, ROW_H - 2); }
		if (r[4] === 1 && b - a > 30 && name && drawLabel(ctx, name, x0, y, x1 - x0, '#000')) labels.push(name);
	}
	S.callLabels[row.id] = labels;
	return n;
}

function drawLabel(ctx, text, x0, y, ww, color) {
	const x = Math.max(x0, 0), width = Math.min(x0 + ww, ctx.canvas.clientWidth) - x;
	if (width < 20) return false;
	let t = text;
	if (ctx.measureText(t).width > width - 4) {
		while (t.length > 1 && ctx.measureText(t + '…').width > width - 4) t = t.slice(0, -1);
		if (t.length <= 1) return false;
		t += '…';
	}
	ctx.fillStyle = color;
	ctx.fillText(t, x + 2, y + ROW_H / 2);
	return true;
}

// The range selection, the selected event, damage and the cursor, over rows and ruler alike.
function drawOverlays(S, ctx, w, h) {
	// outside the trace
	ctx.fillStyle = 'rgba(0,0,0,0.06)';
	const a = xOf(S, 0, w), b = xOf(S, S.meta.duration, w);
	if (a > 0) ctx.fillRect(0, 0, a, h);
	if (b < w) ctx.fillRect(b, 0, w - b, h);
	for (const d of S.meta.damage || []) {
		const x = xOf(S, d.at, w);
		if (x < 0 || x > w) continue;
		ctx.fillStyle = 'rgba(200,0,0,0.08)'; ctx.fillRect(x, 0, w - x, h);
		ctx.fillStyle = '#c00'; ctx.fillRect(x - 1, 0, 2, h);
	}
	const r = S.dragRange || S.range;
	if (r) {
		const a = xOf(S, Math.min(r.t0, r.t1), w), b = xOf(S, Math.max(r.t0, r.t1), w);
		ctx.fillStyle = 'rgba(40,90,220,0.15)'; ctx.fillRect(a, 0, b - a, h);
		ctx.fillStyle = 'rgba(40,90,220,0.8)'; ctx.fillRect(a, 0, 1, h); ctx.fillRect(b - 1, 0, 1, h);
	}
	if (S.selected) {
		const x = xOf(S, S.selected.t, w);
		ctx.fillStyle = '#e07000'; ctx.fillRect(Math.round(x) - 1, 0, 2, h);
	}
}

// The cursor's line, on a canvas of its own over the rows: moving the mouse redraws only it
// and the ruler.
export function drawCursor(S, canvas) {
	const { ctx, h } = fit(canvas);
	if (S.cursorX === null) return;
	ctx.fillStyle = 'rgba(0,0,0,0.35)'; ctx.fillRect(Math.round(S.cursorX), 0, 1, h);
}

export function drawNames(S, canvas) {
	const { ctx, w, h } = fit(canvas);
	ctx.textBaseline = 'middle';
	for (const line of visibleLines(S, h)) {
		const y = line.y - S.scrollY, node = line.node;
		lineBackground(S, ctx, node, y, w);
		const x = 6 + line.depth * 14;
		if (node.children.length) {
			ctx.fillStyle = '#555';
			ctx.font = '10px system-ui, sans-serif';
			ctx.fillText(S.collapsed.has(node.key) && !S.keep ? '▸' : '▾', x - 1, y + ROW_H / 2);
		}
		ctx.font = node.kind === 'group' ? 'bold 12px system-ui, sans-serif'
			: node.kind === 'process' ? '600 12px system-ui, sans-serif'
			: node.kind === 'calls' ? 'italic 11px system-ui, sans-serif' : '12px system-ui, sans-serif';
		ctx.fillStyle = node.kind === 'calls' ? '#666' : '#222';
		let label = node.label;
		const threads = node.children.filter((c) => c.kind === 'thread').length;
		if (node.kind === 'process' && threads) label += `  · ${threads + (node.rowId !== null ? 1 : 0)} threads`;
		ctx.save(); ctx.beginPath(); ctx.rect(0, y, w - 4, ROW_H); ctx.clip();
		ctx.fillText(label, x + 12, y + ROW_H / 2);
		ctx.restore();
	}
}

export function drawRuler(S, canvas) {
	const { ctx, w, h } = fit(canvas);
	const span = S.t1 - S.t0;
	const step = tickStep(span, w, 110);
	const minor = step / 5;
	ctx.fillStyle = '#fafafa'; ctx.fillRect(0, 0, w, h);
	ctx.fillStyle = '#888';
	for (let t = Math.ceil(S.t0 / minor) * minor; t <= S.t1; t += minor) ctx.fillRect(Math.round(xOf(S, t, w)), h - 4, 1, 4);
	ctx.font = '11px system-ui, sans-serif';
	ctx.textBaseline = 'top';
	ctx.fillStyle = '#222';
	for (let t = Math.ceil(S.t0 / step) * step; t <= S.t1; t += step) {
		const x = Math.round(xOf(S, t, w));
		ctx.fillRect(x, h - 10, 1, 10);
		ctx.fillText(fmtRel(t, step), x + 3, 3);
	}
	ctx.fillStyle = '#666';
	ctx.textAlign = 'right';
	ctx.fillText(`span ${fmtDur(span)}`, w - 4, 17);
	ctx.textAlign = 'left';
	if (S.rulerDrag) {
		const a = xOf(S, Math.min(S.rulerDrag.t0, S.rulerDrag.t1), w), b = xOf(S, Math.max(S.rulerDrag.t0, S.rulerDrag.t1), w);
		ctx.fillStyle = 'rgba(0,120,0,0.25)'; ctx.fillRect(a, 0, b - a, h);
	}
	drawOverlays(S, ctx, w, h);
	if (S.cursorX !== null) {
		const t = S.t0 + S.cursorX * span / w;
		const text = fmtRel(t, tickStep(span, w, 1));
		ctx.font = '11px system-ui, sans-serif';
		const tw = ctx.measureText(text).width;
		const x = Math.min(Math.max(S.cursorX - tw / 2, 0), w - tw - 4);
		ctx.fillStyle = '#333'; ctx.fillRect(x - 2, 16, tw + 6, 15);
		ctx.fillStyle = '#fff'; ctx.fillText(text, x + 1, 18);
	}
}

// The event-rate strip: one line per class, all on one scale (the busiest bin's count).
export function drawRate(S, canvas) {
	const { ctx, w, h } = fit(canvas);
	const r = S.rate;
	if (!r || !r.series.length) return;
	let max = 1;
	for (const s of r.series) for (const c of s.counts) if (c > max) max = c;
	const x0 = xOf(S, r.t0, w), x1 = xOf(S, r.t1, w);
	const bw = (x1 - x0) / r.bins;
	r.series.forEach((s) => {
		ctx.strokeStyle = classColor(s.class);
		ctx.fillStyle = classColor(s.class).replace('hsl', 'hsla').replace(')', ',0.12)');
		ctx.beginPath();
		ctx.moveTo(x0, h);
		s.counts.forEach((c, i) => ctx.lineTo(x0 + (i + 0.5) * bw, h - 2 - (c / max) * (h - 6)));
		ctx.lineTo(x1, h);
		ctx.fill(); ctx.stroke();
	});
	ctx.font = '10px system-ui, sans-serif'; ctx.textBaseline = 'top';
	let x = 4;
	const put = (text, color) => {
		const tw = ctx.measureText(text).width;
		ctx.fillStyle = 'rgba(255,255,255,0.8)'; ctx.fillRect(x - 2, 1, tw + 4, 12);
		ctx.fillStyle = color; ctx.fillText(text, x, 2);
		x += tw + 10;
	};
	put(`max ${fmtCount(max)} per ${fmtDur((r.t1 - r.t0) / r.bins)}`, '#666');
	for (const s of r.series) if (x < w - 60) put(S.meta.classes[s.class]?.name ?? `${s.class}`, classColor(s.class));
	drawOverlays(S, ctx, w, h);
}
