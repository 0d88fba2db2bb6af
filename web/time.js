// Times in the page are ns relative to the trace's start (numbers); the absolute origin is a
// decimal string of ns (it does not fit a double), handled with BigInt.

const UNITS = [[1e9, 's'], [1e6, 'ms'], [1e3, 'µs'], [1, 'ns']];

// A duration, short: "1.25 ms", "340 ns", "12.0 s".
export function fmtDur(ns) {
	const a = Math.abs(ns);
	for (const [f, u] of UNITS) {
		if (a >= f || f === 1) {
			const v = ns / f;
			const digits = Math.abs(v) >= 100 || f === 1 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
			return (f === 1 ? Math.round(v) : v.toFixed(digits)) + ' ' + u;
		}
	}
	return ns + ' ns';
}

// A relative time as seconds with its digits in groups of three (ms, µs, ns), as many
// groups as `step` needs: step 1 ms → "1.234 s", step 10 ns → "1.234 567 89 s".
export function fmtRel(ns, step = 1) {
	const neg = ns < 0;
	let v = Math.round(Math.abs(ns));
	const sec = Math.floor(v / 1e9);
	const frac = String(v - sec * 1e9).padStart(9, '0');
	let digits = 9;
	while (digits > 0 && step >= 10 ** (10 - digits)) digits--;
	const groups = [];
	for (let i = 0; i < digits; i += 3) groups.push(frac.slice(i, Math.min(i + 3, digits)));
	return (neg ? '−' : '') + sec + (digits ? '.' + groups.join('\u2009') : '') + ' s';
}

// Precise relative time for tooltips and the selection: every ns digit.
export const fmtExact = (ns) => fmtRel(ns, 1);

// Tick step for a range over `width` px with labels at least `minPx` apart: 1, 2 or 5 × 10^k ns.
export function tickStep(span, width, minPx) {
	const raw = Math.max(span * minPx / Math.max(width, 1), 1);
	let p = 10 ** Math.floor(Math.log10(raw));
	for (const m of [1, 2, 5, 10]) if (p * m >= raw) return p * m;
	return p * 10;
}

// The absolute origin (ns since the clock's origin, a string): as a UTC date when it looks
// like the Unix epoch (after 1990), else as plain ns.
export function fmtOrigin(origin) {
	let ns;
	try { ns = BigInt(origin); } catch (e) { return String(origin); }
	const sec = ns / 1000000000n, rem = ns % 1000000000n;
	if (sec < 631152000n || sec > 32503680000n) return `${origin} ns`;
	const d = new Date(Number(sec) * 1000);
	const iso = d.toISOString().slice(0, 19).replace('T', ' ');
	return `${iso}.${String(rem).padStart(9, '0')} UTC`;
}
