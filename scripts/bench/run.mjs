// Runs every package's bench/*.bench.ts (or only those named as arguments: `<pkg>` for a package,
// `<pkg>/<name>` for its bench/<name>.bench.ts), prints one table of medians, and compares with the
// previous run stored in bench-results/. A partial run replaces only the rows it measured.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { benchJiti, root } from "./jiti.mjs";

const only = process.argv.slice(2);
const jiti = benchJiti();

const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	const m = s.length >> 1;
	return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const rows = [];
for (const pkg of readdirSync(join(root, "packages")).sort()) {
	const wanted = (file) =>
		only.length === 0 || only.includes(pkg) || only.includes(`${pkg}/${file.replace(/\.bench\.ts$/, "")}`);
	const dir = join(root, "packages", pkg, "bench");
	if (!existsSync(dir)) continue;
	for (const file of readdirSync(dir)
		.filter((f) => f.endsWith(".bench.ts") && wanted(f))
		.sort()) {
		const bench = await jiti.import(join(dir, file), { default: true });
		const ctx = {
			async time(name, fn, { iterations = 20, warmup = 3 } = {}) {
				for (let i = 0; i < warmup; i++) await fn();
				const samples = [];
				for (let i = 0; i < iterations; i++) {
					const t0 = performance.now();
					await fn();
					samples.push(performance.now() - t0);
				}
				rows.push({ pkg, name, unit: "ms", median: median(samples), n: samples.length });
			},
			record(name, unit, samples) {
				rows.push({ pkg, name, unit, median: median(samples), n: samples.length });
			},
		};
		process.stderr.write(`running ${pkg}/bench/${file}\n`);
		await bench(ctx);
	}
}

const resultsDir = join(root, "bench-results");
mkdirSync(resultsDir, { recursive: true });
const latestPath = join(resultsDir, "latest.json");
const previous = existsSync(latestPath) ? JSON.parse(readFileSync(latestPath, "utf8")) : [];
if (existsSync(latestPath)) renameSync(latestPath, join(resultsDir, "previous.json"));
const key = (r) => `${r.pkg}\u0000${r.name}`;
const measured = new Set(rows.map(key));
const kept = only.length ? previous.filter((r) => !measured.has(key(r))) : [];
writeFileSync(latestPath, JSON.stringify([...kept, ...rows], null, 2));

const before = new Map(previous.map((r) => [key(r), r]));
const fmt = (x) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 1 ? x.toFixed(2) : x.toPrecision(3));
const table = [["package", "benchmark", "median", "unit", "n", "previous", "change"]];
for (const r of rows) {
	const p = before.get(key(r));
	const change = p?.median ? `${(((r.median - p.median) / p.median) * 100).toFixed(1)}%` : "";
	table.push([r.pkg, r.name, fmt(r.median), r.unit, String(r.n), p ? fmt(p.median) : "", change]);
}
const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
for (const row of table)
	console.log(
		row
			.map((cell, i) => cell.padEnd(widths[i]))
			.join("  ")
			.trimEnd(),
	);
