import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import {
	type AssistantMessageEvent,
	appendAssistantMessageDiagnostic,
	cleanupSessionResources,
	contentText,
	createAssistantMessageDiagnostic,
	createModels,
	fauxAssistantMessage,
	fauxProvider,
	fauxText,
	fauxThinking,
	fauxToolCall,
	formatUserAgent,
	getAttributionHeaders,
	getClientVersion,
	getIdentityHeaders,
	getOpenCodeSessionHeaders,
	mergeClientIdentity,
	mergeHeaders,
	PI_ATTRIBUTION,
	registerSessionResourceCleanup,
	sanitizeSurrogates,
	TAU_AI_VERSION,
	TAU_ATTRIBUTION,
	uuidv7,
} from "@tau/ai";
import { describe, expect, it } from "vitest";
import { protocolViolations } from "./support/event-protocol.js";

const packageRoot = join(import.meta.dirname, "..");

describe("event protocol", () => {
	it("faux streams satisfy the grammar, keep partial live and route by contentIndex", async () => {
		const models = createModels();
		const faux = fauxProvider();
		models.setProvider(faux.provider);
		faux.setResponses([
			fauxAssistantMessage([fauxThinking("plan"), fauxText("text"), fauxToolCall("t", { a: 1 }), fauxText("more")], {
				stopReason: "toolUse",
			}),
			fauxAssistantMessage("broken", { stopReason: "error", errorMessage: "x" }),
		]);
		const events: AssistantMessageEvent[] = [];
		for await (const e of models.stream(faux.getModel(), { messages: [] })) events.push(e);
		expect(protocolViolations(events)).toEqual([]);
		const partials = new Set(events.flatMap((e) => ("partial" in e ? [e.partial] : [])));
		expect(partials.size).toBe(1);
		const failed: AssistantMessageEvent[] = [];
		for await (const e of models.stream(faux.getModel(), { messages: [] })) failed.push(e);
		expect(protocolViolations(failed)).toEqual([]);
		const empty: AssistantMessageEvent[] = [];
		for await (const e of models.stream(faux.getModel(), { messages: [] })) empty.push(e);
		expect(empty.map((e) => e.type)).toEqual(["error"]);
		expect(protocolViolations(empty)).toEqual([]);
	});

	it("the validator catches broken sequences (negative control)", () => {
		const message = fauxAssistantMessage("x");
		expect(protocolViolations([{ type: "done", reason: "stop", message }])).toContain("done without start");
		expect(
			protocolViolations([
				{ type: "start", partial: message },
				{ type: "text_start", contentIndex: 0, partial: message },
				{ type: "done", reason: "toolUse", message },
			]),
		).toEqual(["blocks 0 not ended before done", "done.reason differs from stopReason"]);
		expect(
			protocolViolations([
				{ type: "start", partial: message },
				{ type: "text_start", contentIndex: 0, partial: message },
				{ type: "text_end", contentIndex: 0, content: "x", partial: message },
				{ type: "text_delta", contentIndex: 0, delta: "y", partial: message },
				{ type: "done", reason: "stop", message },
			]),
		).toEqual(["text_delta for block 0 that is not an open text block"]);
		const pending = { ...message, stopReason: "pending" as const };
		expect(protocolViolations([{ type: "error", reason: "error", error: pending }])).toEqual([
			"terminal message is still pending",
			"error.reason differs from stopReason",
			"error without errorMessage",
		]);
		const wrongIndex = [
			{ type: "start", partial: message },
			{ type: "toolcall_start", contentIndex: 0, partial: message },
		] as const;
		expect(protocolViolations([...wrongIndex, { type: "error", reason: "error", error: message }])).toContain(
			"toolcall_start index 0 does not address a toolCall block",
		);
	});
});

