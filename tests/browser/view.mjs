// The page on one trace (VIEW_URL: its `spoor view`, TRACE: the trace, CASE: its name in the
// messages), driven by real mouse and keyboard events, checked against the spoor command on
// the same trace (the page's hook, window.spoorView, and its DOM: docs/view.md):
// - a row per thread and per CPU that `spoor sched --json` knows, with the same names, each
//   with rects drawn (the page's counts, and pixels in the row's band of the canvas);
// - with MARKS=1, the marks of the threads that have user-space events (`spoor dump`);
// - wheel zoom at the cursor: the visible span shrinks around it and spans of the new range
//   arrive, in more detail; drag: the view pans; key 0: the whole trace again;
// - a click on a line of the event list selects that event and shows its fields;
// - shift+drag: the range's statistics are what `spoor sched|irq|syscalls --begin --end`
//   print, for all threads, then for a row selected by a click on its name (--tid).
import { check, main, env, spoor, getJSON, openView, idle, state, inkInBand, watchApi } from './lib.mjs';

const url = env('VIEW_URL'), trace = env('TRACE'), name = env('CASE');
const it = (what) => `${name}: ${what}`;
const rowName = (r) => (r.kind === 'cpu' ? `cpu ${r.cpu}` : `${r.name} ${r.tid}`);
// the range the page asks the server for, for a view t0..t1 (integers inside the trace)
const asked = (st) => [Math.max(0, Math.floor(st.t0)), Math.min(st.duration, Math.ceil(st.t1))];
const forView = (list, st) => list.filter((s) => Number(s.params.t0) === asked(st)[0] &&
	Number(s.params.t1) === asked(st)[1]);
// mean spans per rect in api/spans answers (1: every span whole)
const spansPerRect = (list) => {
	const all = list.flatMap((s) => s.json.rows.flatMap((r) => r.rects));
	return all.reduce((a, r) => a + r[4], 0) / Math.max(1, all.length);
};

