// The page on one trace (VIEW_URL: its `spoor view`, TRACE: the trace, CASE: its name in the
// messages), driven by real mouse and keyboard events, checked against the spoor command on
// the same trace:
// - a row per thread and per CPU that `spoor sched --json` knows, with the same names, each
//   with rects drawn (the page's counts, and pixels in the row's band of the canvas);
// - with MARKS=1, the marks of the threads that have user-space events (`spoor dump`);
// - wheel zoom: the visible span shrinks and spans of the new range arrive, in more detail;
// - drag: the view pans;
// - a click on a line of the event list selects that event and shows its fields;
// - shift+drag: the range's statistics are what `spoor sched|irq|syscalls --begin --end` print.
import { check, main, env, spoor, getJSON, openView, idle, state, rowsCanvas, box, inkInBand,
	watchApi } from './lib.mjs';

const url = env('VIEW_URL'), trace = env('TRACE'), name = env('CASE');
const traces = trace.split(':');
const it = (what) => `${name}: ${what}`;

await main(async (browser) => {
	const meta = await getJSON(url + 'api/meta');
	const sched = JSON.parse(spoor(['sched', '--json', ...traces]));
	const threadRow = new Map(), cpuRow = new Map();
	for (const r of meta.rows) (r.kind === 'cpu' ? cpuRow.set(r.cpu, r) : threadRow.set(r.tid, r));

	// the rows the trace calls for, with spoor sched's names
	const missing = sched.threads.filter((t) => !threadRow.has(t.tid)).map((t) => t.tid);
	check(it(`api/meta has a row for each of spoor sched's ${sched.threads.length} threads`),
		missing.length === 0, `no row for tids ${missing.join(' ')}`);
	const renamed = sched.threads.filter((t) => threadRow.has(t.tid) && threadRow.get(t.tid).name !== t.name);
	check(it('thread rows are named as spoor sched names them'), renamed.length === 0,
		renamed.map((t) => `${t.tid}: ${t.name} vs ${threadRow.get(t.tid).name}`).join(', '));
	const nocpu = sched.cpus.filter((c) => !cpuRow.has(c.cpu)).map((c) => c.cpu);
	check(it(`api/meta has a row for each of the ${sched.cpus.length} CPUs`), nocpu.length === 0,
		`no row for CPUs ${nocpu.join(' ')}`);

	const page = await openView(browser, url);
	const canvas = await rowsCanvas(page);
	const cbox = await box(canvas);
	let st = await state(page);
	check(it('the view starts on the whole trace'), st.t0 <= 0 && st.t1 >= meta.duration,
		`t0 ${st.t0} t1 ${st.t1}, duration ${meta.duration}`);
	const shown = new Map(st.rows.map((r) => [r.id, r]));
	const want = [...sched.threads.map((t) => threadRow.get(t.tid)), ...sched.cpus.map((c) => cpuRow.get(c.cpu))]
		.filter(Boolean);
	const absent = want.filter((r) => !shown.has(r.id));
	check(it(`the page lists the ${want.length} rows`), absent.length === 0,
		`not listed: ${absent.map((r) => r.name || 'cpu ' + r.cpu).join(', ')}`);
	// the rows on screen (a long list scrolls): rects drawn, and pixels in their band
	const onScreen = want.filter((r) => shown.has(r.id) && shown.get(r.id).y >= 0 &&
		shown.get(r.id).y + shown.get(r.id).height <= cbox.height);
	check(it('rows on screen'), onScreen.length > 0);
	const undrawn = [], blank = [];
	for (const r of onScreen) {
		if (!(st.drawn[r.id] > 0)) undrawn.push(r);
		const s = shown.get(r.id);
		if (!(await inkInBand(canvas, s.y, s.height) > 0)) blank.push(r);
	}
	const names = (rows) => rows.map((r) => (r.kind === 'cpu' ? 'cpu ' + r.cpu : `${r.name} ${r.tid}`)).join(', ');
	check(it(`rects drawn in each of the ${onScreen.length} rows on screen (the page's counts)`),
		undrawn.length === 0, `none in ${names(undrawn)}`);
	check(it('each row on screen has pixels drawn in its band of the canvas'), blank.length === 0,
		`blank: ${names(blank)}`);

	if (process.env.MARKS === '1') {
		// the threads with user-space events, from spoor dump's ftrace format (TASK-TID)
		const tids = new Set();
		for (const m of spoor(['dump', '--format=ftrace', ...meta.classes.filter((c) => c.user).flatMap((c) => ['-e', c.name]), ...traces])
			.matchAll(/^\s*\S*-(\d+)\s+\[/gm)) tids.add(Number(m[1]));
		check(it('the trace has user-space events'), tids.size > 0);
		const nomarks = [...tids].filter((t) => !threadRow.has(t) || !(st.marks[threadRow.get(t).id] > 0));
		check(it(`marks drawn on each of the ${tids.size} threads with user-space events`),
			nomarks.length === 0, `none on tids ${nomarks.join(' ')}`);
	}

	// wheel zoom at the middle of the rows: a narrower range, its spans asked for and drawn
	const spans = watchApi(page, 'spans');
	const mid = { x: cbox.x + cbox.width / 2, y: cbox.y + Math.min(cbox.height / 2, 40) };
	await page.mouse.move(mid.x, mid.y);
	const before = st;
	for (let i = 0; i < 3; i++) {
		await page.mouse.wheel({ deltaY: -300 });
		await idle(page);
	}
	st = await state(page);
	check(it('wheel up zooms in: t1 - t0 shrinks'), st.t1 - st.t0 < before.t1 - before.t0,
		`${before.t1 - before.t0} -> ${st.t1 - st.t0}`);
	check(it('the zoom keeps the time under the cursor in view'),
		st.t0 >= before.t0 && st.t1 <= before.t1 && st.t0 < (before.t0 + before.t1) / 2 + (before.t1 - before.t0) / 4);
	const fresh = spans.filter((s) => Number(s.params.t0) === st.t0 && Number(s.params.t1) === st.t1);
	check(it('api/spans was asked for the new range'), fresh.length > 0,
		`asked: ${spans.map((s) => s.params.t0 + '..' + s.params.t1).join(' ')}; view ${st.t0}..${st.t1}`);
	const rects = fresh.flatMap((s) => s.json.rows.flatMap((r) => r.rects));
	check(it('the new range brought rects, all within it'), rects.length > 0 &&
		rects.every((r) => r[1] >= st.t0 && r[0] <= st.t1));
	check(it('and the page drew them'), Object.values(st.drawn).reduce((a, b) => a + b, 0) > 0);
	// deeper: fewer spans merged into each rect (level of detail)
	const merged = (list) => {
		const all = list.flatMap((s) => s.json.rows.flatMap((r) => r.rects));
		return all.reduce((a, r) => a + r[4], 0) / Math.max(1, all.length);
	};
	const wholeMerge = merged(spans.length ? [spans[0]] : []);
	for (let i = 0; i < 6; i++) {
		await page.mouse.wheel({ deltaY: -300 });
		await idle(page);
	}
	st = await state(page);
	const deep = spans.filter((s) => Number(s.params.t0) === st.t0 && Number(s.params.t1) === st.t1);
	check(it('deeper zoom: spans per rect go down (more detail)'),
		deep.length > 0 && merged(deep) <= wholeMerge && (wholeMerge === 1 || merged(deep) < wholeMerge),
		`${wholeMerge} -> ${merged(deep)}`);

	// drag (no shift): pan, same width
	const w0 = st.t1 - st.t0, p0 = st.t0;
	await page.mouse.move(mid.x, mid.y);
	await page.mouse.down();
	await page.mouse.move(mid.x - cbox.width / 5, mid.y, { steps: 5 });
	await page.mouse.up();
	await idle(page);
	st = await state(page);
	check(it('dragging left pans to later times, same width'),
		st.t0 > p0 && Math.abs((st.t1 - st.t0) - w0) <= Math.max(2, w0 / 1000), `t0 ${p0} -> ${st.t0}, width ${w0} -> ${st.t1 - st.t0}`);

	// back to the whole trace (key 0), then an event of the list
	await page.keyboard.press('0');
	await idle(page);
	st = await state(page);
	check(it('key 0 shows the whole trace again'), st.t0 <= 0 && st.t1 >= meta.duration);
	check(it('the event list has events'), st.events.length > 0);
	await clickEvent(page, st, it);

	// shift+drag over the middle of the first row: that range's statistics
	const stats = watchApi(page, 'stats');
	const row0 = st.rows.find((r) => r.y >= 0);
	const ry = cbox.y + row0.y + row0.height / 2;
	await page.keyboard.down('Shift');
	await page.mouse.move(cbox.x + cbox.width * 0.3, ry);
	await page.mouse.down();
	await page.mouse.move(cbox.x + cbox.width * 0.6, ry, { steps: 6 });
	await page.mouse.up();
	await page.keyboard.up('Shift');
	await idle(page);
	await page.waitForFunction(() => window.spoorView.state().stats, { timeout: 60000 });
	st = await state(page);
	check(it('shift+drag keeps the view'), st.t0 <= 0 && st.t1 >= meta.duration);
	check(it('shift+drag asked for the range statistics'), stats.length > 0);
	if (stats.length) {
		const p = stats[stats.length - 1].params;
		const t0 = BigInt(p.t0), t1 = BigInt(p.t1), origin = BigInt(meta.origin);
		check(it(`the range ${p.t0}..${p.t1} is inside the view and not empty`),
			t0 < t1 && Number(t0) >= st.t0 && Number(t1) <= st.t1);
		const args = [`--begin=${origin + t0}`, `--end=${origin + t1}`];
		for (const tid of (p.tids || '').split(',').filter(Boolean)) args.push('--tid=' + tid);
		for (const a of ['sched', 'irq', 'syscalls']) {
			const want = spoor([a, ...args, ...traces]);
			check(it(`the range's ${a} text is \`spoor ${a} ${args.join(' ')}\`'s`), st.stats[a] === want,
				`page:\n${st.stats[a]}\nspoor:\n${want}`);
		}
	}
	check(it('no error on the page'), page.errors.length === 0, page.errors.join('\n'));
	await page.browserContext().close();
});

// Click the first line of the event list: it becomes the selected event, its text shown on
// the page, and it is `spoor dump`'s line of that event. The list's lines: the hook's
// eventLines() (elements, in the order of state().events) if the page has it, else the
// elements whose text is each event's text.
async function clickEvent(page, st, it) {
	const ev = st.events[0];
	const line = await page.evaluateHandle((text) => {
		const h = window.spoorView;
		if (h.eventLines) return h.eventLines()[0];
		let best = null;
		for (const e of document.querySelectorAll('body *')) {
			if (e.children.length === 0 && e.textContent.includes(text)) best = e;
		}
		return best;
	}, ev.text);
	if (!check(it('the event list shows the first event'), line.asElement() !== null)) return;
	await line.asElement().scrollIntoView();
	await line.asElement().click();
	await idle(page);
	const now = await state(page);
	check(it('clicking it selects it'), now.selected && now.selected.t === ev.t && now.selected.text === ev.text,
		JSON.stringify(now.selected));
	check(it('its time is in view (the timeline centred on it)'), ev.t >= now.t0 && ev.t <= now.t1);
	const fields = ev.text.replace(/^.*?: /, '');
	const body = await page.evaluate(() => document.body.innerText);
	check(it('its fields are shown'), fields.length > 0 && body.split(fields).length > 2,
		`"${fields}" shown ${body.split(fields).length - 1} times`);
	const dump = spoor(['dump', ...env('TRACE').split(':')]).split('\n');
	check(it("its text is spoor dump's line"), dump.includes(ev.text), ev.text);
}
