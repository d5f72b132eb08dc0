import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readJson, tempDirs, writeJson } from "../config/helpers.js";
import { runAuth as run, scriptedTerminal } from "./scripted-terminal.js";

/**
 * An extension that registers provider `corp` with its own sign-in, the way Pi's custom-provider
 * docs describe `registerProvider(name, { oauth })`: the login shows a URL and asks for a code,
 * refresh rotates the tokens, and the API key is derived from the access token.
 */
function corpExtension(baseUrl: string): string {
	return `
export default function (pi) {
	pi.registerProvider("corp", {
		baseUrl: ${JSON.stringify(baseUrl)},
		api: "openai-completions",
		models: [{ id: "corp-model", name: "Corp Model", reasoning: false, input: ["text"], contextWindow: 8000, maxTokens: 1000, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } }],
		oauth: {
			name: "Corp SSO",
			async login(callbacks) {
				callbacks.onAuth({ url: "https://sso.corp.example/start" });
				const method = await callbacks.onSelect({ message: "Method", options: [{ id: "sso", label: "SSO" }, { id: "other", label: "Other" }] });
				const code = await callbacks.onPrompt({ message: "Code" });
				return { access: "access-" + method + "-" + code, refresh: "refresh-1", expires: Date.now() + 3600000, tenant: "acme" };
			},
			async refreshToken(credentials) {
				return { ...credentials, access: "access-refreshed", refresh: "refresh-2", expires: Date.now() + 3600000 };
			},
			getApiKey: (credentials) => "key-" + credentials.access,
		},
	});
}
`;
}

describe("an extension provider's own OAuth login", () => {
	it("tau auth login runs the extension's callbacks and stores the credential like Pi", async () => {
		const { agentDir } = tempDirs();
		mkdirSync(join(agentDir, "extensions"), { recursive: true });
		writeFileSync(join(agentDir, "extensions", "corp.js"), corpExtension("http://127.0.0.1:9"));
		const terminal = scriptedTerminal(["1\r", "xyz\r"]);
		const opened: string[] = [];
		const result = await run(["login", "corp"], { agentDir, terminal, openUrl: (url) => opened.push(url) });
		expect(result).toMatchObject({ code: 0, stdout: "Logged in to corp (corp).\n" });
		expect(opened).toEqual(["https://sso.corp.example/start"]);
		expect(readJson(join(agentDir, "auth.json")).corp).toEqual({
			type: "oauth",
			access: "access-sso-xyz",
			refresh: "refresh-1",
			expires: expect.any(Number),
			tenant: "acme",
		});
		const key = await run(["print-api-key", "--provider", "corp"], { agentDir });
		expect(key).toMatchObject({ code: 0, stdout: "key-access-sso-xyz\n" });
	});

	it("refreshes an expired credential through the extension's hook and derives the key with getApiKey", async () => {
		const { agentDir } = tempDirs();
		mkdirSync(join(agentDir, "extensions"), { recursive: true });
		writeFileSync(join(agentDir, "extensions", "corp.js"), corpExtension("http://127.0.0.1:9/v1"));
		const authPath = join(agentDir, "auth.json");
		writeJson(authPath, { corp: { type: "oauth", access: "old", refresh: "refresh-1", expires: Date.now() - 1000 } });
		const key = await run(["print-api-key", "--model", "corp/corp-model"], { agentDir });
		expect(key).toMatchObject({ code: 0, stdout: "key-access-refreshed\n" });
		expect(readJson(authPath).corp).toMatchObject({ access: "access-refreshed", refresh: "refresh-2" });
	});
});
