import { isMcpServerOverride, validateMcpServerConfig } from "@tau/mcp";
import { describe, expect, it } from "vitest";

describe("validateMcpServerConfig", () => {
	it("infers the transport and keeps unknown fields", () => {
		expect(validateMcpServerConfig("fs", { command: "npx", args: ["x"], extra: 1 })).toEqual({
			kind: "stdio",
			config: { command: "npx", args: ["x"], extra: 1 },
		});
		expect(validateMcpServerConfig("web", { url: "https://example.com/mcp", exposure: "codemode-deferred" })).toEqual(
			{
				kind: "http",
				config: { url: "https://example.com/mcp", exposure: "codemode" },
			},
		);
	});

	it("rejects sse, bad names, missing transport and bad fields", () => {
		const error = (name: string, raw: unknown) => {
			const result = validateMcpServerConfig(name, raw);
			return result.kind === "invalid" ? result.error : "";
		};
		expect(error("a", { type: "sse", url: "https://x/sse" })).toMatch(/Streamable HTTP.*\/mcp/);
		expect(error("a b", { command: "x" })).toMatch(/letters, digits/);
		expect(error("a", { enabled: false })).toMatch(/needs "command"/);
		expect(error("a", { url: "ftp://x" })).toMatch(/http: or https:/);
		expect(error("a", { command: "x", args: "y" })).toMatch(/args/);
		expect(error("a", { command: "x", exposure: "everywhere" })).toMatch(/exposure/);
		expect(error("a", { command: "x", timeout: 0 })).toMatch(/timeout/);
		expect(error("a", { url: "https://x", oauth: { callbackPort: 70000 } })).toMatch(/callbackPort/);
		expect(error("a", { url: "https://x", oauth: { clientRegistration: "cimd" } })).toMatch(/metadata documents/);
		expect(error("a", { url: "https://x", oauth: { callbackUrl: "http://example.com/cb" } })).toMatch(/localhost/);
		expect(error("a", { url: "http://example.com", auth: { provider: "p" } })).toMatch(/https/);
	});

	it("recognizes overrides", () => {
		expect(isMcpServerOverride({ enabled: false })).toBe(true);
		expect(isMcpServerOverride({ command: "x" })).toBe(false);
		expect(isMcpServerOverride({ type: "http" })).toBe(false);
	});
});