describe("small utilities", () => {
	it("sanitizeSurrogates removes only unpaired surrogates", () => {
		expect(sanitizeSurrogates("a\ud800b\udc00c😀")).toBe("abc😀");
	});

	it("contentText joins text blocks", () => {
		expect(contentText("plain")).toBe("plain");
		expect(
			contentText([fauxText("a"), { type: "image", data: "", mimeType: "image/png" }, fauxText("b")], " | "),
		).toBe("a | b");
	});

	it("uuidv7 produces time-ordered RFC 9562 ids", () => {
		const id = uuidv7();
		expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(Number.parseInt(id.replace(/-/g, "").slice(0, 12), 16)).toBeLessThanOrEqual(Date.now());
	});

	it("diagnostics append to the message", () => {
		const message = fauxAssistantMessage("x");
		const error = Object.assign(new Error("bad"), { code: "E1" });
		appendAssistantMessageDiagnostic(message, createAssistantMessageDiagnostic("retry", error, { attempt: 1 }));
		expect(message.diagnostics?.[0]).toMatchObject({
			type: "retry",
			error: { name: "Error", message: "bad", code: "E1" },
			details: { attempt: 1 },
		});
	});

	it("session cleanups run on request and can be unregistered", async () => {
		const seen: (string | undefined)[] = [];
		const unregister = registerSessionResourceCleanup((id) => {
			seen.push(id);
		});
		await cleanupSessionResources("s1");
		unregister();
		await cleanupSessionResources("s2");
		expect(seen).toEqual(["s1"]);
	});

	it("mergeHeaders is case-insensitive and keeps null suppressions", () => {
		expect(mergeHeaders({ "x-a": "1", Accept: "json" }, undefined, { "X-A": "2", accept: null })).toEqual({
			"X-A": "2",
			accept: null,
		});
	});

	it("client identity builds User-Agent and each provider's attribution headers", () => {
		expect(formatUserAgent(undefined)).toBe(
			`tau/${TAU_AI_VERSION} (${process.platform}; node/${process.version}; ${process.arch})`,
		);
		expect(formatUserAgent({ userAgent: "short" })).toBe("tau");
		expect(formatUserAgent({ userAgent: { custom: "my-app/1" } })).toBe("my-app/1");
		const identity = mergeClientIdentity({ attribution: TAU_ATTRIBUTION }, { version: "2" }, undefined);
		expect(getClientVersion(identity)).toBe("2");
		expect(getIdentityHeaders({ provider: "openrouter", baseUrl: "" }, identity)).toMatchObject({
			"User-Agent": expect.stringMatching(/^tau\/2 /),
			"HTTP-Referer": TAU_ATTRIBUTION.url,
			"X-OpenRouter-Title": "tau",
			"X-OpenRouter-Categories": "cli-agent",
		});
		expect(
			getAttributionHeaders({ provider: "custom", baseUrl: "https://integrate.api.nvidia.com/v1" }, identity),
		).toEqual({ "X-BILLING-INVOKE-ORIGIN": "Tau" });
		expect(getAttributionHeaders({ provider: "opencode-go", baseUrl: "" }, identity)).toEqual({
			"x-opencode-client": "tau",
		});
		expect(getOpenCodeSessionHeaders({ provider: "x", baseUrl: "https://opencode.ai/zen" }, "s1")).toEqual({
			"x-opencode-session": "s1",
		});
		expect(
			getOpenCodeSessionHeaders({ provider: "openai", baseUrl: "https://api.openai.com" }, "s1"),
		).toBeUndefined();
		expect(Object.keys(getIdentityHeaders({ provider: "openai", baseUrl: "" }, identity))).toEqual(["User-Agent"]);
		expect(mergeClientIdentity(identity, { attribution: null })?.attribution).toBeNull();
		expect(PI_ATTRIBUTION).toBe(TAU_ATTRIBUTION);
	});

	it("TAU_AI_VERSION matches package.json", () => {
		expect(TAU_AI_VERSION).toBe(JSON.parse(readFileSync(join(packageRoot, "package.json"), "utf8")).version);
	});
});

describe("lazy loading", () => {
	function sourceFiles(dir: string): string[] {
		return readdirSync(dir).flatMap((name) => {
			const path = join(dir, name);
			return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : [];
		});
	}

	it("keeps SDK imports inside the adapter folders and loads adapters only with dynamic import", () => {
		const outsideAdapters = sourceFiles(join(packageRoot, "src")).filter(
			(path) => !path.includes(`${join("src", "api")}`),
		);
		for (const path of outsideAdapters) {
			const text = readFileSync(path, "utf8");
			expect(text, path).not.toMatch(
				/from\s+["'](@anthropic-ai\/sdk|openai|@google\/genai|@aws-sdk\/[^"']+|@smithy\/[^"']+|@mistralai\/mistralai)(\/[^"']*)?["']/,
			);
			expect(text, path).not.toMatch(/from\s+["'][./]*api\/[^"']+["']/);
			// TypeBox takes hundreds of milliseconds to load; only type imports are allowed at module level.
			expect(text, path).not.toMatch(/^import\s+(?!type\b)[^;]*from\s+["']typebox/m);
		}
	});
});
