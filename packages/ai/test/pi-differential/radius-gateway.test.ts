import { expectSameAnswersAsPi, type OracleCall, oracleTitle, piOracle } from "@tau/testkit";
import { describe, it } from "vitest";
import {
	normalizeRadiusGatewayUrl,
	parseRadiusGatewayConfig,
	radiusModelsFromConfig,
} from "../../src/providers/builtin/radius-gateway.js";

const oracle = piOracle();

/** tau's gateway helpers under the names pi's `providers/radius-config` module gives them. */
const tau = {
	normalizeRadiusGatewayUrl,
	getRadiusModelsFromConfig: radiusModelsFromConfig,
	getRadiusCredentialConfig: (credential: { gatewayConfig?: unknown } | undefined) =>
		parseRadiusGatewayConfig(credential?.gatewayConfig),
};

const model = (overrides: Record<string, unknown> = {}) => ({
	id: "balanced",
	name: "Balanced",
	reasoning: true,
	input: ["text", "image"],
	cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 0 },
	contextWindow: 1_000_000,
	maxTokens: 131_072,
	thinkingLevelMap: { off: null, high: "high" },
	...overrides,
});

function calls(): OracleCall[] {
	const list: OracleCall[] = [];
	for (const url of [
		"radius.pi.dev",
		"https://radius.pi.dev/",
		"http://localhost:8787//",
		"HTTPS://Gw.Example/team/",
		"gw.example/path",
	]) {
		list.push({ fn: "normalizeRadiusGatewayUrl", args: [url] });
	}
	const malformed = [
		null,
		"x",
		[],
		model({ id: 7 }),
		model({ reasoning: "yes" }),
		model({ input: "text" }),
		model({ cost: null }),
		model({ cost: [] }),
		model({ contextWindow: "1M" }),
		model({ maxTokens: undefined }),
	];
	const configs: unknown[] = [
		undefined,
		null,
		[],
		{ baseUrl: "https://radius.pi.dev/v1" },
		{ baseUrl: 1, models: [] },
		{ baseUrl: "https://radius.pi.dev/v1", models: [] },
		{ baseUrl: "https://radius.pi.dev/v1", models: [model(), ...malformed, model({ id: "cheap", extra: { a: 1 } })] },
	];
	for (const gatewayConfig of configs) {
		list.push({ fn: "getRadiusCredentialConfig", args: [{ type: "oauth", gatewayConfig }] });
	}
	list.push({ fn: "getRadiusCredentialConfig", args: [{ $undefined: true }] });
	const config = { baseUrl: "https://gw.example/v1", models: [model(), model({ id: "cheap", api: "other" })] };
	list.push({ fn: "getRadiusModelsFromConfig", args: ["team-gw", config] });
	return list;
}

describe.skipIf(!oracle.available)(oracleTitle(oracle, "Radius gateway catalogs against pi 1.6"), () => {
	it("gateway addresses and catalogs (kept, filtered, turned into models) answer as pi does", async () => {
		await expectSameAnswersAsPi(oracle, "@earendil-works/pi-ai/providers/radius-config", tau, calls());
	});
});
