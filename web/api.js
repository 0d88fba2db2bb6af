// Requests to the JSON API (DESIGN18.md), relative to the page so the /TOKEN/ prefix holds,
// and the bookkeeping that tells the test hook when the page is idle.

export class HttpError extends Error {
	constructor(status, body) {
		super(body && body.error ? body.error : `HTTP ${status}`);
		this.status = status;
		this.body = body;
	}
}

export async function getJSON(path, params, signal) {
	const qs = params ? '?' + Object.entries(params)
		.filter(([, v]) => v !== undefined && v !== null && v !== '')
		.map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/g, ',')}`).join('&') : '';
	const r = await fetch(`api/${path}${qs}`, { signal, cache: 'no-store' });
	let body = null;
	try { body = await r.json(); } catch (e) { /* not JSON: the status says enough */ }
	if (!r.ok) throw new HttpError(r.status, body);
	return body;
}

// Counts work in flight (debounced calls, requests, a frame to draw); idle() resolves when
// it reaches zero.
export class Tracker {
	constructor() { this.n = 0; this.waiters = []; }
	inc() { this.n++; }
	dec() {
		if (--this.n > 0) return;
		this.n = 0;
		// let whatever the last answer triggers (a draw, a follow-up request) register first
		setTimeout(() => {
			if (this.n) return;
			const w = this.waiters; this.waiters = [];
			w.forEach((f) => f());
		}, 0);
	}
	idle() {
		if (this.n === 0) return Promise.resolve();
		return new Promise((res) => this.waiters.push(res));
	}
}

// One kind of request where only the latest matters: a new call debounces, aborts the one in
// flight, and an answer that is no longer the latest is dropped.
export class Latest {
	constructor(tracker, delay, run, apply, fail) {
		Object.assign(this, { tracker, delay, run, apply, fail });
		this.seq = 0; this.timer = null; this.ctl = null;
	}
	call() {
		const seq = ++this.seq;
		if (this.timer) clearTimeout(this.timer); else this.tracker.inc();
		this.timer = setTimeout(() => { this.timer = null; this.send(seq); }, this.delay);
	}
	now() {
		if (this.timer) { clearTimeout(this.timer); this.timer = null; this.tracker.dec(); }
		this.send(++this.seq, true);
	}
	async send(seq, fresh) {
		if (fresh) this.tracker.inc();
		if (this.ctl) this.ctl.abort();
		const ctl = this.ctl = new AbortController();
		try {
			const res = await this.run(ctl.signal);
			if (seq === this.seq) this.apply(res);
		} catch (e) {
			if (seq === this.seq && e.name !== 'AbortError') this.fail(e);
		} finally {
			if (this.ctl === ctl) this.ctl = null;
			this.tracker.dec();
		}
	}
}
