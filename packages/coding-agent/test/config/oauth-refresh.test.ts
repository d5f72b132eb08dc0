import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { defaultProviderAuthContext, type OAuthCredential, resolveProviderAuth } from "@tau/ai";
import { AuthStorage, ModelRuntime } from "@tau/coding-agent";
import lockfile from "proper-lockfile";
import { describe, expect, it, vi } from "vitest";
import { readJson, tempDirs, writeJson } from "./helpers.js";
import { fakeOAuth, recordingProvider } from "./runtime-fixtures.js";

const HOUR = 3_600_000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function expiring(extra: Record<string, unknown> = {}): OAuthCredential {
	return { type: "oauth", access: "access-1", refresh: "refresh-1", expires: Date.now() + 60_000, ...extra };
}

function refreshed(credential: OAuthCredential): OAuthCredential {
	return { ...credential, access: "access-2", refresh: "refresh-2", expires: Date.now() + HOUR };
}

function setup(credential: OAuthCredential, refresh: Parameters<typeof fakeOAuth>[0]) {
	const { agentDir } = tempDirs();
	const authPath = join(agentDir, "auth.json");
	writeJson(authPath, { codex: credential });
	const { provider } = recordingProvider("codex", { oauth: fakeOAuth(refresh) });
	const runtime = new ModelRuntime({
		modelsJsonPath: null,
		credentials: AuthStorage.create(authPath),
		builtinProviders: [provider],
	});
	return { runtime, authPath, model: runtime.getModel("codex", "codex-model")! };
}

