// bench/view.sh's browser side: node bench/view-client.mjs SPOOR TRACE OUT.json
// Starts Chromium (headless, a private profile) and measures, printing one JSON object:
// - first: `spoor view TRACE` started → the page's first picture (window.spoorView.ready),
//   cold (the cache deleted first, where api/meta says it is) and warm (the cache fresh);
// - requests: at several zoom levels and places, the time of the API requests a zoom or pan
//   makes (spans and marks of the rows on screen, rate, events), three times each, timed as
//   curl would (a connection each, on loopback: the server's time plus a fraction of a ms),
//   and the server's CPU time per request (/proc/PID/stat, a mean over the 15 of a kind);
// - the server's CPU time (its cache builder's included) to the first picture;
// - memory: the server's VmHWM/RssAnon after all that (/proc), and the page's JS heap after
//   its first picture and after many wheel zooms and drags (CDP, after a garbage collection).
// puppeteer-core from tests/browser/node_modules (npm ci --prefix tests/browser).
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const require = createRequire(new URL('../tests/browser/package.json', import.meta.url));
const puppeteer = require('puppeteer-core');
const [spoor, trace, out] = process.argv.slice(2);
if (!out) throw new Error('usage: view-client.mjs SPOOR TRACE OUT.json');
const chromium = process.env.CHROMIUM || '/usr/bin/chromium';
const now = () => performance.now();

// spoor view TRACE: resolves {proc, url, urlAt} once it prints its URL
function serve() {
	const t = now();
	const proc = spawn(spoor, ['view', trace], { stdio: ['ignore', 'pipe', 'pipe'] });
	const builder = watchChildren(proc.pid);
	let text = '';
	return new Promise((resolve, reject) => {
		proc.stdout.on('data', (d) => {
			text += d;
			const m = text.match(/http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}\//);
			if (m) resolve({ proc, builder, url: m[0], urlAt: now() - t, start: t });
		});
		proc.stderr.on('data', (d) => process.stderr.write(d));
		proc.on('exit', (c) => {
			clearInterval(builder.timer);
			reject(new Error(`spoor view exited ${c} before printing its URL`));
		});
	});
}
// CPU seconds of a process, its threads (those ended too) and its waited-for children
function cpu(pid) {
	const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
	return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100; // fields 14-17, ticks
}
const stop = (proc) => new Promise((res) => { proc.on('exit', res); proc.kill('SIGTERM'); });
const status = (pid) => Object.fromEntries(readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')
	.map((l) => l.match(/^(\w+):\s+(\d+) kB/)).filter(Boolean).map((m) => [m[1], Number(m[2]) * 1024]));

// the largest VmHWM of the server's children (the cache's builder, forked by any of its
// threads), sampled every 20 ms
function watchChildren(pid) {
	const peak = { bytes: 0 };
	const tick = () => {
		try {
			for (const task of readdirSync(`/proc/${pid}/task`)) {
				for (const c of readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean)) {
					try { peak.bytes = Math.max(peak.bytes, status(c).VmHWM || 0); } catch { /* gone */ }
				}
			}
		} catch { /* the server is gone */ }
	};
	peak.timer = setInterval(tick, 20);
	return peak;
}

async function firstPicture(page) {
	const s = await serve();
	await page.goto(s.url, { waitUntil: 'load', timeout: 600000 });
	await page.waitForFunction(() => Boolean(window.spoorView), { timeout: 600000 });
	await page.evaluate(() => window.spoorView.ready);
	clearInterval(s.builder.timer);
	return { ...s, first: now() - s.start, builder_hwm: s.builder.bytes, cpu: cpu(s.proc.pid) };
}

// one GET on a connection of its own, as curl makes it: milliseconds to the whole answer
function timed(url) {
	const t = now();
	return new Promise((resolve, reject) => {
		http.get(url, { agent: false }, (r) => {
			r.on('data', () => {});
			r.on('end', () => (r.statusCode === 200 ? resolve(now() - t) : reject(new Error(`${url}: ${r.statusCode}`))));
		}).on('error', reject);
	});
}

