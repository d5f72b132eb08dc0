import { proxyForUrl } from "@tau/ai";
import { describe, expect, it } from "vitest";

const PROXY = "http://proxy.corp:3128";

describe("proxyForUrl: the proxy a request takes, from the environment", () => {
	it("takes HTTPS_PROXY for https targets and HTTP_PROXY for http ones", () => {
		const env = { HTTPS_PROXY: PROXY, HTTP_PROXY: "http://plain:80" };
		expect(proxyForUrl("https://api.anthropic.com/v1/messages", env)).toBe(PROXY);
		expect(proxyForUrl("http://localhost:11434/v1", env)).toBe("http://plain:80");
	});

	it("lets the lower-case name win over the upper-case one", () => {
		expect(
			proxyForUrl("https://api.openai.com", { https_proxy: "http://lower:1", HTTPS_PROXY: "http://upper:2" }),
		).toBe("http://lower:1");
		expect(proxyForUrl("https://api.openai.com", { https_proxy: "", HTTPS_PROXY: "http://upper:2" })).toBe(
			"http://upper:2",
		);
	});

	it("sends https targets through the HTTP proxy when only that is set, but never the reverse", () => {
		expect(proxyForUrl("https://api.mistral.ai", { http_proxy: PROXY })).toBe(PROXY);
		expect(proxyForUrl("http://localhost:8080", { HTTPS_PROXY: PROXY })).toBeUndefined();
	});

	it("goes direct without a proxy variable, and for schemes other than http(s)", () => {
		expect(proxyForUrl("https://api.anthropic.com", {})).toBeUndefined();
		expect(proxyForUrl("wss://chatgpt.com", { HTTPS_PROXY: PROXY })).toBeUndefined();
		expect(proxyForUrl("not a url", { HTTPS_PROXY: PROXY })).toBeUndefined();
	});

	it("bypasses NO_PROXY hosts and their subdomains, with or without a leading dot or *.", () => {
		const env = { HTTPS_PROXY: PROXY, NO_PROXY: "internal.corp, .example.com *.svc.local" };
		for (const direct of [
			"https://internal.corp",
			"https://api.internal.corp/v1",
			"https://example.com",
			"https://a.b.example.com",
			"https://model.svc.local",
		]) {
			expect(proxyForUrl(direct, env), direct).toBeUndefined();
		}
		// A suffix that is not a whole label is a different host.
		expect(proxyForUrl("https://notinternal.corp", env)).toBe(PROXY);
		expect(proxyForUrl("https://api.anthropic.com", env)).toBe(PROXY);
	});

	it("matches a NO_PROXY entry with a port only on that port (default ports count)", () => {
		const env = { HTTPS_PROXY: PROXY, HTTP_PROXY: PROXY, no_proxy: "llm.corp:8443,plain.corp:80" };
		expect(proxyForUrl("https://llm.corp:8443/v1", env)).toBeUndefined();
		expect(proxyForUrl("https://llm.corp/v1", env)).toBe(PROXY);
		expect(proxyForUrl("http://plain.corp/v1", env)).toBeUndefined();
	});

	it("treats NO_PROXY=* as every host, and matches IP addresses and bracketed IPv6", () => {
		expect(proxyForUrl("https://api.anthropic.com", { HTTPS_PROXY: PROXY, NO_PROXY: " * " })).toBeUndefined();
		const env = { HTTP_PROXY: PROXY, NO_PROXY: "127.0.0.1,[::1]" };
		expect(proxyForUrl("http://127.0.0.1:11434", env)).toBeUndefined();
		expect(proxyForUrl("http://[::1]:11434", env)).toBeUndefined();
		expect(proxyForUrl("http://10.0.0.1:11434", env)).toBe(PROXY);
	});
});