describe("OAuth refresh", () => {
	it("does not refresh a token valid for more than 5 minutes", async () => {
		let calls = 0;
		const { runtime, model } = setup(expiring({ expires: Date.now() + 10 * 60_000 }), async (c) => {
			calls++;
			return refreshed(c);
		});
		expect((await runtime.models.getAuth(model))?.auth.apiKey).toBe("access-1");
		expect(calls).toBe(0);
	});

	it("refreshes a token expiring within 5 minutes, persists it and keeps extra fields", async () => {
		const { runtime, model, authPath } = setup(expiring({ accountId: "acct_1" }), async (c) => refreshed(c));
		expect((await runtime.models.getAuth(model))?.auth.apiKey).toBe("access-2");
		expect(readJson(authPath).codex).toMatchObject({ access: "access-2", refresh: "refresh-2", accountId: "acct_1" });
	});

	it("refreshes once when 5 requests in each of 2 processes race", { timeout: 120_000 }, async () => {
		const { agentDir } = tempDirs();
		const authPath = join(agentDir, "auth.json");
		const countPath = join(agentDir, "refresh-count");
		writeJson(authPath, { codex: expiring() });
		const sourceDir = fileURLToPath(new URL("../../src", import.meta.url));
		const aiSourceDir = fileURLToPath(new URL("../../../ai/src", import.meta.url));
		const script = fileURLToPath(new URL("./fixtures/oauth-racer.mjs", import.meta.url));
		const run = () =>
			new Promise<string[]>((resolve, reject) => {
				const child = spawn(
					process.execPath,
					["--import", "jiti/register", script, sourceDir, aiSourceDir, authPath, countPath],
					{ stdio: ["ignore", "pipe", "pipe"] },
				);
				let out = "";
				let err = "";
				child.stdout.on("data", (chunk) => {
					out += chunk;
				});
				child.stderr.on("data", (chunk) => {
					err += chunk;
				});
				child.on("error", reject);
				child.on("close", (code) =>
					code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`racer exited with ${code}: ${err}`)),
				);
			});
		const results = await Promise.all([run(), run()]);
		expect(results.flat()).toEqual(Array(10).fill("access-2"));
		expect(readFileSync(countPath, "utf8").trim().split("\n")).toHaveLength(1);
		expect(readJson(authPath).codex.refresh).toBe("refresh-2");
	});

	it("refreshes once for 5 concurrent requests in one process", async () => {
		let calls = 0;
		const { runtime, model } = setup(expiring(), async (c) => {
			calls++;
			await nextTurn();
			return refreshed(c);
		});
		const keys = await Promise.all(Array.from({ length: 5 }, () => runtime.models.getAuth(model)));
		expect(keys.map((k) => k?.auth.apiKey)).toEqual(Array(5).fill("access-2"));
		expect(calls).toBe(1);
	});

	it("lets the caller abort while waiting for the lock, before any refresh", async () => {
		let calls = 0;
		const { runtime, model, authPath } = setup(expiring(), async (c) => {
			calls++;
			return refreshed(c);
		});
		const release = await lockfile.lock(authPath, { realpath: false });
		const controller = new AbortController();
		const pending = runtime.models.getAuth(model, { signal: controller.signal });
		await nextTurn();
		controller.abort(new Error("cancelled by user"));
		await expect(pending).rejects.toThrow();
		await release();
		await runtime.settleCredentialWrites();
		expect(calls).toBe(0);
		expect(readJson(authPath).codex.access).toBe("access-1");
	});

	it("does not cancel a started refresh or its persistence when the caller aborts", async () => {
		let started!: () => void;
		const refreshStarted = new Promise<void>((resolve) => {
			started = resolve;
		});
		let finish!: () => void;
		const gate = new Promise<void>((resolve) => {
			finish = resolve;
		});
		let refreshSignal: AbortSignal | undefined;
		const { runtime, model, authPath } = setup(expiring(), async (c, signal) => {
			refreshSignal = signal;
			started();
			await gate;
			return refreshed(c);
		});
		const controller = new AbortController();
		const pending = runtime.models.getAuth(model, { signal: controller.signal });
		await refreshStarted;
		controller.abort(new Error("cancelled by user"));
		await expect(pending).rejects.toThrow();
		expect(refreshSignal?.aborted).toBe(false);
		finish();
		await runtime.settleCredentialWrites();
		expect(readJson(authPath).codex).toMatchObject({ access: "access-2", refresh: "refresh-2" });
	});

	it("reports a failed refresh and keeps the stored credential", async () => {
		const { runtime, model, authPath } = setup(expiring(), async (_c, signal) => {
			expect(signal.aborted).toBe(false);
			throw new Error("The operation was aborted due to timeout");
		});
		await expect(runtime.models.getAuth(model)).rejects.toThrow("OAuth refresh failed for codex");
		expect(readJson(authPath).codex.access).toBe("access-1");
	});

	it("gives the refresh its own 15 s timeout and reports a timed-out refresh as failed", async () => {
		// The refresh signal comes from AbortSignal.timeout; hand out one the test can fire instead of waiting 15 s.
		const deadline = new AbortController();
		const timeout = vi.spyOn(AbortSignal, "timeout").mockReturnValue(deadline.signal);
		try {
			const { runtime, model, authPath } = setup(
				expiring(),
				(_c, signal) =>
					new Promise((_resolve, reject) => {
						signal.addEventListener("abort", () => reject(signal.reason), { once: true });
						deadline.abort(new DOMException("The operation timed out.", "TimeoutError"));
					}),
			);
			await expect(runtime.models.getAuth(model)).rejects.toThrow("OAuth refresh failed for codex");
			expect(timeout).toHaveBeenCalledWith(15_000);
			expect(readJson(authPath).codex.access).toBe("access-1");
		} finally {
			timeout.mockRestore();
		}
	});

	it("returns nothing when the user logged out while the refresh waited, and stays logged out", async () => {
		let calls = 0;
		const { authPath } = setup(expiring(), async () => {
			throw new Error("unused");
		});
		const store = AuthStorage.create(authPath);
		const provider = {
			id: "codex",
			auth: {
				oauth: fakeOAuth(async (c) => {
					calls++;
					return refreshed(c);
				}),
			},
		};
		const release = await lockfile.lock(authPath, { realpath: false });
		const pending = resolveProviderAuth(provider, store, defaultProviderAuthContext());
		await nextTurn();
		// Another process logs out while this one waits for the lock.
		writeJson(authPath, {});
		await release();
		expect(await pending).toBeUndefined();
		expect(calls).toBe(0);
		expect(readJson(authPath)).toEqual({});
	});
});
