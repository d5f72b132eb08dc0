import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

/** Tests import packages by name; these aliases point them at `src/` so no build is needed. */
export const tauAliases: Record<string, string> = {
	"@tau/ai": `${root}packages/ai/src/index.ts`,
	"@tau/agent": `${root}packages/agent/src/index.ts`,
	"@tau/tui": `${root}packages/tui/src/index.ts`,
	"@tau/codemode": `${root}packages/codemode/src/index.ts`,
	"@tau/mcp": `${root}packages/mcp/src/index.ts`,
	"@tau/testkit": `${root}packages/testkit/src/index.ts`,
	"@tau/coding-agent": `${root}packages/coding-agent/src/index.ts`,
};

export function packageConfig(name: string) {
	return defineConfig({
		resolve: { alias: tauAliases },
		test: {
			name,
			include: ["test/**/*.test.ts"],
			environment: "node",
			testTimeout: 20_000,
			hookTimeout: 20_000,
			pool: "forks",
		},
	});
}
