// Who may read the trace (docs/view.md): every path must begin with the token, else 403;
// under the token only the page, its two files and api/, else 404 (no file is ever read from
// disk). Checked with a plain HTTP client that sends paths exactly as written (`..` kept) and
// with the browser's own fetch (which resolves `..` itself: the traversals are escaped).
import { check, main, env, rawGet } from './lib.mjs';

const url = env('VIEW_URL');
const { origin, pathname } = new URL(url);
const token = pathname.split('/')[1];
const other = token.slice(0, -1) + (token.endsWith('0') ? '1' : '0');

const forbidden = ['/', '/view.js', '/api/meta', `/${other}/`, `/${other}/api/meta`,
	`/${token.slice(0, -1)}/`, `/${token}x/`, `/${token.toUpperCase()}/`, '/../../../etc/passwd',
	`/x/${token}/`].filter((p) => p !== `/${token}/`);
const notFound = ['../../../../etc/passwd', '..%2f..%2f..%2fetc%2fpasswd', '%2e%2e/%2e%2e/etc/passwd',
	'view.js/../../../etc/passwd', 'api/../../etc/passwd', 'web/view.js', 'index.html/..',
	'api/nothing', '.spoor-view.cache', 'metadata', '%2fetc%2fpasswd'];

await main(async (browser) => {
	for (const p of forbidden) {
		const r = await rawGet(url, p);
		check(`GET ${p} (no token or a wrong one): 403`, r.status === 403, r.status);
	}
	for (const p of notFound) {
		const r = await rawGet(url, `/${token}/${p}`);
		check(`GET /TOKEN/${p}: 404`, r.status === 404, r.status);
		check(`GET /TOKEN/${p}: none of /etc/passwd`, !r.body.includes('root:'));
	}
	for (const p of ['', 'view.js', 'view.css', 'api/meta']) {
		const r = await rawGet(url, `/${token}/${p}`);
		check(`GET /TOKEN/${p}: 200`, r.status === 200, r.status);
	}

	// the same from the page, with the browser's fetch (same origin)
	const context = await browser.createBrowserContext();
	const page = await context.newPage();
	await page.goto(url, { waitUntil: 'load' });
	const status = (path) => page.evaluate(async (p) => (await fetch(p, { cache: 'no-store' })).status, origin + path);
	for (const p of ['/', '/api/meta', `/${other}/api/meta`])
		check(`the browser's fetch of ${p}: 403`, await status(p) === 403);
	for (const p of ['..%2f..%2fetc%2fpasswd', 'view.js%2f..%2f..%2fetc%2fpasswd', 'api/nothing'])
		check(`the browser's fetch of /TOKEN/${p}: 404`, await status(`/${token}/${p}`) === 404);
	check("the browser's fetch of /TOKEN/api/meta: 200", await status(`/${token}/api/meta`) === 200);
	await context.close();
});
