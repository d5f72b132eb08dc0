import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ProjectTrustStore } from "@tau/coding-agent";
import lockfile from "proper-lockfile";
import { describe, expect, it } from "vitest";
import { resolveProjectTrusted, type TrustPromptChoice } from "../../src/config/index.js";
import { readJson, tempDirs, writeJson, writeText } from "./helpers.js";

function setup() {
	const dirs = tempDirs();
	const src = join(dirs.root, "src");
	const repo = join(src, "repo");
	const nested = join(repo, "packages", "app");
	mkdirSync(nested, { recursive: true });
	return { ...dirs, src, repo, nested, store: new ProjectTrustStore(dirs.agentDir) };
}

describe("ProjectTrustStore", () => {
	it("returns the nearest ancestor's decision and skips null entries", () => {
		const { store, agentDir, src, repo, nested } = setup();
		writeJson(join(agentDir, "trust.json"), { [src]: true, [repo]: null });
		expect(store.get(nested)).toEqual({ path: src, decision: true });
		store.set(repo, false);
		expect(store.get(nested)).toEqual({ path: repo, decision: false });
		expect(store.get(agentDir)).toBeNull();
	});

	it("writes sorted boolean entries with a trailing newline, atomically and under trust.json.lock", () => {
		const { store, agentDir, src, repo } = setup();
		writeJson(join(agentDir, "trust.json"), { [repo]: true, "/zzz": null });
		store.set(src, true);
		expect(readFileSync(join(agentDir, "trust.json"), "utf8")).toBe(
			`${JSON.stringify({ [src]: true, [repo]: true }, null, 2)}\n`,
		);
		const release = lockfile.lockSync(agentDir, { realpath: false, lockfilePath: join(agentDir, "trust.json.lock") });
		try {
			expect(() => store.set(src, false)).toThrow(/already being held/);
		} finally {
			release();
		}
		expect(existsSync(join(agentDir, "trust.json.lock"))).toBe(false);
	});

	it("trusting the parent removes the cwd-specific entry", () => {
		const { store, agentDir, src, repo } = setup();
		store.set(repo, false);
		store.setMany([
			{ path: src, decision: true },
			{ path: repo, decision: null },
		]);
		expect(readJson(join(agentDir, "trust.json"))).toEqual({ [src]: true });
	});

	it("compares keys case-insensitively on Windows and removes every alias on update", () => {
		const { agentDir, repo } = setup();
		const upper = repo.toUpperCase();
		writeJson(join(agentDir, "trust.json"), { [upper]: false, [repo.toLowerCase()]: false });
		const windows = new ProjectTrustStore(agentDir, { platform: "win32" });
		expect(windows.get(repo)).toEqual({ path: upper, decision: false });
		windows.set(repo, true);
		expect(readJson(join(agentDir, "trust.json"))).toEqual({ [repo]: true });
		const posix = new ProjectTrustStore(agentDir, { platform: "linux" });
		expect(posix.get(upper)).toBeNull();
	});

	it("treats a corrupt store as undecided with a diagnostic and never overwrites it", () => {
		const { store, agentDir, repo } = setup();
		const path = join(agentDir, "trust.json");
		for (const [text, message] of [
			["{nope", `Failed to read trust store ${path}:`],
			["[]", `Invalid trust store ${path}: expected an object`],
			['{"/x": "yes"}', `Invalid trust store ${path}: value for "/x" must be true, false, or null`],
		] as const) {
			writeText(path, text);
			expect(store.get(repo)).toBeNull();
			expect(store.drainDiagnostics()[0]).toContain(message);
			expect(() => store.set(repo, true)).toThrow(message);
			expect(store.trySetMany([{ path: repo, decision: true }])).toBe(false);
			expect(readFileSync(path, "utf8")).toBe(text);
			store.drainDiagnostics();
		}
	});
});

describe("resolveProjectTrusted", () => {
	const base = (store: ProjectTrustStore, cwd: string) => ({
		cwd,
		store,
		hasTrustRequiringResources: true,
		defaultProjectTrust: "ask" as const,
	});

	it("lets the CLI flag win and saves nothing", async () => {
		const { store, repo, agentDir } = setup();
		store.set(repo, true);
		expect(await resolveProjectTrusted({ ...base(store, repo), cliOverride: false })).toEqual({
			trusted: false,
			source: "cli",
		});
		expect(readJson(join(agentDir, "trust.json"))).toEqual({ [repo]: true });
	});

	it("trusts projects without trust-requiring resources unless a saved decision says no", async () => {
		const { store, repo, nested } = setup();
		const plain = { ...base(store, nested), hasTrustRequiringResources: false };
		expect(await resolveProjectTrusted(plain)).toEqual({ trusted: true, source: "implicit" });
		store.set(repo, false);
		expect(await resolveProjectTrusted(plain)).toEqual({ trusted: false, source: "saved" });
	});

	it("asks extensions before the saved decision and remembers when asked", async () => {
		const { store, repo } = setup();
		store.set(repo, false);
		const decided = await resolveProjectTrusted({
			...base(store, repo),
			askExtensions: async () => ({ trusted: "yes", remember: true }),
		});
		expect(decided).toEqual({ trusted: true, source: "extension" });
		expect(store.get(repo)?.decision).toBe(true);
		const undecided = await resolveProjectTrusted({
			...base(store, repo),
			askExtensions: async () => ({ trusted: "undecided" }),
		});
		expect(undecided).toEqual({ trusted: true, source: "saved" });
	});

	it("applies defaultProjectTrust, and 'ask' without a UI means no", async () => {
		const { store, repo } = setup();
		expect(await resolveProjectTrusted({ ...base(store, repo), defaultProjectTrust: "always" })).toEqual({
			trusted: true,
			source: "policy",
		});
		expect(await resolveProjectTrusted({ ...base(store, repo), defaultProjectTrust: "never" })).toEqual({
			trusted: false,
			source: "policy",
		});
		expect(await resolveProjectTrusted(base(store, repo))).toEqual({ trusted: false, source: "no-ui" });
	});

	it("saves what the interactive prompt chose", async () => {
		const { store, repo, src, agentDir } = setup();
		const ask = (choice: TrustPromptChoice) =>
			resolveProjectTrusted({ ...base(store, repo), prompt: async () => choice });
		expect((await ask("trust-session")).trusted).toBe(true);
		expect(existsSync(join(agentDir, "trust.json"))).toBe(false);
		expect((await ask("distrust")).trusted).toBe(false);
		expect(store.get(repo)?.decision).toBe(false);
		store.set(repo, null);
		const viaParent = await resolveProjectTrusted({
			...base(store, join(repo, "..", "repo")),
			askExtensions: async () => undefined,
			prompt: async ({ parent }) => {
				expect(parent).toBe(src);
				return "trust-parent";
			},
		});
		expect(viaParent.trusted).toBe(true);
		expect(readJson(join(agentDir, "trust.json"))).toEqual({ [src]: true });
	});

	it("continues undecided when trust.json is corrupt", async () => {
		const { store, repo, agentDir } = setup();
		writeText(join(agentDir, "trust.json"), "{broken");
		expect(await resolveProjectTrusted({ ...base(store, repo), prompt: async () => "trust" })).toEqual({
			trusted: true,
			source: "prompt",
		});
		expect(readFileSync(join(agentDir, "trust.json"), "utf8")).toBe("{broken");
		expect(store.drainDiagnostics().length).toBeGreaterThan(0);
	});
});