await main(async (browser) => {
	const meta = await getJSON(url + 'api/meta');
	const sched = JSON.parse(spoor(['sched', '--json', trace]));
	const threadRow = new Map(), cpuRow = new Map();
	for (const r of meta.rows) (r.kind === 'cpu' ? cpuRow.set(r.cpu, r) : threadRow.set(r.tid, r));

	// the rows the trace calls for, with spoor sched's names
	const missing = sched.threads.filter((t) => !threadRow.has(t.tid));
	check(it(`api/meta has a row for each of spoor sched's ${sched.threads.length} threads`),
		missing.length === 0, `no row for ${JSON.stringify(missing)}`);
	const renamed = sched.threads.filter((t) => threadRow.has(t.tid) && threadRow.get(t.tid).name !== t.name);
	check(it('thread rows are named as spoor sched names them'), renamed.length === 0,
		renamed.map((t) => `${t.tid}: ${t.name} vs ${threadRow.get(t.tid).name}`).join(', '));
	const nocpu = sched.cpus.filter((c) => !cpuRow.has(c.cpu)).map((c) => c.cpu);
	check(it(`api/meta has a row for each of the ${sched.cpus.length} CPUs`), nocpu.length === 0,
		`no row for CPUs ${nocpu.join(' ')}`);

	let spans;
	const page = await openView(browser, url, (p) => { spans = watchApi(p, 'spans'); });
	let st = await state(page);
	const canvas = await page.$('#rows');
	check(it('the view starts on the whole trace'), st.t0 <= 0 && st.t1 >= meta.duration,
		`t0 ${st.t0} t1 ${st.t1}, duration ${meta.duration}`);
	const shown = new Map(st.rows.map((r) => [r.id, r]));
	const want = [...sched.threads.map((t) => threadRow.get(t.tid)), ...sched.cpus.map((c) => cpuRow.get(c.cpu))]
		.filter(Boolean);
	const absent = want.filter((r) => !shown.has(r.id));
	check(it(`the page lays out the ${want.length} rows`), absent.length === 0,
		`not laid out: ${absent.map(rowName).join(', ')}`);
	const labels = want.filter((r) => shown.has(r.id) && !shown.get(r.id).label.includes(r.kind === 'cpu' ? String(r.cpu) : r.name));
	check(it('each row is labelled with its thread name or CPU'), labels.length === 0, labels.map(rowName).join(', '));
	// the rows on screen (a long list scrolls): rects drawn, and pixels in their band
	const onScreen = want.filter((r) => shown.has(r.id) && shown.get(r.id).y >= 0 &&
		shown.get(r.id).y + shown.get(r.id).height <= st.canvas.height);
	check(it(`rows on screen (${onScreen.length})`), onScreen.length > 0);
	const undrawn = [], blank = [];
	for (const r of onScreen) {
		if (!(st.drawn[r.id] > 0)) undrawn.push(r);
		const s = shown.get(r.id);
		if (!(await inkInBand(canvas, s.y, s.height) > 0)) blank.push(r);
	}
	check(it('rects drawn in each row on screen (the page\'s counts)'), undrawn.length === 0,
		`none in ${undrawn.map(rowName).join(', ')}`);
	check(it('each row on screen has pixels drawn in its band of the canvas'), blank.length === 0,
		`blank: ${blank.map(rowName).join(', ')}`);

	if (process.env.MARKS === '1') {
		// the threads with user-space events, from spoor dump's ftrace format (TASK-TID)
		const user = meta.classes.filter((c) => c.user).flatMap((c) => ['-e', c.name]);
		const tids = new Set();
		if (user.length) {
			for (const m of spoor(['dump', '--format=ftrace', ...user, trace]).matchAll(/^\s*\S*-(\d+)\s+\[/gm))
				tids.add(Number(m[1]));
		}
		check(it('the trace has user-space events'), tids.size > 0);
		// each thread found by its tid in the search box (its row may be scrolled out)
		const nomarks = [];
		for (const t of tids) {
			await search(page, String(t));
			const s = await state(page);
			const row = threadRow.get(t);
			const line = row && s.rows.find((r) => r.id === row.id);
			if (!line || line.y < 0 || line.y >= s.canvas.height || !(s.marks[row.id] > 0)) nomarks.push(t);
		}
		check(it(`marks drawn on each of the ${tids.size} threads with user-space events (search: its tid)`),
			nomarks.length === 0, `none on tids ${[...nomarks].join(' ')}`);
		await search(page, '');
		st = await state(page);
	}

	// wheel zoom at a third of the rows: a narrower range around the cursor's time, its
	// spans asked for, drawn, and finer
	const at = { x: st.canvas.x + st.canvas.width / 3, y: st.canvas.y + Math.min(st.canvas.height / 2, 30) };
	const timeAt = (s, x) => s.t0 + (x - s.canvas.x) / s.canvas.width * (s.t1 - s.t0);
	await page.mouse.move(at.x, at.y);
	const whole = st;
	for (let i = 0; i < 3; i++) {
		await page.mouse.wheel({ deltaY: -300 });
		await idle(page);
	}
	st = await state(page);
	check(it('wheel up zooms in: t1 - t0 shrinks'), st.t1 - st.t0 < whole.t1 - whole.t0,
		`${whole.t1 - whole.t0} -> ${st.t1 - st.t0}`);
	const tc0 = timeAt(whole, at.x), tc1 = timeAt(st, at.x);
	check(it('the time under the cursor stays under it'),
		Math.abs(tc1 - tc0) <= (whole.t1 - whole.t0) / whole.canvas.width, `${tc0} -> ${tc1}`);
	let fresh = forView(spans, st);
	check(it('api/spans was asked for the new range'), fresh.length > 0,
		`asked: ${spans.map((s) => s.params.t0 + '..' + s.params.t1).join(' ')}; view ${st.t0}..${st.t1}`);
	const rects = fresh.flatMap((s) => s.json.rows.flatMap((r) => r.rects));
	check(it('the new range brought rects, all within it'), rects.length > 0 &&
		rects.every((r) => r[1] >= asked(st)[0] && r[0] <= asked(st)[1]));
	check(it('and the page drew them'), Object.values(st.drawn).reduce((a, b) => a + b, 0) > 0);
	const first = spansPerRect(forView(spans, whole));
	for (let i = 0; i < 7; i++) {
		await page.mouse.wheel({ deltaY: -300 });
		await idle(page);
	}
	st = await state(page);
	fresh = forView(spans, st);
	check(it('deeper zoom: fewer spans merged per rect (level of detail)'), fresh.length > 0 &&
		(first > 1 ? spansPerRect(fresh) < first : spansPerRect(fresh) === 1),
		`${first} -> ${spansPerRect(fresh)}`);

	// drag (no shift): pan, same width
	const before = st;
	await page.mouse.move(at.x, at.y);
	await page.mouse.down();
	await page.mouse.move(at.x - st.canvas.width / 5, at.y, { steps: 5 });
	await page.mouse.up();
	await idle(page);
	st = await state(page);
	const w = before.t1 - before.t0;
	check(it('dragging left pans to later times, same width'),
		st.t0 > before.t0 && Math.abs((st.t1 - st.t0) - w) <= w / 1e6, `t0 ${before.t0} -> ${st.t0}, width ${w} -> ${st.t1 - st.t0}`);

	// back to the whole trace (key 0), then the event list
	await page.keyboard.press('0');
	await idle(page);
	st = await state(page);
	check(it('key 0 shows the whole trace again'), st.t0 <= 0 && st.t1 >= meta.duration);
	check(it('the event list has events'), st.events.length > 0);
	if (st.events.length) await clickEvent(page, st);
	await page.keyboard.press('0');
	await idle(page);

	// shift+drag over a row: that range's statistics, all threads; then one thread's
	await rangeStats(page, meta, null);
	const tids = new Set(sched.threads.map((t) => t.tid));
	const thread = (await state(page)).rows.find((r) => r.kind === 'thread' && r.y >= 0 &&
		r.y + r.height <= st.canvas.height && tids.has(meta.rows.find((m) => m.id === r.id).tid));
	if (check(it('a thread row on screen'), Boolean(thread))) {
		const names = (await state(page)).names;
		await page.mouse.click(names.x + names.width / 2, names.y + thread.y + thread.height / 2);
		await idle(page);
		const sel = (await state(page)).selectedRows;
		check(it('a click on its name selects the row'), sel.length === 1 && sel[0] === thread.id, JSON.stringify(sel));
		await rangeStats(page, meta, meta.rows.find((r) => r.id === thread.id).tid);
	}
	check(it('no error on the page'), page.errors.length === 0, page.errors.join('\n'));
	await page.browserContext().close();
});

// Click the first line of the event list (#events .ev): it becomes the selected event (.sel,
// the hook's selected), its text is shown in #selected, and it is `spoor dump`'s line.
async function clickEvent(page, st) {
	const ev = st.events[0];
	const line = await page.$('#events .ev');
	if (!check(it('the event list shows the first event'), line !== null &&
		await line.evaluate((e) => e.textContent) === ev.text)) return;
	await line.scrollIntoView();
	await line.click();
	await idle(page);
	const now = await state(page);
	check(it('clicking it selects it'), now.selected !== null && now.selected.t === ev.t && now.selected.text === ev.text,
		JSON.stringify(now.selected));
	check(it('the line is marked selected'), await page.$eval('#events .ev', (e) => e.classList.contains('sel')));
	check(it('the timeline is centred on it'), Math.abs((now.t0 + now.t1) / 2 - ev.t) <= (now.t1 - now.t0) / 100,
		`view ${now.t0}..${now.t1}, event at ${ev.t}`);
	const fields = ev.text.replace(/^\S+ \S+ [^:]+: /, '');
	const shown = await page.$eval('#selected', (e) => e.innerText);
	check(it(`its fields are shown (${fields})`), fields.length > 0 && shown.includes(fields), shown);
	const dump = spoor(['dump', trace]).split('\n');
	check(it("its text is spoor dump's line"), dump.includes(ev.text), ev.text);
}

// Shift+drag from 30% to 60% of the rows canvas, over the first row on screen: the range
// (the hook's, exactly what the page sent to api/stats) is the dragged one, and the
// statistics shown are spoor's on that range (--tid TID when a row is selected).
async function rangeStats(page, meta, tid) {
	const who = tid === null ? 'all threads' : `tid ${tid}`;
	const stats = watchApi(page, 'stats');
	let st = await state(page);
	const row = st.rows.find((r) => r.y >= 0);
	const y = st.canvas.y + row.y + row.height / 2;
	const x0 = st.canvas.x + st.canvas.width * 0.3, x1 = st.canvas.x + st.canvas.width * 0.6;
	await page.keyboard.down('Shift');
	await page.mouse.move(x0, y);
	await page.mouse.down();
	await page.mouse.move(x1, y, { steps: 6 });
	await page.mouse.up();
	await page.keyboard.up('Shift');
	await idle(page);
	const after = await state(page);
	check(it(`shift+drag (${who}) keeps the view`), after.t0 === st.t0 && after.t1 === st.t1);
	if (!check(it(`shift+drag (${who}) selects a range with its statistics`), after.range !== null && after.stats !== null,
		JSON.stringify(after.range))) return;
	const px = (st.t1 - st.t0) / st.canvas.width;
	const t0 = st.t0 + (x0 - st.canvas.x) * px, t1 = st.t0 + (x1 - st.canvas.x) * px;
	check(it(`the range is the dragged one (${after.range.t0}..${after.range.t1})`),
		Math.abs(after.range.t0 - t0) <= 2 * px && Math.abs(after.range.t1 - t1) <= 2 * px, `dragged ${t0}..${t1}`);
	const req = stats.length ? stats[stats.length - 1].params : {};
	check(it(`api/stats was asked for that range and ${who}`), Number(req.t0) === after.range.t0 &&
		Number(req.t1) === after.range.t1 && (req.tids || '') === (tid === null ? '' : String(tid)), JSON.stringify(req));
	const origin = BigInt(meta.origin);
	const args = [`--begin=${origin + BigInt(after.range.t0)}`, `--end=${origin + BigInt(after.range.t1)}`];
	if (tid !== null) args.push(`--tid=${tid}`);
	for (const a of ['sched', 'irq', 'syscalls']) {
		// a range (or a recording) without such events: the command's error is the page's text
		let want;
		try {
			want = spoor([a, ...args, trace]);
		} catch (e) {
			if (!e.stderr || !e.stderr.startsWith(`spoor ${a}: `)) throw e;
			want = e.stderr;
		}
		check(it(`the range's ${a} text is \`spoor ${a} ${args.join(' ')}\`'s`), after.stats[a] === want,
			`page:\n${after.stats[a]}\nspoor:\n${want}`);
	}
	const text = await page.$eval('#stats', (e) => e.innerText);
	check(it(`#stats shows the sched text (${who})`), text.includes(after.stats.sched.trim().split('\n')[0]));
}

// Type TEXT into the search box (#search), replacing what it held, and wait for the page.
async function search(page, text) {
	await page.click('#search', { clickCount: 3 });
	await page.keyboard.press('Backspace');
	if (text) await page.type('#search', text);
	await page.keyboard.press('Escape'); // leaves the box: keys go to the view again
	await idle(page);
}
