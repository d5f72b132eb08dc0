import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { exportSessionToHtml } from "@tau/coding-agent";
import type { Bench, BenchContext } from "../../../scripts/bench/api.js";
import { CHROMIUM, launchChromium, NO_CHROMIUM_REASON } from "../test/export/chromium.js";
import { longSession } from "../test/export/session-fixtures.js";
import { type Contender, makeBox, runCli } from "./cli-harness.js";
import { referenceContenders } from "./reference-pi.js";

const ENTRIES = 5_000;
const CLI = resolve(import.meta.dirname, "../dist/bundle/cli.js");
const VIEWER_BUILD = resolve(import.meta.dirname, "../../../scripts/build-export-viewer.mjs");
const RUNS = 5;
/** Evaluated in the page: resolves after the frame that follows `load` has been produced. */
const NEXT_FRAME = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))";

/**
 * Opens `file` in a fresh context (every request but the file refused) until load and the next
 * frame: the wall time, and the CPU time of the page's main thread (Chromium's `ThreadTime`), which
 * a busy machine inflates far less than the wall time.
 */
async function openTimes(file: string): Promise<{ wall: number[]; thread: number[] }> {
	const browser = await launchChromium();
	const url = pathToFileURL(file).href;
	const wall: number[] = [];
	const thread: number[] = [];
	try {
		for (let run = 0; run < RUNS + 1; run++) {
			const context = await browser.newContext();
			await context.route("**/*", (route) =>
				route.request().url().split("#")[0] === url ? route.continue() : route.abort(),
			);
			const page = await context.newPage();
			const cdp = await context.newCDPSession(page);
			await cdp.send("Performance.enable");
			const started = performance.now();
			// pi 1.6's page takes tens of seconds on a busy machine.
			await page.goto(url, { waitUntil: "load", timeout: 180_000 });
			await page.evaluate(NEXT_FRAME);
			const elapsed = performance.now() - started;
			const { metrics } = await cdp.send("Performance.getMetrics");
			// The first run warms the browser's caches.
			if (run > 0) {
				wall.push(elapsed);
				thread.push((metrics.find((metric) => metric.name === "ThreadTime")?.value ?? Number.NaN) * 1000);
			}
			await context.close();
		}
	} finally {
		await browser.close();
	}
	return { wall, thread };
}

/** `--export` as a whole process, RUNS times; returns the written file. */
async function exportProcess(ctx: BenchContext, contender: Contender, session: string, dir: string): Promise<string> {
	const box = makeBox();
	const out = join(dir, `${contender.label.replace(/\W+/g, "-")}.html`);
	const walls: number[] = [];
	try {
		for (let run = 0; run < RUNS; run++)
			walls.push((await runCli(contender, box, ["--export", session, out])).wallMs);
	} finally {
		rmSync(box.home, { recursive: true, force: true });
	}
	ctx.record(`export: ${contender.label} --export ${ENTRIES}-entry session (wall)`, "ms", walls);
	ctx.record(`export: ${contender.label} HTML size`, "KB", [statSync(out).size / 1024]);
	return out;
}

/**
 * HTML export of a 5,000-entry session (user, assistant with a tool call, tool result): tau in process,
 * tau and pi 1.6 as whole `--export` processes, and each page's open time in Chromium (docs/export.md).
 */
const bench: Bench = async (ctx) => {
	execFileSync(process.execPath, [VIEWER_BUILD, "--if-stale"], { stdio: "inherit" });
	const dir = mkdtempSync(join(tmpdir(), "tau-export-bench-"));
	try {
		const session = longSession(ENTRIES).write(dir);
		ctx.record(`export: ${ENTRIES}-entry session file size`, "KB", [statSync(session).size / 1024]);
		const inProcess = join(dir, "in-process.html");
		await ctx.time(`export: tau ${ENTRIES}-entry session to HTML (in process)`, () =>
			exportSessionToHtml(session, inProcess),
		);
		const pages: { label: string; file: string }[] = [{ label: "tau", file: inProcess }];
		const reference = referenceContenders(CLI);
		if ("skipped" in reference) console.error(`export bench: whole-process runs left out (${reference.skipped})`);
		else {
			for (const contender of reference.contenders) {
				const file = await exportProcess(ctx, contender, session, dir);
				if (contender.label.startsWith("pi")) pages.push({ label: "pi 1.6", file });
			}
		}
		if (!CHROMIUM) {
			console.error(`export bench: browser open times left out (${NO_CHROMIUM_REASON})`);
			return;
		}
		for (const { label, file } of pages) {
			const { wall, thread } = await openTimes(file);
			ctx.record(`export: ${label} ${ENTRIES}-entry page open in Chromium (load + frame, wall)`, "ms", wall);
			ctx.record(`export: ${label} ${ENTRIES}-entry page open in Chromium (main-thread CPU)`, "ms", thread);
		}
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
};

export default bench;
