import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createFindTool, createGrepTool, createSearchBinaryLocator } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import {
	FIND_FALLBACK_NOTICE,
	GREP_FALLBACK_NOTICE,
	type SearchBinaryDownloadOptions,
} from "../../src/core/tools/index.js";
import { tempDir, textOf } from "./helpers.js";
import { type ReleaseServerMode, startReleaseServer } from "./release-fixtures.js";

// Every download here targets linux/x64 (whatever runs the tests): the released "binary" is a shell script.
const TRIPLE = "x86_64-unknown-linux-musl";
const METADATA = "/repos/BurntSushi/ripgrep/releases/latest";
const ASSET = `/download/ripgrep-99.0.0-${TRIPLE}.tar.gz`;
const skipReason = process.platform === "win32" ? "the fake release binaries are shell scripts" : undefined;

interface Setup {
	mode?: ReleaseServerMode;
	name?: "rg" | "fd";
	env?: NodeJS.ProcessEnv;
	download?: SearchBinaryDownloadOptions;
	/** The only build the fake release offers. */
	triple?: string;
}

/**
 * A local fake GitHub, an empty bin dir, a PATH without rg/fd (so only a download can provide
 * them) and a project with one file the built-in search finds.
 */
async function setup({ mode = "ok", name = "rg", env = {}, download = {}, triple = TRIPLE }: Setup = {}) {
	const server = await startReleaseServer(name, triple, mode);
	const binDir = join(tempDir("tau-bin-"), "agent", "bin");
	const project = tempDir("tau-project-");
	writeFileSync(join(project, "real.txt"), "needle\n");
	const locator = createSearchBinaryLocator({
		binDir,
		env: { PATH: tempDir("tau-empty-path-"), ...env },
		download: { apiBaseUrl: server.url, platform: "linux", arch: "x64", ...download },
	});
	return { server, binDir, project, locator };
}

