// The README's two pictures (not a test; run by hand, as root, after a build):
//   node tests/browser/screenshots.mjs [BUILD]   (BUILD: the build folder, default build)
// docs/view-control-flow.png: the control-flow view of the demo trace (what demo.sh records:
//   spoor record -k sched,syscalls -- build/hello 1000 4), hello's threads (the search box),
//   zoomed on hello's life (a drag on the ruler), an event selected;
// docs/view-resources.png: the resource view (the CPUs) of ../shared/traces/lttng/many-threads,
//   a range's statistics (shift+drag).
// 1200x700, made smaller with pngquant and optipng when they are installed (apt-get install
// pngquant optipng: only for making these files).
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import puppeteer from 'puppeteer-core';

const top = resolve(new URL('../..', import.meta.url).pathname);
const build = resolve(process.argv[2] || join(top, 'build'));
const spoor = join(build, 'spoor');
const work = mkdtempSync(join(tmpdir(), 'spoor-demo.')); // demo.sh's name: the page shows it
const size = { width: 1200, height: 700 };

// spoor view TRACE until stop(): its URL
function serve(trace) {
	const proc = spawn(spoor, ['view', trace], { stdio: ['ignore', 'pipe', 'inherit'] });
	let text = '';
	return new Promise((res, rej) => {
		proc.stdout.on('data', (d) => {
			text += d;
			const m = text.match(/http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32}\//);
			if (m) res({ url: m[0], stop: () => new Promise((r) => { proc.on('exit', r); proc.kill(); }) });
		});
		proc.on('exit', (c) => rej(new Error(`spoor view ${trace} exited ${c}`)));
	});
}
const st = (page) => page.evaluate(() => window.spoorView.state());
const idle = (page) => page.evaluate(() => window.spoorView.idle());

async function open(browser, trace) {
	const server = await serve(trace);
	const page = await browser.newPage();
	await page.setViewport(size);
	await page.goto(server.url, { waitUntil: 'load' });
	await page.waitForFunction(() => Boolean(window.spoorView));
	await page.evaluate(() => window.spoorView.ready);
	await idle(page);
	return { page, server };
}
// a click on a group's header ("Resources" first, "Control flow" after the CPUs): collapses it
async function toggleGroup(page, y) {
	const s = await st(page);
	await page.mouse.click(s.names.x + 10, s.names.y + y + 10);
	await idle(page);
}
// a click on the first line of the event list (the view centres on its event)
async function pickEvent(page) {
	await page.click('#events .ev');
	await idle(page);
}
// shift+drag over the rows from 35% to 55% of the width, at height y (rows canvas)
async function selectRange(page, y) {
	const s = await st(page);
	await page.keyboard.down('Shift');
	await page.mouse.move(s.canvas.x + s.canvas.width * 0.35, s.canvas.y + y);
	await page.mouse.down();
	await page.mouse.move(s.canvas.x + s.canvas.width * 0.55, s.canvas.y + y, { steps: 5 });
	await page.mouse.up();
	await page.keyboard.up('Shift');
	await idle(page);
}
async function shoot(page, file) {
	await page.mouse.move(0, 0);
	await idle(page);
	await page.screenshot({ path: file });
	// smaller: a palette (pngquant, lossy but invisible on a UI), then optipng; each if installed
	for (const [tool, args] of [['pngquant', ['--quality=70-95', '--speed=1', '--force', '--ext=.png', file]],
		['optipng', ['-quiet', '-o5', file]]]) {
		try {
			execFileSync(tool, args);
		} catch (e) {
			if (e.code === 'ENOENT') console.log(`${tool} is not installed (apt-get install ${tool}): skipped`);
			else throw e;
		}
	}
	console.log(file);
}

const browser = await puppeteer.launch({
	executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
	userDataDir: join(work, 'chrome'), args: ['--no-sandbox', '--disable-gpu', '--hide-scrollbars'],
});
try {
	// the demo trace: Resources collapsed, the view dragged on the ruler to hello's life
	const demo = join(work, 'trace');
	execFileSync(spoor, ['record', '-k', 'sched,syscalls', '-o', demo, '--', join(build, 'hello'), '1000', '4'],
		{ stdio: 'inherit' });
	let { page, server } = await open(browser, demo);
	await toggleGroup(page, 0);
	await page.type('#search', 'hello');
	await page.keyboard.press('Escape');
	await idle(page);
	await pickEvent(page); // before the zoom: a click centres the view on its event
	const meta = await (await fetch(server.url + 'api/meta')).json();
	const hello = meta.rows.filter((r) => r.kind === 'thread' && r.name === 'hello');
	let s = await st(page);
	const x = (t) => s.ruler.x + (t - s.t0) / (s.t1 - s.t0) * s.ruler.width;
	const y = s.ruler.y + s.ruler.height / 2;
	const from = Math.min(...hello.map((r) => r.first)), to = Math.max(...hello.map((r) => r.last));
	const pad = (to - from) / 20;
	await page.mouse.move(x(from - pad), y);
	await page.mouse.down();
	await page.mouse.move(x(to + pad), y, { steps: 5 });
	await page.mouse.up();
	await idle(page);
	await shoot(page, join(top, 'docs', 'view-control-flow.png'));
	await server.stop();

	// many-threads (a copy: its cache goes beside it): Control flow collapsed
	const mt = join(work, 'many-threads');
	cpSync(join(top, '..', 'shared', 'traces', 'lttng', 'many-threads'), mt, { recursive: true });
	({ page, server } = await open(browser, mt));
	s = await st(page);
	const cpus = s.rows.filter((r) => r.kind === 'cpu');
	await toggleGroup(page, Math.max(...cpus.map((r) => r.y + r.height)));
	await selectRange(page, cpus[0].y + cpus[0].height / 2);
	await shoot(page, join(top, 'docs', 'view-resources.png'));
	await server.stop();
} finally {
	await browser.close();
	rmSync(work, { recursive: true, force: true });
}
