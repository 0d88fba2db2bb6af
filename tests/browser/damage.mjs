// A damaged trace (VIEW_URL on TRACE, one of tests/data/gen-damaged.py's): the page shows
// what comes before the damage, and a banner naming where (the time) and why (the reader's
// message, as `spoor dump` prints it).
import { check, main, env, getJSON, openView, state } from './lib.mjs';
import { execFileSync } from 'node:child_process';

const url = env('VIEW_URL'), trace = env('TRACE');

await main(async (browser) => {
	// the reader's warning: `warning: FILE: offset N: WHY`
	let err = '';
	try {
		execFileSync(env('SPOOR'), ['dump', trace], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
	} catch (e) {
		err = e.stderr || '';
	}
	const why = (err.match(/warning: .*?: offset \d+: (.*)/) || [])[1];
	check('spoor dump reports the damage', Boolean(why), err);
	const meta = await getJSON(url + 'api/meta');
	check('api/meta lists the damage', meta.damage.length > 0 && meta.damage.some((d) => d.text.includes(why)),
		JSON.stringify(meta.damage));

	const page = await openView(browser, url);
	const st = await state(page);
	check('the page shows a banner', typeof st.banner === 'string' && st.banner.length > 0);
	check(`the banner says why: ${why}`, Boolean(st.banner && why && st.banner.includes(why)), st.banner);
	const shown = await page.$eval('#banner', (e) => (e.hidden ? '' : e.innerText));
	check('#banner shows it', Boolean(why && shown.includes(why)), shown);
	const at = meta.damage.map((d) => d.at);
	check('the damage is placed in the trace (0 <= at <= duration)', at.every((t) => t >= 0 && t <= meta.duration),
		`${at} of ${meta.duration}`);
	check('the rows before the damage are drawn', Object.values(st.drawn).some((n) => n > 0));
	await page.browserContext().close();
});