describe.skipIf(skipReason !== undefined)(
	`release binary download${skipReason ? ` (skipped: ${skipReason})` : ""}`,
	() => {
		it("downloads ripgrep into the bin dir (mode 0755) and the grep tool runs it", async () => {
			const { server, binDir, project, locator } = await setup();
			const result = await createGrepTool(project, { binaries: locator }).execute("c", { pattern: "needle" });
			expect(textOf(result)).toBe("fake.txt:7: from the downloaded rg");
			expect(server.requests).toEqual([METADATA, ASSET]);
			expect(readdirSync(binDir)).toEqual(["rg"]);
			expect(statSync(join(binDir, "rg")).mode & 0o777).toBe(0o755);

			// A later process finds the installed binary in the bin dir without asking the network.
			const later = createSearchBinaryLocator({ binDir, env: { PATH: "" }, download: { apiBaseUrl: server.url } });
			expect((await later.locate("rg")).binary?.path).toBe(join(binDir, "rg"));
			expect(server.requests).toHaveLength(2);
		});

		it("downloads fd and the find tool runs it", async () => {
			const { server, binDir, project, locator } = await setup({ name: "fd" });
			const result = await createFindTool(project, { binaries: locator }).execute("c", { pattern: "*.txt" });
			expect(textOf(result)).toBe("from-the-downloaded-fd.txt");
			expect(server.requests).toEqual([
				"/repos/sharkdp/fd/releases/latest",
				`/download/fd-v99.0.0-${TRIPLE}.tar.gz`,
			]);
			expect(readdirSync(binDir)).toEqual(["fd"]);
		});

		it("downloads once for concurrent lookups and tool calls", async () => {
			const { server, binDir, project, locator } = await setup();
			const grep = createGrepTool(project, { binaries: locator });
			const [first, second, ...results] = await Promise.all([
				locator.locate("rg"),
				locator.locate("rg"),
				grep.execute("a", { pattern: "needle" }),
				grep.execute("b", { pattern: "needle" }),
			]);
			expect(first.binary?.path).toBe(join(binDir, "rg"));
			expect(second).toBe(first);
			for (const result of results) expect(textOf(result)).toBe("fake.txt:7: from the downloaded rg");
			expect(server.requests).toEqual([METADATA, ASSET]);
		});

		it("lets two processes download into one bin dir at once without a torn binary", async () => {
			const { server, binDir, project, locator } = await setup();
			const otherProcess = createSearchBinaryLocator({
				binDir,
				env: { PATH: "" },
				download: { apiBaseUrl: server.url, platform: "linux", arch: "x64" },
			});
			const [mine, theirs] = await Promise.all([locator.locate("rg"), otherProcess.locate("rg")]);
			expect([mine.binary?.path, theirs.binary?.path]).toEqual([join(binDir, "rg"), join(binDir, "rg")]);
			expect(server.requests.sort()).toEqual([ASSET, ASSET, METADATA, METADATA]);
			expect(readdirSync(binDir)).toEqual(["rg"]);
			const result = await createGrepTool(project, { binaries: otherProcess }).execute("c", { pattern: "needle" });
			expect(textOf(result)).toBe("fake.txt:7: from the downloaded rg");
		});

		it("makes no request in offline mode and says why the built-in search ran", async () => {
			const { server, binDir, project, locator } = await setup({ env: { TAU_OFFLINE: "yes" } });
			const result = await createGrepTool(project, { binaries: locator }).execute("c", { pattern: "needle" });
			expect(textOf(result)).toBe(`real.txt:1: needle\n\n[${GREP_FALLBACK_NOTICE} (offline mode)]`);
			expect(server.requests).toEqual([]);
			expect(existsSync(binDir)).toBe(false);
		});

		it("makes no request on a CPU without a release build, nor on Termux", async () => {
			for (const [setupOptions, reason] of [
				[{ download: { arch: "ia32" } }, "no fd download for linux/ia32"],
				[{ env: { TERMUX_VERSION: "0.118.0" } }, "on Termux install it with `pkg install fd`"],
			] as const) {
				const { server, project, locator } = await setup({ name: "fd", ...setupOptions });
				const result = await createFindTool(project, { binaries: locator }).execute("c", { pattern: "*.txt" });
				expect(textOf(result)).toBe(`real.txt\n\n[${FIND_FALLBACK_NOTICE} (${reason})]`);
				expect(server.requests).toEqual([]);
			}
		});

		it("falls back with the reason when the release or its archive is missing, broken or does not run", async () => {
			const cases: [ReleaseServerMode, RegExp][] = [
				["metadata-404", /^download failed: release metadata: HTTP 404$/],
				["asset-404", new RegExp(`^download failed: ripgrep-99\\.0\\.0-${TRIPLE}\\.tar\\.gz: HTTP 404$`)],
				["corrupt-archive", /^download failed: .+/],
				["binary-does-not-run", /^the downloaded rg does not run here$/],
			];
			for (const [mode, problem] of cases) {
				const { binDir, project, locator } = await setup({ mode });
				expect((await locator.locate("rg")).problem, mode).toMatch(problem);
				const result = await createGrepTool(project, { binaries: locator }).execute("c", { pattern: "needle" });
				expect(textOf(result), mode).toMatch(
					/^real\.txt:1: needle\n\n\[ripgrep not available; used the slower built-in search \(.+\)\]$/,
				);
				// Nothing half-written is left behind.
				if (existsSync(binDir))
					expect(
						readdirSync(binDir).filter((file) => file !== "rg"),
						mode,
					).toEqual([]);
			}
		});

		it("takes nothing when the release has no build for this CPU", async () => {
			const { server, binDir, locator } = await setup({ download: { arch: "arm64" } });
			expect(await locator.locate("rg")).toEqual({
				problem: "download failed: release 99.0.0 has no aarch64-unknown-linux-musl build",
			});
			expect(server.requests).toEqual([METADATA]);
			expect(existsSync(binDir)).toBe(false);
		});

		it("uses the injected fetch and reports network errors by their code", async () => {
			const { server, binDir, project } = await setup();
			const seen: { url: string; userAgent: string | null }[] = [];
			const recording: typeof fetch = (input, init) => {
				seen.push({ url: String(input), userAgent: new Headers(init?.headers).get("user-agent") });
				return fetch(input, init);
			};
			const recorded = createSearchBinaryLocator({
				binDir: binDir,
				env: { PATH: "" },
				download: { apiBaseUrl: server.url, platform: "linux", arch: "x64", fetch: recording },
			});
			expect((await recorded.locate("rg")).binary?.path).toBe(join(binDir, "rg"));
			expect(seen.map(({ url }) => new URL(url).pathname)).toEqual([METADATA, ASSET]);
			expect(seen.every(({ userAgent }) => userAgent)).toBe(true);

			const unreachable = createSearchBinaryLocator({
				binDir: join(project, "bin"),
				env: { PATH: "" },
				download: {
					platform: "linux",
					arch: "x64",
					fetch: async () => {
						throw new TypeError("fetch failed", {
							cause: Object.assign(new Error("getaddrinfo"), { code: "ENOTFOUND" }),
						});
					},
				},
			});
			expect(await unreachable.locate("rg")).toEqual({ problem: "download failed: release metadata: ENOTFOUND" });
		});

		it("gives up after the metadata timeout and remembers the failure for the process", async () => {
			const { server, project, locator } = await setup({
				mode: "never-answer",
				download: { metadataTimeoutMs: 50 },
			});
			const grep = createGrepTool(project, { binaries: locator });
			const result = await grep.execute("c", { pattern: "needle" });
			expect(textOf(result)).toBe(
				`real.txt:1: needle\n\n[${GREP_FALLBACK_NOTICE} (download failed: release metadata: timed out after 0.05s)]`,
			);
			await grep.execute("c", { pattern: "needle" });
			expect(server.requests).toEqual([METADATA]);
		});

		it("stops a tool call aborted while the download is in flight", async () => {
			const { server, project, locator } = await setup({ mode: "never-answer" });
			const controller = new AbortController();
			const call = createGrepTool(project, { binaries: locator }).execute(
				"c",
				{ pattern: "needle" },
				controller.signal,
			);
			await server.nextRequest();
			controller.abort();
			await expect(call).rejects.toThrow("Operation aborted");
		});

		it("never downloads without a bin dir or with downloads turned off", async () => {
			const { server, project } = await setup();
			const withoutBinDir = createSearchBinaryLocator({ env: { PATH: "" }, download: { apiBaseUrl: server.url } });
			const turnedOff = createSearchBinaryLocator({
				binDir: join(project, "bin"),
				env: { PATH: "" },
				download: false,
			});
			for (const locator of [withoutBinDir, turnedOff]) expect(await locator.locate("rg")).toEqual({});
			expect(server.requests).toEqual([]);
		});
	},
);
