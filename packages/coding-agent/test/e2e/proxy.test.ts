import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	createTestCertificates,
	type MockLlmServer,
	opensslAvailable,
	type ProxyServer,
	startProxyServer,
	type TestCertificates,
} from "@tau/testkit";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
	API_KEY,
	cliBuilt,
	mockServer,
	piInstalled,
	runCli,
	runPi,
	type Sandbox,
	sandbox,
	writeMockModels,
} from "./harness.js";

/** A host name that resolves nowhere: only a request that went through the proxy can reach it. */
const HIDDEN_HOST = "llm.tau.test";

const proxies: ProxyServer[] = [];
afterEach(async () => {
	await Promise.all(proxies.splice(0).map((proxy) => proxy.close()));
});

async function proxyServer(options: Parameters<typeof startProxyServer>[0] = {}): Promise<ProxyServer> {
	const proxy = await startProxyServer(options);
	proxies.push(proxy);
	return proxy;
}

/** settings.json as `writeMockModels` left it, plus `extra`. */
function addSettings(box: Sandbox, extra: Record<string, unknown>): void {
	const file = join(box.agentDir, "settings.json");
	writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, "utf8")), ...extra }));
}

describe.skipIf(!cliBuilt)("tau -p behind an HTTP proxy (built CLI)", () => {
	it("reaches the provider through the CONNECT proxy that HTTP_PROXY names", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "via the proxy" });
		const proxy = await proxyServer();
		const result = await runCli(box, ["-p", "hi"], { env: { HTTP_PROXY: proxy.url } });
		expect(result.stderr).toBe("");
		expect(result.stdout).toBe("via the proxy\n");
		expect(new Set(proxy.connects)).toEqual(new Set([new URL(server.baseUrl).host]));
	});

	it("goes direct to a host that no_proxy lists", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		server.enqueue({ text: "direct" });
		const proxy = await proxyServer();
		const result = await runCli(box, ["-p", "hi"], { env: { http_proxy: proxy.url, no_proxy: "127.0.0.1" } });
		expect(result.stdout).toBe("direct\n");
		expect(proxy.connects).toEqual([]);
	});

	it("tau mcp (a subcommand) reaches an HTTP MCP server through the proxy too", async () => {
		const box = sandbox();
		const server = await mockServer();
		const port = Number(new URL(server.baseUrl).port);
		const proxy = await proxyServer({ route: () => ({ host: "127.0.0.1", port }) });
		const mcpServers = { web: { url: `http://${HIDDEN_HOST}/mcp` } };
		writeFileSync(join(box.agentDir, "mcp.json"), JSON.stringify({ mcpServers }));
		await runCli(box, ["mcp", "list", "--json"], { env: { HTTP_PROXY: proxy.url } });
		expect(proxy.connects).toContain(`${HIDDEN_HOST}:80`);
	});

	it("takes the proxy of the httpProxy setting when the environment names none", async () => {
		const box = sandbox();
		const server = await mockServer();
		writeMockModels(box, server);
		const proxy = await proxyServer();
		addSettings(box, { httpProxy: proxy.url });
		server.enqueue({ text: "set in settings" });
		const result = await runCli(box, ["-p", "hi"]);
		expect(result.stdout).toBe("set in settings\n");
		expect(proxy.connects).toContain(new URL(server.baseUrl).host);
	});
});

describe.skipIf(!cliBuilt || !opensslAvailable())(
	"tau -p behind a TLS-inspecting proxy (built CLI; skipped without the openssl command)",
	() => {
		let certificates: TestCertificates;
		beforeAll(() => {
			certificates = createTestCertificates([HIDDEN_HOST]);
		});

		/**
		 * A proxy that inspects TLS and leads `HIDDEN_HOST:443` to `server`, and models.json sending tau there
		 * over `api`.
		 */
		async function inspectedRoute(
			box: Sandbox,
			server: MockLlmServer,
			api = "anthropic-messages",
		): Promise<ProxyServer> {
			const port = Number(new URL(server.baseUrl).port);
			const proxy = await proxyServer({
				intercept: { cert: certificates.cert, key: certificates.key },
				route: (host, targetPort) =>
					host === HIDDEN_HOST ? { host: "127.0.0.1", port } : { host, port: targetPort },
			});
			writeMockModels(box, server);
			const models = JSON.parse(readFileSync(join(box.agentDir, "models.json"), "utf8"));
			models.providers.mock.baseUrl = `https://${HIDDEN_HOST}`;
			models.providers.mock.api = api;
			writeFileSync(join(box.agentDir, "models.json"), JSON.stringify(models));
			return proxy;
		}

		it("trusts the proxy's certificates through NODE_EXTRA_CA_CERTS", async () => {
			const box = sandbox();
			const server = await mockServer();
			const proxy = await inspectedRoute(box, server);
			server.enqueue({ text: "inspected and trusted" });
			const env = { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certificates.caFile };
			const result = await runCli(box, ["-p", "hi"], { env });
			expect(result.stderr).toBe("");
			expect(result.stdout).toBe("inspected and trusted\n");
			expect(proxy.connects).toEqual([`${HIDDEN_HOST}:443`]);
			expect(server.requests[0]?.headers).toMatchObject({ host: HIDDEN_HOST, "x-api-key": API_KEY });
		});

		it("Bedrock (the AWS SDK's own HTTP stack) takes the same route and trusts the same CA", async () => {
			const box = sandbox();
			const server = await mockServer();
			const proxy = await inspectedRoute(box, server, "bedrock-converse-stream");
			server.enqueue({ text: "bedrock inspected" });
			const env = { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certificates.caFile, AWS_REGION: "us-east-1" };
			const result = await runCli(box, ["-p", "hi"], { env });
			expect(result.stderr).toBe("");
			expect(result.stdout).toBe("bedrock inspected\n");
			expect(proxy.connects).toEqual([`${HIDDEN_HOST}:443`]);
			expect(server.requests[0]?.path).toBe("/model/mock-model/converse-stream");
		});

		it("control: without the extra CA the request fails on the proxy's certificate", async () => {
			const box = sandbox();
			const server = await mockServer();
			const proxy = await inspectedRoute(box, server);
			const result = await runCli(box, ["-p", "hi"], { env: { HTTPS_PROXY: proxy.url } });
			expect(result.code).not.toBe(0);
			expect(result.stderr).toMatch(/certificate/i);
			expect(proxy.connects.length).toBeGreaterThan(0);
			expect(server.requests).toEqual([]);
		});

		it.skipIf(!piInstalled)(
			"pi 1.6 takes the same route with the same settings (oracle; skipped without the pi reference)",
			async () => {
				const box = sandbox();
				const server = await mockServer();
				const proxy = await inspectedRoute(box, server);
				server.enqueue({ text: "pi too" });
				const result = await runPi(box, ["-p", "hi"], {
					HTTPS_PROXY: proxy.url,
					NODE_EXTRA_CA_CERTS: certificates.caFile,
				});
				expect(result.stdout).toBe("pi too\n");
				expect(proxy.connects).toEqual([`${HIDDEN_HOST}:443`]);
			},
		);
	},
);
