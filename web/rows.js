// The rows at the left: CPUs in a "Resources" group, threads under their process in a
// "Control flow" group. A process's header shows its main thread's row (tid = pid) when it
// has one, as Trace Compass does. A thread's function calls are flame rows under it, one
// per depth (the main thread's first among its process's lines). Collapsing and the search
// filter decide which lines show.

export const ROW_H = 20;

export function rowLabel(r) {
	if (r.kind === 'calls') return `depth ${r.depth}`;
	return r.kind === 'cpu' ? `CPU ${r.cpu}` : `${r.name} (${r.tid})`;
}

// meta → the tree: [{key, label, kind: 'group', children: [nodes]}], nodes being
// {key, label, rowId|null, kind: 'process'|'thread'|'cpu'|'calls', children: [nodes]};
// a 'calls' node's threadRowId is its thread's row
export function buildTree(meta) {
	const byId = new Map(meta.rows.map((r) => [r.id, r]));
	const calls = new Map(); // tid → its flame rows' nodes, by depth
	for (const r of meta.rows) {
		if (r.kind !== 'calls') continue;
		if (!calls.has(r.tid)) calls.set(r.tid, []);
		calls.get(r.tid).push(r);
	}
	const threadRow = new Map(meta.rows.filter((r) => r.kind === 'thread').map((r) => [r.tid, r.id]));
	const callNodes = (tid) => (calls.get(tid) || []).sort((a, b) => a.depth - b.depth).map((r) => ({
		key: `r${r.id}`, label: rowLabel(r), rowId: r.id, kind: 'calls', row: r, children: [],
		threadRowId: threadRow.get(tid) ?? null,
	}));
	const threadNode = (r) => ({ key: `r${r.id}`, label: rowLabel(r), rowId: r.id, kind: 'thread', row: r,
		children: callNodes(r.tid) });
	const cpus = meta.rows.filter((r) => r.kind === 'cpu')
		.sort((a, b) => a.cpu - b.cpu)
		.map((r) => ({ key: `r${r.id}`, label: rowLabel(r), rowId: r.id, kind: 'cpu', children: [] }));
	const placed = new Set();
	const procs = [];
	for (const p of meta.processes || []) {
		const threads = p.rows.map((i) => byId.get(i)).filter((r) => r && r.kind === 'thread');
		threads.sort((a, b) => a.tid - b.tid);
		const main = threads.find((r) => r.tid === p.pid);
		const kids = [...(main ? callNodes(main.tid) : []), ...threads.filter((r) => r !== main).map(threadNode)];
		threads.forEach((r) => placed.add(r.id));
		procs.push({
			key: `p${p.pid}`, kind: 'process', pid: p.pid, name: p.name,
			label: main ? rowLabel(main) : `${p.name} (${p.pid})`,
			rowId: main ? main.id : null, row: main || null, children: kids,
		});
	}
	const loose = meta.rows.filter((r) => r.kind === 'thread' && !placed.has(r.id));
	if (loose.length) {
		procs.push({ key: 'p?', kind: 'process', pid: null, name: '', label: 'threads without a process',
			rowId: null, row: null, children: loose.sort((a, b) => a.tid - b.tid).map(threadNode) });
	}
	procs.sort((a, b) => (a.pid ?? Infinity) - (b.pid ?? Infinity));
	return [
		{ key: 'g-cpu', label: 'Resources', kind: 'group', rowId: null, children: cpus },
		{ key: 'g-threads', label: 'Control flow', kind: 'group', rowId: null, children: procs },
	];
}

// Which threads the search text names: a number matches a tid or pid, text a thread's or its
// process's name (case-insensitive substring). null: the text names no thread (show all).
export function matchThreads(tree, text) {
	const q = text.trim().toLowerCase();
	if (!q) return null;
	const num = /^\d+$/.test(q) ? Number(q) : null;
	const hit = new Set();
	for (const p of tree[1].children) {
		const procHit = num !== null ? p.pid === num : p.name.toLowerCase().includes(q);
		for (const n of [p, ...p.children]) {
			if (!n.row || n.kind === 'calls') continue;
			const r = n.row;
			if (procHit || (num !== null ? r.tid === num : n.label.toLowerCase().includes(q))) hit.add(n.rowId);
		}
	}
	return hit.size ? hit : null;
}

// The lines shown, top to bottom: [{node, depth, y}]. `keep`: null or the set of thread rows
// the filter keeps (their processes shown too, expanded; flame rows with their thread).
export function layout(tree, collapsed, keep) {
	const out = [];
	const push = (node, depth) => out.push({ node, depth, y: out.length * ROW_H });
	const kept = (c) => keep.has(c.kind === 'calls' ? c.threadRowId : c.rowId);
	for (const g of tree) {
		if (!g.children.length) continue;
		push(g, 0);
		if (collapsed.has(g.key)) continue;
		for (const n of g.children) {
			if (n.kind !== 'process') { push(n, 1); continue; }
			const kids = keep ? n.children.filter(kept) : n.children;
			if (keep && !kids.length && !keep.has(n.rowId)) continue;
			push(n, 1);
			if (collapsed.has(n.key) && !keep) continue;
			for (const c of kids) {
				push(c, 2);
				if (collapsed.has(c.key) && !keep) continue;
				for (const f of c.children) push(f, 3);
			}
		}
	}
	return out;
}
