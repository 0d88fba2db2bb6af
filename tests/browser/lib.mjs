// What every browser test uses: the Chromium that run.sh started (CHROME_WS), the page of the
// `spoor view` that run.sh started (VIEW_URL), counters and the closing line, the trace's
// own numbers from the spoor command (SPOOR), and the page's canvas pixels.
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import puppeteer from 'puppeteer-core';

export const env = (name) => {
	const v = process.env[name];
	if (!v) throw new Error(`${name} is not set (tests/browser/run.sh sets it)`);
	return v;
};

let passed = 0, failed = 0;
export function check(what, ok, detail) {
	if (ok) {
		passed++;
		console.log(`ok - ${what}`);
	} else {
		failed++;
		console.log(`FAIL - ${what}${detail === undefined ? '' : `: ${detail}`}`);
	}
	return ok;
}
// the closing line run.sh adds up; exit 1 on any failure
export function finish() {
	console.log(`${passed} passed, ${failed} failed`);
	process.exit(failed ? 1 : 0);
}
// a test file's body: an exception is one failure, not a crash without the closing line
export async function main(body) {
	let browser;
	try {
		browser = await puppeteer.connect({
			browserWSEndpoint: env('CHROME_WS'),
			defaultViewport: { width: 1200, height: 800 },
			protocolTimeout: 120000,
		});
		await body(browser);
	} catch (e) {
		check('the test ran to its end', false, e && e.stack || e);
	} finally {
		if (browser) await browser.disconnect();
	}
	finish();
}

// `spoor ARGS...`'s standard output (status 1, a damaged trace, still gives its output)
export function spoor(args) {
	try {
		return execFileSync(env('SPOOR'), args, { encoding: 'utf8', maxBuffer: 1 << 28 });
	} catch (e) {
		if (e.status === 1 && e.stdout) return e.stdout;
		throw e;
	}
}

// GET a path exactly as written (no URL normalisation: `..` stays): {status, body}
export function rawGet(base, path) {
	const u = new URL(base);
	return new Promise((resolve, reject) => {
		const req = http.request({ host: u.hostname, port: u.port, path, method: 'GET' }, (res) => {
			let body = '';
			res.setEncoding('utf8');
			res.on('data', (d) => { body += d; });
			res.on('end', () => resolve({ status: res.statusCode, body, type: res.headers['content-type'] }));
		});
		req.on('error', reject);
		req.end();
	});
}
export async function getJSON(url) {
	const r = await fetch(url);
	if (r.status !== 200) throw new Error(`GET ${url}: ${r.status}`);
	return r.json();
}

// A new page (its own browser context: no cache or storage shared with the other tests) on
// the view, after its first picture. Collects the page's errors in page.errors. before(page):
// called before the page loads (to watch its requests from the start).
export async function openView(browser, url, before) {
	const context = await browser.createBrowserContext();
	const page = await context.newPage();
	if (before) before(page);
	page.errors = [];
	page.on('pageerror', (e) => page.errors.push(String(e)));
	page.on('console', (m) => { if (m.type() === 'error') page.errors.push(m.text()); });
	await page.goto(url, { waitUntil: 'load', timeout: 120000 });
	await page.waitForFunction(() => Boolean(window.spoorView), { timeout: 120000 });
	await page.evaluate(() => window.spoorView.ready);
	await idle(page);
	return page;
}
export const idle = (page) => page.evaluate(() => window.spoorView.idle());
export const state = (page) => page.evaluate(() => window.spoorView.state());

// How many pixels of the canvas's band [y, y + height) (CSS pixels, the hook's row
// coordinates) differ from the band's most common colour (the background): drawn rects.
export async function inkInBand(canvas, y, height) {
	return canvas.evaluate((c, y, height) => {
		const sx = c.width / c.getBoundingClientRect().width;
		const sy = c.height / c.getBoundingClientRect().height;
		const y0 = Math.max(0, Math.floor(y * sy)), y1 = Math.min(c.height, Math.ceil((y + height) * sy));
		if (y1 <= y0) return 0;
		const d = c.getContext('2d').getImageData(0, y0, c.width, y1 - y0).data;
		const count = new Map();
		for (let i = 0; i < d.length; i += 4) {
			const k = (d[i] << 24 | d[i + 1] << 16 | d[i + 2] << 8 | d[i + 3]) >>> 0;
			count.set(k, (count.get(k) || 0) + 1);
		}
		let most = 0;
		for (const n of count.values()) most = Math.max(most, n);
		return d.length / 4 - most;
	}, y, height);
}

// The responses to api/NAME the page gets from now on, parsed: [{url, params, json}]
export function watchApi(page, name) {
	const got = [];
	page.on('response', async (r) => {
		const u = new URL(r.url());
		if (!u.pathname.endsWith('/api/' + name) || r.status() !== 200) return;
		try {
			got.push({ url: u, params: Object.fromEntries(u.searchParams), json: await r.json() });
		} catch { /* a response of a page that went away */ }
	});
	return got;
}
