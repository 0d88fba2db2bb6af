// The HTML around the canvases: legend, banner, loading note, event list, the selected
// event's text, the range statistics, the tooltip.
import { STATE_COLORS, STATE_LABELS } from './draw.js';
import { fmtRel, fmtExact, fmtDur, fmtOrigin } from './time.js';

const $ = (id) => document.getElementById(id);

export function showLoading(text) {
	const el = $('loading');
	el.hidden = !text;
	el.textContent = text || '';
}

export function showHeader(meta) {
	const title = $('title');
	title.textContent = `spoor view: ${meta.traces.join(', ')}`;
	title.title = `cache: ${meta.cache}`;
	const legend = $('legend');
	legend.textContent = '';
	for (const s of meta.states) {
		const span = document.createElement('span');
		const sw = document.createElement('i');
		sw.style.background = STATE_COLORS[s.name] || STATE_COLORS.unknown;
		span.append(sw, STATE_LABELS[s.name] || s.name);
		span.title = `${s.name}: ${s.label || ''}`;
		legend.append(span);
	}
	if (meta.classes.some((c) => c.user)) {
		const m = document.createElement('span');
		m.textContent = '▼ user-space event';
		legend.append(m);
	}
	if (meta.functions && meta.functions.length) {
		const f = document.createElement('span');
		const sw = document.createElement('i');
		sw.style.background = 'linear-gradient(90deg, hsl(30,65%,72%), hsl(200,65%,72%), hsl(290,65%,72%))';
		f.append(sw, 'function call (colour: its name)');
		f.title = 'flame rows under a thread: its calls, a row per depth';
		legend.append(f);
	}
	if (meta.lost) {
		const l = document.createElement('span');
		l.textContent = `${meta.lost} events lost`;
		l.style.color = '#c00';
		legend.append(l);
	}
	$('origin').textContent = `0 = ${fmtOrigin(meta.origin)}`;
	$('origin').title = `origin: ${meta.origin} ns; every time on the page is relative to it`;
	const sel = $('rate-class');
	meta.classes.forEach((c, i) => {
		const o = document.createElement('option');
		o.value = String(i);
		o.textContent = c.name;
		sel.append(o);
	});
}

// The banner's text: where and why the trace is damaged, and errors. null: no banner.
export function bannerText(meta, error) {
	const lines = (meta ? meta.damage || [] : []).map((d) =>
		`Damaged trace: shown up to ${fmtRel(d.at)} (relative); at that point: ${d.text}`);
	if (error) lines.push(`Error: ${error}`);
	return lines.length ? lines.join('\n') : null;
}

export function showBanner(text) {
	const b = $('banner');
	b.hidden = !text;
	b.textContent = text || '';
}

// An event's line: spoor dump's, and for a function's entry or exit the function its address
// names (api/events' `function`, as the flame rows and spoor graph name it), after the
// address as objdump writes a call's target: `addr=0x4011D6 <main>`; not for an address
// that no object of the load map holds (named by itself).
export function eventLine(ev) {
	if (!ev.function || /^0x[0-9a-f]+$/i.test(ev.function)) return ev.text;
	const named = ev.text.replace(/\baddr=0x[0-9A-Fa-f]+/, (a) => `${a} <${ev.function}>`);
	return named !== ev.text ? named : `${ev.text} <${ev.function}>`;
}

// The event list; `onPick(ev)` when a line is clicked.
export function showEvents(events, more, note, selected, onPick) {
	const list = $('events');
	list.textContent = '';
	const frag = document.createDocumentFragment();
	events.forEach((ev) => {
		const d = document.createElement('div');
		d.className = 'ev' + (sameEvent(ev, selected) ? ' sel' : '');
		d.textContent = eventLine(ev);
		d.addEventListener('click', () => onPick(ev));
		frag.append(d);
	});
	list.append(frag);
	$('events-head').textContent = (more ? `Events: first ${events.length} shown` : `Events: ${events.length}`)
		+ ' in the visible range' + (note ? ` (${note})` : '');
}


export const sameEvent = (a, b) => !!a && !!b && a.t === b.t && a.name === b.name && a.tid === b.tid && a.cpu === b.cpu;

// the API's -1 (a user-space event's CPU, an event without a thread): unknown
const known = (v) => (v === undefined || v === null || v < 0 ? '?' : v);

export function showSelected(ev) {
	$('selected').textContent = ev
		? `${ev.name}\nat ${fmtExact(ev.t)}  cpu ${known(ev.cpu)}  tid ${known(ev.tid)}\n\n${eventLine(ev)}`
		: '';
}

// A call clicked on a flame row, in the selected event's place.
export function showCall(text) {
	$('selected').textContent = text;
}

export function showStats(range, stats, tids, error) {
	const head = $('stats-head');
	if (!range) { head.textContent = 'Range statistics (shift+drag on the rows)'; $('stats').textContent = ''; return; }
	head.textContent = `Range ${fmtExact(range.t0)} – ${fmtExact(range.t1)} (${fmtDur(range.t1 - range.t0)}), `
		+ (tids.length ? `tids ${tids.join(', ')}` : 'all threads');
	$('stats').textContent = error ? `Error: ${error}`
		: !stats ? 'computing…'
		: `== sched ==\n${stats.sched}\n== irq ==\n${stats.irq}\n== syscalls ==\n${stats.syscalls}`;
}

export function tooltip(x, y, text) {
	const t = $('tooltip');
	if (!text) { t.hidden = true; return; }
	t.hidden = false;
	t.textContent = text;
	const r = t.getBoundingClientRect();
	t.style.left = Math.min(x + 14, window.innerWidth - r.width - 4) + 'px';
	t.style.top = Math.min(y + 16, window.innerHeight - r.height - 4) + 'px';
}
