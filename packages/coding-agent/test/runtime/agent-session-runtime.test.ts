import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fauxAssistantMessage, fauxProvider } from "@tau/ai";
import {
	type AgentSession,
	type CreateAgentSessionRuntimeFactory,
	createAgentSessionFromServices,
	createAgentSessionRuntime,
	createAgentSessionServices,
	type ExtensionAPI,
	SessionManager,
	SettingsManager,
} from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { MissingSessionCwdError, SessionImportFileNotFoundError } from "../../src/sdk/index.js";
import { gate, heldResponse } from "../agent-session/harness.js";
import { isolatedModelRuntime, NO_RESOURCES, tempDir } from "../support/isolated-session.js";

interface Setup {
	cwd: string;
	agentDir: string;
	sessionDir: string;
	faux: ReturnType<typeof fauxProvider>;
	log: string[];
	cancelSwitch: { value: boolean };
	factory: CreateAgentSessionRuntimeFactory;
}

function setup(): Setup {
	const cwd = tempDir();
	const agentDir = join(tempDir("tau-agent-"), "agent");
	const sessionDir = join(agentDir, "sessions-test");
	mkdirSync(agentDir, { recursive: true });
	const faux = fauxProvider();
	const modelRuntime = isolatedModelRuntime({ faux: faux.provider });
	const log: string[] = [];
	const cancelSwitch = { value: false };
	const factory: CreateAgentSessionRuntimeFactory = async ({ cwd: targetCwd, sessionManager, sessionStartEvent }) => {
		const services = await createAgentSessionServices({
			cwd: targetCwd,
			agentDir,
			modelRuntime,
			settingsManager: SettingsManager.inMemory({ defaultProvider: "faux", defaultModel: "faux-1" }),
			resourceLoaderOptions: {
				...NO_RESOURCES,
				extensionFactories: [
					(pi: ExtensionAPI) => {
						pi.on("session_start", (event) => {
							log.push(`session_start:${event.reason}:${event.previousSessionFile ? "prev" : "-"}`);
						});
						pi.on("session_shutdown", (event) => {
							log.push(`session_shutdown:${event.reason}`);
						});
						pi.on("session_before_switch", (event) => {
							log.push(`session_before_switch:${event.reason}`);
							return cancelSwitch.value ? { cancel: true } : undefined;
						});
					},
				],
			},
		});
		const created = await createAgentSessionFromServices({
			services,
			sessionManager,
			...(sessionStartEvent ? { sessionStartEvent } : {}),
		});
		return { ...created, services, diagnostics: services.diagnostics };
	};
	return { cwd, agentDir, sessionDir, faux, log, cancelSwitch, factory };
}

async function started(s: Setup, sessionManager?: SessionManager) {
	const runtime = await createAgentSessionRuntime(s.factory, {
		cwd: s.cwd,
		agentDir: s.agentDir,
		sessionManager: sessionManager ?? SessionManager.create(s.cwd, s.sessionDir),
	});
	runtime.setRebindSession(async (session: AgentSession) => {
		s.log.push("rebind");
		await session.bindExtensions({});
	});
	await runtime.session.bindExtensions({});
	return runtime;
}

