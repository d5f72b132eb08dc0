import { fauxAssistantMessage, fauxToolCall } from "@tau/ai";
import { afterEach, describe, expect, it } from "vitest";
import { textOfMessage } from "../../agent-session/harness.js";
import {
	createMcpHarness,
	fakeCodemode,
	type McpHarness,
	realServersInstalled,
	SERVER_EVERYTHING,
	shutdownAndAssertNoProcesses,
	waitForTools,
} from "./harness.js";

let h: McpHarness | undefined;
afterEach(async () => {
	if (h) await shutdownAndAssertNoProcesses(h);
	h = undefined;
});

const toolLike = (pattern: RegExp) => (harness: McpHarness) => {
	const tool = harness.session
		.getAllTools()
		.find((candidate) => candidate.name.startsWith("mcp__everything__") && pattern.test(candidate.name));
	if (!tool) throw new Error(`no tool matching ${pattern}`);
	return tool;
};

/** Tool results as the runtime produced them (structured content is runtime-only). */
function toolResults(harness: McpHarness) {
	return harness.events.flatMap((event) =>
		event.type === "tool_execution_end"
			? [
					{ toolName: event.toolName, isError: event.isError, ...(event.result as object) } as {
						toolName: string;
						content: { type: string; text?: string; data?: string }[];
						isError: boolean;
						details: unknown;
						structuredContent?: unknown;
					},
				]
			: [],
	);
}

describe.skipIf(!realServersInstalled)(
	"builtin:mcp with server-everything (stdio; skipped without TAU_MCP_SERVERS)",
	() => {
		it("direct exposure: hyphenated tools are declared in the first request and callable; images, structured content, annotations", async () => {
			h = await createMcpHarness({ everything: { command: SERVER_EVERYTHING, exposure: "direct" } });
			await waitForTools(h, "mcp__everything__");
			const echo = toolLike(/echo/)(h);
			expect(echo.name).toBe("mcp__everything__echo");
			expect(echo.exposure).toBe("direct");
			expect(echo.annotations).toMatchObject({ readOnlyHint: true });
			const image = toolLike(/tiny.?image/)(h);
			const structured = toolLike(/structured/)(h);
			expect(image.name).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
			h.faux.setResponses([
				fauxAssistantMessage(
					[
						fauxToolCall(echo.name, { message: "hello mcp" }, { id: "c1" }),
						fauxToolCall(image.name, {}, { id: "c2" }),
						fauxToolCall(structured.name, { location: "New York" }, { id: "c3" }),
					],
					{ stopReason: "toolUse" },
				),
				fauxAssistantMessage("done"),
			]);
			await h.session.prompt("go");
			expect(h.declared[0]).toContain(echo.name);
			const [echoResult, imageResult, structuredResult] = toolResults(h);
			expect(textOfMessage(echoResult!)).toContain("hello mcp");
			expect(echoResult!.details).toEqual({ server: "everything", tool: "echo" });
			expect(imageResult!.content.some((block) => block.type === "image")).toBe(true);
			expect(structuredResult!.structuredContent).toMatchObject({ structuredContent: expect.any(Object) });
		});

		it("default (codemode) exposure: script-callable, undeclared, codemode auto-activated, mcp_servers section listed", async () => {
			const calls: string[] = [];
			h = await createMcpHarness(
				{ everything: { command: SERVER_EVERYTHING, description: "Reference test server" } },
				{ extraExtensions: [fakeCodemode(calls)] },
			);
			expect(h.session.getActiveToolNames()).toContain("codemode");
			h.faux.setResponses([
				fauxAssistantMessage(
					fauxToolCall(
						"codemode",
						{ code: JSON.stringify(["mcp__everything__echo", { message: "from script" }]) },
						{ id: "s1" },
					),
					{
						stopReason: "toolUse",
					},
				),
				fauxAssistantMessage("done"),
			]);
			await h.session.prompt("go");
			expect(h.declared[0]).not.toContain("mcp__everything__echo");
			expect(h.declared[0]).toContain("codemode");
			expect(h.systemTexts[0]).toContain("mcp__everything (codemode): Reference test server");
			const result = toolResults(h).find((message) => message.toolName === "codemode")!;
			expect(textOfMessage(result)).toContain("from script");
			expect(calls).toEqual(["mcp__everything__echo"]);
			expect(toolLike(/echo/)(h).exposure).toBe("deferred");
		});

		it("a long-running tool's progress reaches the session as one update per step", async () => {
			// No timing here: that progress re-arms a request's timeout is tested with fake timers in
			// @tau/mcp's client test; this checks the real server's progress gets through to the session.
			h = await createMcpHarness({ everything: { command: SERVER_EVERYTHING, exposure: "direct" } });
			await waitForTools(h, "mcp__everything__");
			const long = toolLike(/long.?running/)(h);
			h.faux.setResponses([
				fauxAssistantMessage(fauxToolCall(long.name, { duration: 0.5, steps: 5 }, { id: "l1" }), {
					stopReason: "toolUse",
				}),
				fauxAssistantMessage("done"),
			]);
			const updates: unknown[] = [];
			h.session.subscribe((event) => {
				if (event.type === "tool_execution_update") updates.push(event.partialResult);
			});
			await h.session.prompt("go");
			const [result] = toolResults(h);
			expect(result!.isError).toBe(false);
			expect(updates).toHaveLength(5);
			expect(updates[4]).toMatchObject({ content: [{ type: "text", text: expect.stringContaining("5/5") }] });
		});

		it("resource tools list and read the server's resources", async () => {
			h = await createMcpHarness({ everything: { command: SERVER_EVERYTHING, exposure: "direct" } });
			await waitForTools(h, "list_mcp_resources");
			expect(h.session.getActiveToolNames()).toEqual(
				expect.arrayContaining(["list_mcp_resources", "read_mcp_resource"]),
			);
			h.faux.setResponses([
				fauxAssistantMessage(fauxToolCall("list_mcp_resources", {}, { id: "r1" }), { stopReason: "toolUse" }),
				fauxAssistantMessage("done"),
			]);
			await h.session.prompt("list");
			const list = toolResults(h)[0]!;
			const listing = list.structuredContent as { resources: { server: string; uri: string }[] };
			expect(listing.resources.length).toBeGreaterThan(0);
			expect(listing.resources[0]!.server).toBe("everything");
			const uri = listing.resources[0]!.uri;
			h.faux.setResponses([
				fauxAssistantMessage(fauxToolCall("read_mcp_resource", { server: "everything", uri }, { id: "r2" }), {
					stopReason: "toolUse",
				}),
				fauxAssistantMessage("done"),
			]);
			await h.session.prompt("read");
			const read = toolResults(h)[1]!;
			expect(read.isError).toBe(false);
			expect(read.structuredContent).toMatchObject({ server: "everything", uri });
		});
	},
);
