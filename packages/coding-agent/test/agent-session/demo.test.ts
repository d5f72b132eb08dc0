import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEMO_MODEL_ID, DEMO_PROVIDER_ID, demoProvider } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { createIsolatedSession, isolatedModelRuntime, tempDir } from "../support/isolated-session.js";

async function demoSession(cwd: string, tools?: string[]) {
	const modelRuntime = isolatedModelRuntime({ [DEMO_PROVIDER_ID]: demoProvider() });
	const { session } = await createIsolatedSession({
		cwd,
		modelRuntime,
		model: modelRuntime.getModel(DEMO_PROVIDER_ID, DEMO_MODEL_ID)!,
		...(tools ? { session: { tools } } : {}),
	});
	return session;
}

describe("offline demo provider", () => {
	it("lists the cwd with ls, reads the README and summarizes, through the real tools", async () => {
		const cwd = tempDir("tau-demo-");
		writeFileSync(join(cwd, "README.md"), "# Widget Factory\n\nMakes widgets.\n");
		writeFileSync(join(cwd, "main.c"), "int main(void) { return 0; }\n");
		const session = await demoSession(cwd, ["ls", "read"]);
		const tools: string[] = [];
		session.subscribe((event) => {
			if (event.type === "tool_execution_end" && !event.isError) tools.push(event.toolName);
		});
		await session.prompt("look around");
		expect(tools).toEqual(["ls", "read"]);
		const answer = session.getLastAssistantText()!;
		expect(answer).toContain("offline demo model");
		expect(answer).toContain("has 2 entries: main.c, README.md.");
		expect(answer).toContain("Widget Factory");
		// Every prompt runs the same script again.
		await session.prompt("again");
		expect(tools).toEqual(["ls", "read", "ls", "read"]);
		session.dispose();
	});

	it("with the default tool set lists through bash and skips the read when there is no README", async () => {
		const cwd = tempDir("tau-demo-");
		writeFileSync(join(cwd, "data.csv"), "a,b\n");
		const session = await demoSession(cwd);
		const tools: string[] = [];
		session.subscribe((event) => {
			if (event.type === "tool_execution_end") tools.push(`${event.toolName}:${event.isError ? "error" : "ok"}`);
		});
		await session.prompt("look around");
		expect(tools).toEqual(["bash:ok"]);
		const answer = session.getLastAssistantText()!;
		expect(answer).toContain("has 1 entry: data.csv.");
		expect(answer).toContain("offline demo model");
		session.dispose();
	});
});
