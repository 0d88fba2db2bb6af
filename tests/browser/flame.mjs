// Flame rows (VIEW_URL on TRACE, gen-calls.py's calls-tree, FLAME its .flame: the calls as
// the generator made them): each thread's calls under its row, a row per depth; calls drawn
// and named where they fit; the tooltip and a click give the function and its duration;
// collapsing the thread hides them; the event list names each entry's function.
import { readFileSync } from 'node:fs';
import { check, main, env, getJSON, openView, state, idle } from './lib.mjs';
import { fmtDur } from '../../web/time.js';

const url = env('VIEW_URL');
const want = JSON.parse(readFileSync(env('FLAME'), 'utf8')); // [tid, depth, begin, end, name, flags]

await main(async (browser) => {
	const meta = await getJSON(url + 'api/meta');
	const page = await openView(browser, url);
	let st = await state(page);
	const tids = [...new Set(want.map((c) => c[0]))];
	for (const tid of tids) {
		const depths = Math.max(...want.filter((c) => c[0] === tid).map((c) => c[1])) + 1;
		const at = st.rows.findIndex((r) => r.kind === 'thread' && r.label.endsWith(`(${tid})`));
		const under = st.rows.slice(at + 1, at + 1 + depths);
		check(`thread ${tid}: its ${depths} flame rows right under it, by depth`,
			at >= 0 && under.length === depths && under.every((r, d) => r.kind === 'calls' && r.tid === tid && r.depth === d),
			JSON.stringify(st.rows.map((r) => [r.kind, r.label, r.tid])));
		check(`thread ${tid}: every flame row has calls drawn`, under.every((r) => st.drawn[r.id] > 0),
			JSON.stringify(st.drawn));
	}

	// the event list names each function's entry after its address (the call beginning then)
	const entries = st.events.filter((e) => e.name.endsWith(':func_entry'));
	const lines = await page.$$eval('#events .ev', (ds) => ds.map((d) => d.textContent));
	const named = entries.filter((e) => {
		const call = want.find((c) => c[2] === e.t);
		const shown = lines[st.events.indexOf(e)] || '';
		const fn = call ? call[4] : null; // an address no object holds is not named again
		return fn && shown === (fn.startsWith('0x') ? e.text
			: e.text.replace(/\baddr=0x[0-9A-Fa-f]+/, (a) => `${a} <${fn}>`));
	});
	check(`the event list names the ${entries.length} entries' functions`, entries.length > 0 && named.length === entries.length,
		JSON.stringify(lines.slice(0, 20)));

	// the calls that fill most of the view are named in their bars
	const wide = want.filter((c) => (c[3] - c[2]) > meta.duration / 4);
	for (const [tid, depth, , , name] of wide) {
		const row = st.rows.find((r) => r.kind === 'calls' && r.tid === tid && r.depth === depth);
		check(`${name} (thread ${tid}, depth ${depth}) is named in its bar`,
			Boolean(row && (st.callLabels[row.id] || []).includes(name)), JSON.stringify(st.callLabels));
	}

	// the tooltip over a call, and a click on it: the function and its duration
	const [tid, depth, b, e, name] = wide[wide.length - 1];
	const row = st.rows.find((r) => r.kind === 'calls' && r.tid === tid && r.depth === depth);
	const x = st.canvas.x + ((b + e) / 2 - st.t0) / (st.t1 - st.t0) * st.canvas.width;
	const y = st.canvas.y + row.y + row.height / 2;
	await page.mouse.move(x, y);
	await idle(page);
	const tip = await page.$eval('#tooltip', (el) => (el.hidden ? '' : el.textContent));
	check(`the tooltip names ${name}() and its duration (${fmtDur(e - b)})`,
		tip.includes(`${name}()`) && tip.includes(`duration ${fmtDur(e - b)}`), tip);
	await page.mouse.click(x, y);
	await idle(page);
	st = await state(page);
	check('a click shows the call in the selected panel', st.selectedText.includes(`${name}()`) &&
		st.selectedText.includes(`duration ${fmtDur(e - b)}`), st.selectedText);

	// zoomed in on a short call: whole, named, its own times in the tooltip
	const [ztid, zdepth, zb, ze, zname] = want.filter((c) => c[3] - c[2] < meta.duration / 1000 && !c[5])[0];
	await page.evaluate(([t0, t1]) => window.spoorView.setView(t0, t1), [zb - (ze - zb), ze + (ze - zb)]);
	await idle(page);
	st = await state(page);
	const zrow = st.rows.find((r) => r.kind === 'calls' && r.tid === ztid && r.depth === zdepth);
	check(`zoomed in: ${zname} (thread ${ztid}, depth ${zdepth}) is named in its bar`,
		Boolean(zrow && (st.callLabels[zrow.id] || []).includes(zname)), JSON.stringify(st.callLabels));

	// collapsing the thread (its ▾ in the names) hides its flame rows
	await page.evaluate(() => window.spoorView.setView(0, 1e18));
	await idle(page);
	st = await state(page);
	const thread = st.rows.find((r) => r.kind === 'thread' && r.label.endsWith(`(${tid})`));
	await page.mouse.click(st.names.x + 8 + 14, st.names.y + thread.y + thread.height / 2);
	await idle(page);
	st = await state(page);
	check(`a click on thread ${tid}'s arrow hides its flame rows`,
		!st.rows.some((r) => r.kind === 'calls' && r.tid === tid), JSON.stringify(st.rows.map((r) => r.label)));
	check('no error on the page', page.errors.length === 0, page.errors.join('\n'));
	await page.browserContext().close();
});
