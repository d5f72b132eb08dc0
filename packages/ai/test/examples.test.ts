import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as ai from "@tau/ai";
import { describe, expect, it } from "vitest";
import { runQuickstart } from "../examples/faux-quickstart.js";

describe("examples", () => {
	it("faux-quickstart runs the tool round trip offline", async () => {
		const lines: string[] = [];
		const reply = await runQuickstart((line) => lines.push(line));
		expect(lines).toContain('tool call: get_weather {"city":"Lisbon","days":"2"}');
		expect(reply.stopReason).toBe("stop");
		expect(reply.content).toEqual([{ type: "text", text: "The forecast says: sunny in Lisbon for 2 days" }]);
	});
});

describe("README", () => {
	it("runs the quick example verbatim", async () => {
		const readme = readFileSync(join(import.meta.dirname, "../README.md"), "utf8");
		const code = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
		const importLine = /import \{([^}]+)\} from "@tau\/ai";\n/;
		const names = importLine.exec(code)?.[1];
		expect(names).toBeDefined();
		// The snippet's import becomes a destructuring of the real module; stdout is captured.
		const body = `const {${names}} = ai;\n${code.replace(importLine, "")}\nreturn reply;`;
		let written = "";
		const fakeProcess = { stdout: { write: (chunk: string) => (written += chunk) } };
		const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor;
		const reply = await new AsyncFunction("ai", "process", body)(ai, fakeProcess);
		expect(written).toBe("Hello!");
		expect(reply.stopReason).toBe("stop");
	});
});