const profile = mkdtempSync(join(tmpdir(), 'spoor-bench-chrome.'));
const browser = await puppeteer.launch({
	executablePath: chromium, headless: true, userDataDir: profile,
	args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
	defaultViewport: { width: 1200, height: 800 }, protocolTimeout: 600000,
});
const res = {};
try {
	const page = await browser.newPage();
	// cold: the cache deleted, wherever the server keeps it (beside the trace, or in the
	// user's cache folder when the trace's folder is not writable)
	const probe = await serve();
	let meta0;
	for (;;) {
		const r = await fetch(probe.url + 'api/meta');
		if (r.status === 200) { meta0 = await r.json(); break; }
		await new Promise((res) => setTimeout(res, 200));
	}
	clearInterval(probe.builder.timer);
	await stop(probe.proc);
	rmSync(meta0.cache, { force: true });
	const cold = await firstPicture(page);
	res.cold = { url_s: cold.urlAt / 1e3, first_s: cold.first / 1e3, builder_hwm: cold.builder_hwm, cpu_s: cold.cpu };
	await stop(cold.proc);
	const warm = await firstPicture(page);
	res.warm = { url_s: warm.urlAt / 1e3, first_s: warm.first / 1e3, cpu_s: warm.cpu };
	const { proc, url } = warm;
	const cdp = await page.createCDPSession();
	const heap = async () => {
		await cdp.send('HeapProfiler.collectGarbage');
		return (await cdp.send('Runtime.getHeapUsage')).usedSize;
	};
	res.heap_first = await heap();

	// the API requests of a view: the rows on screen at several zoom levels and places
	const meta = await (await fetch(url + 'api/meta')).json();
	const st = await page.evaluate(() => window.spoorView.state());
	const rows = st.rows.filter((r) => r.y >= 0 && r.y < st.canvas.height).map((r) => r.id);
	const threads = rows.filter((id) => meta.rows.find((r) => r.id === id).kind === 'thread');
	const px = Math.round(st.canvas.width);
	const d = meta.duration;
	res.rows = meta.rows.length;
	res.rows_on_screen = rows.length;
	res.levels = [];
	const median = (v) => v.slice().sort((a, b) => a - b)[v.length >> 1];
	for (let span = d; span >= 1000; span /= 10) {
		const level = { span };
		const ask = {
			spans: (q) => `${url}api/spans?rows=${rows.join(',')}&${q}&px=${px}`,
			marks: (q) => `${url}api/marks?rows=${threads.join(',')}&${q}&px=${px}`,
			rate: (q) => `${url}api/rate?${q}&bins=400`,
			events: (q) => `${url}api/events?${q}&limit=500`,
		};
		for (const [name, make] of Object.entries(ask)) {
			const times = [], c0 = cpu(proc.pid);
			for (const where of [0, 0.25, 0.5, 0.75, 1]) {
				const t0 = Math.floor(where * (d - span)), t1 = Math.ceil(t0 + span);
				for (let k = 0; k < 3; k++) times.push(await timed(make(`t0=${t0}&t1=${t1}`)));
			}
			// the server's CPU per request: 10 ms ticks over the 15 requests
			level[name] = { max: Math.max(...times), median: median(times), cpu_ms: (cpu(proc.pid) - c0) * 1e3 / times.length };
		}
		res.levels.push(level);
	}

	// the page after many zooms and drags: its heap, against the first picture's
	const c = st.canvas;
	await page.mouse.move(c.x + c.width / 2, c.y + c.height / 2);
	for (let round = 0; round < 10; round++) {
		for (let i = 0; i < 10; i++) {
			await page.mouse.wheel({ deltaY: -300 });
			await page.evaluate(() => window.spoorView.idle());
		}
		for (let i = 0; i < 5; i++) {
			await page.mouse.down();
			await page.mouse.move(c.x + c.width / 4, c.y + c.height / 2, { steps: 4 });
			await page.mouse.up();
			await page.mouse.move(c.x + c.width / 2, c.y + c.height / 2);
			await page.evaluate(() => window.spoorView.idle());
		}
		await page.keyboard.press('0');
		await page.evaluate(() => window.spoorView.idle());
	}
	res.page_operations = 10 * 16;
	res.heap_after = await heap();
	res.server = status(proc.pid);
	res.cache = meta.cache;
	res.cache_bytes = statSync(meta.cache).size;
	await stop(proc);
} finally {
	await browser.close();
	rmSync(profile, { recursive: true, force: true });
}
writeFileSync(out, JSON.stringify(res, null, 1));
