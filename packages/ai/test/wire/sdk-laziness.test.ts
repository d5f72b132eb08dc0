import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
const SDKS = [
	"@anthropic-ai/sdk",
	"openai",
	"@google/genai",
	"@aws-sdk/client-bedrock-runtime",
	"@smithy/node-http-handler",
	"@mistralai/mistralai",
];

/** Value imports and re-exports of a module (type-only imports and `import()` excluded). */
function staticImports(file: string): string[] {
	const text = readFileSync(file, "utf8");
	const specifiers: string[] = [];
	const pattern = /^\s*(?:import|export)\s+(?!type\b)(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm;
	for (const match of text.matchAll(pattern)) if (match[1]) specifiers.push(match[1]);
	return specifiers;
}

function isSdk(specifier: string): boolean {
	return SDKS.some((sdk) => specifier === sdk || specifier.startsWith(`${sdk}/`));
}

/** Every source file the module at `entry` loads eagerly, and the SDK imports among them. */
function eagerGraph(entry: string): { files: Set<string>; sdkImporters: string[] } {
	const files = new Set<string>();
	const sdkImporters: string[] = [];
	const pending = [entry];
	while (pending.length > 0) {
		const file = pending.pop() as string;
		if (files.has(file)) continue;
		files.add(file);
		for (const specifier of staticImports(file)) {
			if (isSdk(specifier)) sdkImporters.push(file);
			else if (specifier.startsWith(".")) pending.push(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
		}
	}
	return { files, sdkImporters };
}

describe("provider SDKs load lazily", () => {
	it.each(["index.ts", "compat/index.ts", "providers/builtin/all.ts"])(
		"nothing %s loads eagerly imports an SDK",
		(entry) => {
			const { files, sdkImporters } = eagerGraph(resolve(SRC, entry));
			expect(files.size).toBeGreaterThan(10);
			expect(sdkImporters).toEqual([]);
			expect([...files].some((file) => file.includes("/api/"))).toBe(false);
		},
	);

	it.each([
		["anthropic-messages", "@anthropic-ai/sdk"],
		["openai-completions", "openai"],
		["openai-responses", "openai"],
		["azure-openai-responses", "openai"],
		["openai-codex-responses", "openai"],
		["google-generative-ai", "@google/genai"],
		["google-vertex", "@google/genai"],
		["mistral-conversations", "@mistralai/mistralai"],
	])("the %s adapter module itself loads %s", (api, sdk) => {
		const { sdkImporters } = eagerGraph(resolve(SRC, "api", api, "index.ts"));
		expect(sdkImporters.length).toBeGreaterThan(0);
		const imported = sdkImporters.flatMap((file) => staticImports(file).filter(isSdk));
		expect(imported.every((specifier) => specifier === sdk || specifier.startsWith(`${sdk}/`))).toBe(true);
	});

	it("the bedrock-converse-stream adapter module loads the AWS SDK and its HTTP/1.1 handler only", () => {
		const { sdkImporters } = eagerGraph(resolve(SRC, "api", "bedrock-converse-stream", "index.ts"));
		const imported = new Set(sdkImporters.flatMap((file) => staticImports(file).filter(isSdk)));
		expect([...imported].sort()).toEqual(["@aws-sdk/client-bedrock-runtime", "@smithy/node-http-handler"]);
	});
});
