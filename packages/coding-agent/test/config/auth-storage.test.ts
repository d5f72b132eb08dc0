import { spawn } from "node:child_process";
import { chmodSync, readFileSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AuthStorage, readStoredCredential } from "@tau/coding-agent";
import lockfile from "proper-lockfile";
import { afterEach, describe, expect, it } from "vitest";
import {
	FileAuthStorageBackend,
	InMemoryAuthStorageBackend,
	ReadOnlyAuthStorage,
	RuntimeCredentials,
} from "../../src/config/index.js";
import { readJson, tempDirs, writeJson, writeText } from "./helpers.js";

const saved = { ...process.env };
afterEach(() => {
	process.env = { ...saved };
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("auth.json file", () => {
	it("is created with mode 0600 in a 0700 directory; existing modes are kept on rewrite", async () => {
		const { root } = tempDirs();
		const dir = join(root, "fresh", "agent");
		const path = join(dir, "auth.json");
		const storage = AuthStorage.create(path);
		await storage.modify("openai", async () => ({ type: "api_key", key: "sk-1" }));
		expect(statSync(path).mode & 0o777).toBe(0o600);
		expect(statSync(dir).mode & 0o777).toBe(0o700);
		expect(readJson(path)).toEqual({ openai: { type: "api_key", key: "sk-1" } });

		chmodSync(path, 0o640);
		await storage.modify("anthropic", async () => ({ type: "api_key", key: "sk-2" }));
		expect(statSync(path).mode & 0o777).toBe(0o640);
	});

	it("warns when the file is readable by others", () => {
		const { agentDir } = tempDirs();
		const path = join(agentDir, "auth.json");
		writeJson(path, {});
		chmodSync(path, 0o644);
		const warnings = AuthStorage.create(path).drainDiagnostics();
		expect(warnings).toEqual([
			{
				type: "warning",
				message: `${path} has permissions 0644; credentials should be private (chmod 600 ${path})`,
			},
		]);
		chmodSync(path, 0o600);
		expect(AuthStorage.create(path).drainDiagnostics()).toEqual([]);
	});

	it("resolves api_key references at read time with the credential's env overlay", async () => {
		process.env.TAU_AUTH_TEST = "from-env";
		const storage = AuthStorage.inMemory({
			a: { type: "api_key", key: "$TAU_AUTH_TEST" },
			b: { type: "api_key", key: "$ACCOUNT_KEY", env: { ACCOUNT_KEY: "from-overlay" } },
			c: { type: "api_key", key: "!printf cmd-key" },
			d: { type: "api_key", key: "$TAU_AUTH_MISSING" },
		});
		expect(await storage.read("a")).toMatchObject({ key: "from-env" });
		expect(await storage.read("b")).toMatchObject({ key: "from-overlay" });
		expect(await storage.read("c")).toMatchObject({ key: "cmd-key" });
		expect(await storage.read("d")).toEqual({ type: "api_key", key: undefined });
		expect(storage.drainDiagnostics()[0]?.message).toContain('auth.json entry for "d" did not resolve');
		expect(await storage.list()).toEqual([
			{ providerId: "a", type: "api_key" },
			{ providerId: "b", type: "api_key" },
			{ providerId: "c", type: "api_key" },
			{ providerId: "d", type: "api_key" },
		]);
	});

	it("stores what modify returns (raw) and preserves OAuth extra fields verbatim", async () => {
		const { agentDir } = tempDirs();
		const path = join(agentDir, "auth.json");
		const storage = AuthStorage.create(path);
		await storage.modify("x", async () => ({ type: "api_key", key: "$SECRET_REF" }));
		const oauth = {
			type: "oauth" as const,
			access: "a",
			refresh: "r",
			expires: 5,
			accountId: "acct_1",
			nested: { k: 1 },
		};
		await storage.modify("codex", async () => oauth);
		expect(readJson(path)).toEqual({ x: { type: "api_key", key: "$SECRET_REF" }, codex: oauth });
		expect(await storage.read("codex")).toEqual(oauth);
		expect(await storage.modify("x", async () => undefined)).toEqual({ type: "api_key", key: "$SECRET_REF" });
		await storage.delete("x");
		expect(Object.keys(readJson(path))).toEqual(["codex"]);
	});

	it("sees writes from another instance through the revision check", async () => {
		const { agentDir } = tempDirs();
		const path = join(agentDir, "auth.json");
		const first = AuthStorage.create(path);
		expect(await first.read("openai")).toBeUndefined();
		writeJson(path, { openai: { type: "api_key", key: "sk-new" } });
		expect(await first.read("openai")).toMatchObject({ key: "sk-new" });
	});

	it("keeps the last good snapshot when the file is corrupt; modify and delete throw without writing", async () => {
		const { agentDir } = tempDirs();
		const path = join(agentDir, "auth.json");
		writeJson(path, { openai: { type: "api_key", key: "sk-good" } });
		const storage = AuthStorage.create(path);
		expect(await storage.read("openai")).toMatchObject({ key: "sk-good" });
		writeText(path, '{"openai": {"type": "api_key", "key": "sk-');
		storage.reload();
		expect(await storage.read("openai")).toMatchObject({ key: "sk-good" });
		expect(storage.drainDiagnostics().some((d) => d.type === "error" && d.message.includes(path))).toBe(true);
		await expect(storage.modify("anthropic", async () => ({ type: "api_key", key: "k" }))).rejects.toThrow();
		await expect(storage.delete("openai")).rejects.toThrow();
		expect(readFileSync(path, "utf8")).toBe('{"openai": {"type": "api_key", "key": "sk-');

		const fresh = AuthStorage.create(join(agentDir, "other", "auth.json"));
		writeText(join(agentDir, "other", "auth.json"), "[]");
		expect(await fresh.read("openai")).toBeUndefined();
	});

	it("locks the real path, so a symlinked alias waits for the same lock; abort cancels the wait", async () => {
		const { agentDir, root } = tempDirs();
		const real = join(agentDir, "auth.json");
		writeJson(real, {});
		const alias = join(root, "alias-auth.json");
		symlinkSync(real, alias);
		const release = await lockfile.lock(real, { realpath: false });
		const controller = new AbortController();
		let called = false;
		const pending = AuthStorage.create(alias).modify(
			"openai",
			async () => {
				called = true;
				return { type: "api_key", key: "k" };
			},
			{ signal: controller.signal },
		);
		await nextTurn();
		await nextTurn();
		expect(called).toBe(false);
		controller.abort(new Error("user cancelled"));
		await expect(pending).rejects.toThrow("user cancelled");
		expect(called).toBe(false);
		await release();
		await AuthStorage.create(alias).modify("openai", async () => ({ type: "api_key", key: "k" }));
		expect(readJson(real)).toEqual({ openai: { type: "api_key", key: "k" } });
	});

	it("a lock compromised during modify aborts the operation without writing", async () => {
		const { root } = tempDirs();
		const path = join(root, "auth.json");
		writeJson(path, { openai: { type: "api_key", key: "sk-old" } });
		let compromise: ((error: Error) => void) | undefined;
		// The real file lock, with its compromise callback captured so the test can fire it mid-transaction.
		const storage = AuthStorage.fromStorage(
			new FileAuthStorageBackend(path, (lockPath, options) => {
				compromise = options.onCompromised;
				return lockfile.lock(lockPath, options);
			}),
		);
		const attempt = storage.modify("openai", async () => {
			compromise?.(Object.assign(new Error("Lock was compromised"), { code: "ECOMPROMISED" }));
			return { type: "api_key", key: "sk-new" };
		});
		await expect(attempt).rejects.toThrow("Lock was compromised");
		expect(readJson(path)).toEqual({ openai: { type: "api_key", key: "sk-old" } });
		// Without a compromise the same path writes: the test can tell the two apart.
		await AuthStorage.create(path).modify("openai", async () => ({ type: "api_key", key: "sk-new" }));
		expect(readJson(path)).toEqual({ openai: { type: "api_key", key: "sk-new" } });
	});

	it("modify is atomic across two processes writing different providers", { timeout: 120_000 }, async () => {
		const { agentDir } = tempDirs();
		const path = join(agentDir, "auth.json");
		const sourceDir = fileURLToPath(new URL("../../src", import.meta.url));
		const script = fileURLToPath(new URL("./fixtures/auth-writer.mjs", import.meta.url));
		const run = (prefix: string) =>
			new Promise<number | null>((resolve, reject) => {
				const child = spawn(
					process.execPath,
					["--import", "jiti/register", script, sourceDir, path, prefix, "40"],
					{
						stdio: "inherit",
					},
				);
				child.on("error", reject);
				child.on("close", resolve);
			});
		expect(await Promise.all([run("a"), run("b")])).toEqual([0, 0]);
		const data = readJson(path);
		expect(Object.keys(data)).toHaveLength(80);
		expect(data["a-39"]).toEqual({ type: "api_key", key: "a-key-39" });
		expect(data["b-0"]).toEqual({ type: "api_key", key: "b-key-0" });
	});
});

describe("ReadOnlyAuthStorage", () => {
	it("validates strictly with precise messages and cannot write", async () => {
		const { agentDir } = tempDirs();
		const path = join(agentDir, "auth.json");
		writeJson(path, []);
		expect(() => new ReadOnlyAuthStorage(path)).toThrow("Invalid auth.json: expected an object");
		writeJson(path, { ok: { type: "api_key" }, bad: { type: "oauth", access: "a", refresh: "r", expires: "soon" } });
		expect(() => new ReadOnlyAuthStorage(path)).toThrow('Invalid auth.json credential for provider "bad"');
		writeJson(path, { x: { type: "api_key", env: { A: 1 } } });
		expect(() => new ReadOnlyAuthStorage(path)).toThrow('Invalid auth.json credential for provider "x"');
		writeJson(path, { x: { type: "api_key", key: "!pass show x" } });
		const storage = new ReadOnlyAuthStorage(path);
		expect(await storage.read("x")).toEqual({ type: "api_key", key: "!pass show x" });
		await expect(storage.modify()).rejects.toThrow("Read-only credential storage cannot modify auth.json");
		await expect(storage.delete()).rejects.toThrow("Read-only credential storage cannot modify auth.json");
		expect(await new ReadOnlyAuthStorage(join(agentDir, "missing.json")).list()).toEqual([]);
	});

	it("readStoredCredential reads once without resolution and swallows errors", () => {
		const { agentDir } = tempDirs();
		const path = join(agentDir, "auth.json");
		writeJson(path, { x: { type: "api_key", key: "$REF" } });
		expect(readStoredCredential("x", path)).toEqual({ type: "api_key", key: "$REF" });
		writeText(path, "{");
		expect(readStoredCredential("x", path)).toBeUndefined();
	});
});

describe("RuntimeCredentials", () => {
	it("shadows stored credentials for reads and lists without persisting", async () => {
		const backend = new InMemoryAuthStorageBackend(JSON.stringify({ openai: { type: "api_key", key: "stored" } }));
		const store = AuthStorage.fromStorage(backend);
		const runtime = new RuntimeCredentials(store);
		runtime.setRuntimeApiKey("openai", "runtime");
		runtime.setRuntimeApiKey("groq", "runtime-groq");
		expect(runtime.hasRuntimeApiKey("openai")).toBe(true);
		expect(await runtime.read("openai")).toEqual({ type: "api_key", key: "runtime" });
		expect(await runtime.list()).toEqual([
			{ providerId: "openai", type: "api_key" },
			{ providerId: "groq", type: "api_key" },
		]);
		expect(await store.list()).toEqual([{ providerId: "openai", type: "api_key" }]);
		runtime.removeRuntimeApiKey("openai");
		expect(await runtime.read("openai")).toMatchObject({ key: "stored" });
		await runtime.delete("groq");
		expect(runtime.hasRuntimeApiKey("groq")).toBe(false);
	});

	it("settled() waits for an in-flight modification", async () => {
		const runtime = new RuntimeCredentials(AuthStorage.inMemory());
		let finish!: () => void;
		const gate = new Promise<void>((resolve) => {
			finish = resolve;
		});
		let written = false;
		void runtime.modify("codex", async () => {
			await gate;
			written = true;
			return { type: "oauth", access: "new", refresh: "r2", expires: 1 };
		});
		let settled = false;
		const done = runtime.settled().then(() => {
			settled = true;
		});
		await nextTurn();
		expect(settled).toBe(false);
		finish();
		await done;
		expect(written).toBe(true);
		expect(await runtime.read("codex")).toMatchObject({ access: "new" });
	});
});