describe("AgentSessionRuntime", () => {
	it("newSession cancelled by session_before_switch tears nothing down", async () => {
		const s = setup();
		const runtime = await started(s);
		const before = runtime.session;
		s.cancelSwitch.value = true;
		expect(await runtime.newSession()).toEqual({ cancelled: true });
		expect(runtime.session).toBe(before);
		expect(s.log).toEqual(["session_start:startup:-", "session_before_switch:new"]);
		await runtime.dispose();
	});

	it("newSession: shutdown, dispose (old ctx stale), new session, rebind with session_start, withSession last", async () => {
		const s = setup();
		const runtime = await started(s);
		s.faux.setResponses([fauxAssistantMessage("hi")]);
		await runtime.session.prompt("hello");
		const old = runtime.session;
		const oldFile = old.sessionFile;
		const oldCtx = old.extensionRunner.createContext();
		const result = await runtime.newSession({
			withSession: async (ctx) => {
				s.log.push(`withSession:${ctx.sessionManager.getSessionFile() !== oldFile}`);
			},
		});
		expect(result).toEqual({ cancelled: false });
		expect(runtime.session).not.toBe(old);
		expect(s.log).toEqual([
			"session_start:startup:-",
			"session_before_switch:new",
			"session_shutdown:new",
			"rebind",
			"session_start:new:prev",
			"withSession:true",
		]);
		expect(() => oldCtx.cwd).toThrow();
		await runtime.dispose();
		expect(s.log.at(-1)).toBe("session_shutdown:quit");
	});

	it("newSession runs setup on the new session's manager, refreshes its context, then rebinds; parentSession in the header", async () => {
		const s = setup();
		const runtime = await started(s);
		const parent = join(s.sessionDir, "parent.jsonl");
		await runtime.newSession({
			parentSession: parent,
			setup: async (sessionManager) => {
				s.log.push(
					`setup:${sessionManager
						.getEntries()
						.map((entry) => entry.type)
						.join(",")}`,
				);
				sessionManager.appendMessage({ role: "user", content: "seeded question", timestamp: Date.now() });
			},
		});
		// The factory built the session first (its initial entries exist), then setup seeded it.
		expect(s.log.slice(-4)).toEqual([
			"session_shutdown:new",
			"setup:model_change,thinking_level_change",
			"rebind",
			"session_start:new:prev",
		]);
		expect(runtime.session.messages.map((message) => message.role)).toEqual(["user"]);
		expect(runtime.session.sessionManager.getHeader()?.parentSession).toBe(parent);
		await runtime.dispose();
	});

	it("newSession during a run aborts it first: the aborted turn is persisted to the outgoing session", async () => {
		const s = setup();
		const runtime = await started(s);
		const hold = gate();
		s.faux.setResponses([fauxAssistantMessage("done before"), heldResponse(hold, fauxAssistantMessage("late"))]);
		await runtime.session.prompt("first");
		const old = runtime.session;
		const oldFile = old.sessionFile!;
		const settled: boolean[] = [];
		old.subscribe((event) => {
			if (event.type === "agent_settled") settled.push(event.aborted);
		});
		const running = old.prompt("second");
		await hold.started;
		const replacing = runtime.newSession();
		hold.release();
		await Promise.all([running, replacing]);
		expect(settled).toEqual([true]);
		expect(s.log.slice(-3)).toEqual(["session_shutdown:new", "rebind", "session_start:new:prev"]);
		const persisted = SessionManager.open(oldFile)
			.getBranch()
			.flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
		expect(persisted.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
		expect(runtime.session.sessionFile).not.toBe(oldFile);
		await runtime.dispose();
	});

	it("fork: 'before' needs a user message, unsaved sessions cannot fork, 'at' clones and selectedText comes back", async () => {
		const s = setup();
		const runtime = await started(s);
		const firstEntry = runtime.session.sessionManager.getEntries()[0]!;
		await expect(runtime.fork(firstEntry.id)).rejects.toThrow("Invalid entry ID for forking");
		s.faux.setResponses([fauxAssistantMessage("one"), fauxAssistantMessage("two")]);
		await runtime.session.prompt("first question");
		await runtime.session.prompt("second question");
		const users = runtime.session.getUserMessagesForForking();
		const forked = await runtime.fork(users[1]!.entryId);
		expect(forked).toEqual({ cancelled: false, selectedText: "second question" });
		const texts = runtime.session.getUserMessagesForForking().map((entry) => entry.text);
		expect(texts).toEqual(["first question"]);

		const assistant = runtime.session.sessionManager.getBranch().findLast((entry) => entry.type === "message")!;
		const beforeClone = runtime.session.sessionFile;
		const cloned = await runtime.fork(assistant.id, { position: "at" });
		expect(cloned).toEqual({ cancelled: false });
		expect(runtime.session.getLastAssistantText()).toBe("one");
		// "at" writes a new file holding just that path (the entry itself is the new leaf).
		expect(runtime.session.sessionFile).not.toBe(beforeClone);
		expect(existsSync(runtime.session.sessionFile!)).toBe(true);
		expect(runtime.session.sessionManager.getLeafId()).toBe(assistant.id);
		expect(runtime.session.getUserMessagesForForking().map((entry) => entry.text)).toEqual(["first question"]);
		await runtime.dispose();

		const unsaved = setup();
		const fresh = await started(unsaved);
		// Only settings entries so far: nothing has been written to disk.
		const modelChange = fresh.session.sessionManager.getEntries()[0]!;
		expect(existsSync(fresh.session.sessionFile ?? "")).toBe(false);
		await expect(fresh.fork(modelChange.id, { position: "at" })).rejects.toThrow(
			"This session has not been saved yet. Send a message before cloning or forking it.",
		);
		await fresh.dispose();
	});

	it("switchSession: session_before_switch {resume, target} can cancel; otherwise session_start {resume, previous}", async () => {
		const s = setup();
		const runtime = await started(s);
		const targets: (string | undefined)[] = [];
		s.faux.setResponses([fauxAssistantMessage("first answer"), fauxAssistantMessage("second answer")]);
		await runtime.session.prompt("first");
		const firstFile = runtime.session.sessionFile!;
		await runtime.newSession();
		await runtime.session.prompt("second");
		const secondFile = runtime.session.sessionFile!;
		s.cancelSwitch.value = true;
		expect(await runtime.switchSession(firstFile)).toEqual({ cancelled: true });
		expect(runtime.session.sessionFile).toBe(secondFile);
		s.cancelSwitch.value = false;
		s.log.length = 0;
		expect(
			await runtime.switchSession(firstFile, {
				withSession: async (ctx) => {
					targets.push(ctx.sessionManager.getSessionFile());
				},
			}),
		).toEqual({ cancelled: false });
		expect(s.log).toEqual([
			"session_before_switch:resume",
			"session_shutdown:resume",
			"rebind",
			"session_start:resume:prev",
		]);
		expect(targets).toEqual([firstFile]);
		expect(runtime.session.getLastAssistantText()).toBe("first answer");
		await runtime.dispose();
	});

	it("forking before the first user message of a saved session starts an empty session with parentSession", async () => {
		const s = setup();
		const runtime = await started(s);
		s.faux.setResponses([fauxAssistantMessage("one")]);
		await runtime.session.prompt("only question");
		const sourceFile = runtime.session.sessionFile!;
		const [first] = runtime.session.getUserMessagesForForking();
		const forked = await runtime.fork(first!.entryId);
		expect(forked).toEqual({ cancelled: false, selectedText: "only question" });
		expect(runtime.session.sessionFile).not.toBe(sourceFile);
		expect(runtime.session.messages.filter((message) => message.role !== "system")).toEqual([]);
		expect(runtime.session.sessionManager.getHeader()?.parentSession).toBe(sourceFile);
		await runtime.dispose();
	});

	it("importFromJsonl: missing file error, -1 suffix on a name collision", async () => {
		const s = setup();
		const runtime = await started(s);
		await expect(runtime.importFromJsonl(join(s.cwd, "missing.jsonl"))).rejects.toBeInstanceOf(
			SessionImportFileNotFoundError,
		);
		s.faux.setResponses([fauxAssistantMessage("saved")]);
		await runtime.session.prompt("persist me");
		const file = runtime.session.sessionFile!;
		const external = join(tempDir("tau-import-"), "shared.jsonl");
		writeFileSync(external, readFileSync(file, "utf8"));
		const taken = join(runtime.session.sessionManager.getSessionDir(), "shared.jsonl");
		writeFileSync(taken, readFileSync(file, "utf8"));
		expect(await runtime.importFromJsonl(external)).toEqual({ cancelled: false });
		expect(runtime.session.sessionFile?.endsWith("shared-1.jsonl")).toBe(true);
		expect(runtime.session.getLastAssistantText()).toBe("saved");
		expect(readdirSync(runtime.session.sessionManager.getSessionDir())).toContain("shared-1.jsonl");
		await runtime.dispose();
	});

	it("importFromJsonl deletes the copy when the session's cwd does not exist", async () => {
		const s = setup();
		const runtime = await started(s);
		const external = join(tempDir("tau-import-"), "elsewhere.jsonl");
		const header = {
			type: "session",
			version: 3,
			id: "a1b2c3d4",
			timestamp: new Date().toISOString(),
			cwd: join(s.cwd, "gone"),
		};
		writeFileSync(external, `${JSON.stringify(header)}\n`);
		await expect(runtime.importFromJsonl(external)).rejects.toBeInstanceOf(MissingSessionCwdError);
		expect(readdirSync(runtime.session.sessionManager.getSessionDir())).not.toContain("elsewhere.jsonl");
		await runtime.dispose();
	});

	it("dispose() waits for in-flight credential writes", async () => {
		const s = setup();
		const runtime = await started(s);
		let release = () => {};
		const pending = new Promise<void>((resolve) => {
			release = resolve;
		});
		let invoked = () => {};
		const waiting = new Promise<void>((resolve) => {
			invoked = resolve;
		});
		runtime.services.modelRuntime.settleCredentialWrites = () => {
			invoked();
			return pending;
		};
		let disposed = false;
		const disposing = runtime.dispose().then(() => {
			disposed = true;
		});
		await waiting;
		// Without the wait, dispose() would settle within a few microtasks of calling it.
		for (let i = 0; i < 20; i++) await Promise.resolve();
		expect(disposed).toBe(false);
		release();
		await disposing;
		expect(disposed).toBe(true);
	});

	it("takeUnreportedDiagnostics returns each diagnostic once across replacements", async () => {
		const s = setup();
		const runtime = await started(s);
		(runtime.diagnostics as { type: string; message: string }[]).push({ type: "warning", message: "once" });
		expect(runtime.takeUnreportedDiagnostics()).toEqual([{ type: "warning", message: "once" }]);
		expect(runtime.takeUnreportedDiagnostics()).toEqual([]);
		await runtime.dispose();
	});

	it("a diagnostic repeated by the factory after a replacement is not reported again", async () => {
		const s = setup();
		const factory: CreateAgentSessionRuntimeFactory = async (options) => {
			const created = await s.factory(options);
			return { ...created, diagnostics: [{ type: "warning", message: "models.json: unknown field" }] };
		};
		const runtime = await createAgentSessionRuntime(factory, {
			cwd: s.cwd,
			agentDir: s.agentDir,
			sessionManager: SessionManager.inMemory(s.cwd),
		});
		expect(runtime.takeUnreportedDiagnostics()).toEqual([{ type: "warning", message: "models.json: unknown field" }]);
		await runtime.newSession();
		expect(runtime.diagnostics).toHaveLength(1);
		expect(runtime.takeUnreportedDiagnostics()).toEqual([]);
		await runtime.dispose();
	});

	it("session.dispose() never throws, even if abort paths throw", async () => {
		const s = setup();
		const runtime = await started(s);
		runtime.session.agent.abort = () => {
			throw new Error("abort hook failed");
		};
		expect(() => runtime.session.dispose()).not.toThrow();
	});
});
