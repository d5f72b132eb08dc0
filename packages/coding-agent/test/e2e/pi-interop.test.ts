import { existsSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import {
	CLI,
	cliBuilt,
	mockServer,
	PI_CLI,
	PI_NODE,
	piInstalled,
	runCli,
	runPi,
	type Sandbox,
	sandbox,
	writeMockModels,
} from "./harness.js";

/** The texts of the user and assistant turns an Anthropic Messages request carries. */
function conversation(body: unknown): string[] {
	const messages = (body as { messages: { role: string; content: string | { type: string; text?: string }[] }[] })
		.messages;
	return messages.map((message) => {
		const text =
			typeof message.content === "string"
				? message.content
				: message.content.map((block) => (block.type === "text" ? (block.text ?? "") : `[${block.type}]`)).join("");
		return `${message.role}: ${text}`;
	});
}

function sessionFiles(box: Sandbox): string[] {
	const root = join(box.agentDir, "sessions");
	if (!existsSync(root)) return [];
	return readdirSync(root).flatMap((dir) => readdirSync(join(root, dir)).map((file) => join(root, dir, file)));
}

describe.skipIf(!cliBuilt || !piInstalled)("interop with pi 1.6 (reference from scripts/pi-reference.mjs)", () => {
	it("a session pi wrote continues in tau (-c), and tau's request replays pi's turns", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "pi answered" }, { text: "tau answered" });
		expect(await runPi(box, ["-p", "first question"])).toMatchObject({ code: 0, stdout: "pi answered\n" });
		const [file] = sessionFiles(box);
		expect(file).toBeDefined();
		expect(await runCli(box, ["-c", "-p", "second question"])).toMatchObject({ code: 0, stdout: "tau answered\n" });
		expect(sessionFiles(box)).toEqual([file]);
		expect(conversation(server.requests[1]!.body)).toEqual([
			"user: first question",
			"assistant: pi answered",
			"user: second question",
		]);
	});

	it("a session tau wrote continues in pi (-c), and pi's request replays tau's turns", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "tau answered" }, { text: "pi answered" });
		expect(await runCli(box, ["-p", "first question"])).toMatchObject({ code: 0, stdout: "tau answered\n" });
		const pi = await runPi(box, ["-c", "-p", "second question"]);
		expect(pi).toMatchObject({ code: 0, stdout: "pi answered\n" });
		expect(sessionFiles(box)).toHaveLength(1);
		expect(conversation(server.requests[1]!.body)).toEqual([
			"user: first question",
			"assistant: tau answered",
			"user: second question",
		]);
	});

	it("like pi, a response that stalls midway for httpIdleTimeoutMs ends the attempt and the retry answers", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const settingsPath = join(box.agentDir, "settings.json");
		const settings = JSON.parse(readFileSync(settingsPath, "utf8")) as object;
		writeFileSync(settingsPath, JSON.stringify({ ...settings, httpIdleTimeoutMs: 1000 }));
		const stalledThenAnswered = () =>
			server.enqueue({ text: { tokens: 400 }, fault: { kind: "stall", afterBytes: 3000 } }, { text: "recovered" });
		const results: Record<string, unknown> = {};
		for (const [name, run] of [
			["pi", () => runPi(box, ["--no-session", "-p", "hi"])],
			["tau", () => runCli(box, ["--no-session", "-p", "hi"])],
		] as const) {
			stalledThenAnswered();
			const before = server.requests.length;
			const { code, stdout } = await run();
			results[name] = { code, stdout, requests: server.requests.length - before };
		}
		expect(results.tau).toEqual(results.pi);
		expect(results.tau).toEqual({ code: 0, stdout: "recovered\n", requests: 2 });
	});

	it("--mode json streams the same event sequence as pi for a tool-using run", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		writeFileSync(join(box.project, "notes.txt"), "interop\n");
		const script = () =>
			server.enqueue(
				{ toolCalls: [{ id: "call_1", name: "read", arguments: { path: "notes.txt" } }], stopReason: "toolUse" },
				{ text: "done" },
			);
		/** Event kinds in order (repeats collapsed), without tau's tool-intent records (a tau-only entry). */
		const shape = (stdout: string) => {
			const kinds = stdout
				.trim()
				.split("\n")
				.map((line) => JSON.parse(line) as JsonEvent)
				.filter((event) => event.entry?.customType !== "tau.tool-intent")
				.map(
					(event) =>
						`${event.type}${event.assistantMessageEvent ? `:${event.assistantMessageEvent.type}` : ""}${event.message ? `(${event.message.role})` : ""}`,
				);
			return kinds.filter((kind, i) => kind !== kinds[i - 1]);
		};
		script();
		const tau = await runCli(box, ["--no-session", "--mode", "json", "go"]);
		script();
		const pi = await runPi(box, ["--no-session", "--mode", "json", "go"]);
		expect(tau.code).toBe(0);
		expect(pi.code).toBe(0);
		expect(shape(tau.stdout)).toContain("tool_execution_end");
		expect(shape(tau.stdout)).toEqual(shape(pi.stdout));
		// Both sent the file's content back to the model the same way.
		expect(conversation(server.requests[1]!.body)).toEqual(conversation(server.requests[3]!.body));
	});

	it("pi's own RpcClient drives tau --mode rpc and sees what it sees from pi", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.setFactory(() => ({ text: "hello over rpc" }));
		const rpcClientUrl = pathToFileURL(join(dirname(PI_CLI), "..", "modes", "rpc", "rpc-client.js")).href;
		const { RpcClient } = (await import(rpcClientUrl)) as { RpcClient: new (options: object) => PiRpcClient };
		// The client spawns `node <cliPath>`: a PATH whose `node` is the Node 22 that pi needs.
		const node22 = mkdtempSync(join(box.home, "node22-"));
		symlinkSync(PI_NODE, join(node22, "node"));
		const drive = async (cliPath: string, env: NodeJS.ProcessEnv) => {
			const client = new RpcClient({ cliPath, cwd: box.project, env, provider: "mock", model: "mock-model" });
			await client.start();
			try {
				const events = await client.promptAndWait("hi");
				const state = await client.getState();
				const stats = await client.getSessionStats();
				const bash = await client.bash("echo interop");
				await client.setSessionName("interop session");
				return {
					eventTypes: [...new Set(events.map((event) => event.type))].sort(),
					lastText: await client.getLastAssistantText(),
					roles: (await client.getMessages()).map((message) => message.role),
					stateKeys: Object.keys(state).sort(),
					model: state.model?.id,
					statsKeys: Object.keys(stats).sort(),
					userMessages: stats.userMessages,
					hasMockModel: (await client.getAvailableModels()).some((model) => model.id === "mock-model"),
					bash: { output: bash.output.trim(), exitCode: bash.exitCode },
					name: (await client.getState()).sessionName,
				};
			} finally {
				await client.stop();
			}
		};
		const fromTau = await drive(CLI, box.env);
		const fromPi = await drive(PI_CLI, {
			...box.env,
			PATH: `${node22}:${box.env.PATH}`,
			PI_CODING_AGENT_DIR: box.agentDir,
			PI_OFFLINE: "1",
			PI_SKIP_VERSION_CHECK: "1",
		});
		expect(fromTau).toMatchObject({
			lastText: "hello over rpc",
			roles: ["system", "user", "assistant", "bashExecution"],
			model: "mock-model",
			userMessages: 1,
			hasMockModel: true,
			bash: { output: "interop", exitCode: 0 },
			name: "interop session",
		});
		expect(fromTau).toEqual(fromPi);
	});
});

interface JsonEvent {
	type: string;
	assistantMessageEvent?: { type: string };
	message?: { role: string };
	entry?: { customType?: string };
}

/** The part of pi's RpcClient these tests use. */
interface PiRpcClient {
	start(): Promise<void>;
	stop(): Promise<void>;
	promptAndWait(message: string): Promise<{ type: string }[]>;
	getLastAssistantText(): Promise<string | null>;
	getState(): Promise<{ model?: { id: string }; sessionName?: string }>;
	getMessages(): Promise<{ role: string }[]>;
	getAvailableModels(): Promise<{ id: string }[]>;
	bash(command: string): Promise<{ output: string; exitCode: number | undefined }>;
	setSessionName(name: string): Promise<void>;
	getSessionStats(): Promise<{ userMessages: number }>;
}
