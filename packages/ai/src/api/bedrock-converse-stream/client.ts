import {
	BedrockRuntimeClient,
	type BedrockRuntimeClientConfig,
	type ConverseStreamCommand,
} from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { HttpsProxyAgent } from "https-proxy-agent";
import { proxyForUrl } from "../../network/proxy-env.js";
import type { BedrockOptions } from "../../types/api-options.js";
import type { Api, Model } from "../../types/model.js";
import type { ProviderResponseInfo } from "../../types/options.js";
import { mergeHeaders } from "../../utils/headers.js";
import { requestEnv } from "../../utils/request-env.js";
import { TAU_AI_VERSION } from "../../version.js";
import { cachedSdkClient } from "../shared/sdk-client-cache.js";

const STANDARD_ENDPOINT = /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+)\.amazonaws\.com(?:\.cn)?$/;
const ARN_REGION = /^arn:aws(?:-[a-z0-9-]+)?:bedrock:([a-z0-9-]+):/;

/** The region of a standard `bedrock-runtime.<region>.amazonaws.com` endpoint. */
function endpointRegion(baseUrl: string): string | undefined {
	try {
		return STANDARD_ENDPOINT.exec(new URL(baseUrl).hostname.toLowerCase())?.[1];
	} catch {
		return undefined;
	}
}

/** The region the user configured (options, then `AWS_REGION`, then `AWS_DEFAULT_REGION`). */
export function configuredRegion(options: BedrockOptions): string | undefined {
	return options.region || requestEnv("AWS_REGION", options) || requestEnv("AWS_DEFAULT_REGION", options);
}

/**
 * The client configuration: region (an ARN's own, the configured one, the catalog endpoint's, else
 * us-east-1 unless a profile names one), the catalog endpoint unless the user chose a region, and the
 * credentials: a bearer token (Bedrock API key), access keys from the env, else the AWS SDK's default
 * chain (profiles, SSO, container and instance roles; docs/providers.md).
 */
function clientConfig(model: Model<Api>, options: BedrockOptions): BedrockRuntimeClientConfig {
	const region = configuredRegion(options);
	const profile = options.profile || requestEnv("AWS_PROFILE", options);
	const standardRegion = endpointRegion(model.baseUrl);
	const explicitEndpoint = !standardRegion || (!region && !profile);
	const config: BedrockRuntimeClientConfig = {
		// SDK retries stay off: tau's abortable request retry wraps the call.
		maxAttempts: 1,
		customUserAgent: [["tau", TAU_AI_VERSION]],
	};
	if (profile) config.profile = profile;
	if (explicitEndpoint && model.baseUrl) config.endpoint = model.baseUrl;
	const arnRegion = ARN_REGION.exec(model.id)?.[1];
	const resolvedRegion =
		arnRegion ?? region ?? (explicitEndpoint ? standardRegion : undefined) ?? (profile ? undefined : "us-east-1");
	if (resolvedRegion) config.region = resolvedRegion;
	const bearer = options.bearerToken || options.apiKey || requestEnv("AWS_BEARER_TOKEN_BEDROCK", options);
	if (bearer) {
		config.token = { token: bearer };
		config.authSchemePreference = ["httpBearerAuth"];
		return config;
	}
	const accessKeyId = requestEnv("AWS_ACCESS_KEY_ID", options);
	const secretAccessKey = requestEnv("AWS_SECRET_ACCESS_KEY", options);
	if (accessKeyId && secretAccessKey && !options.profile) {
		const sessionToken = requestEnv("AWS_SESSION_TOKEN", options);
		config.credentials = { accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) };
	}
	return config;
}

/**
 * The proxy for this model's endpoint (or the regional default), by the rules `fetch` follows once tau
 * routes it through a proxy, with the request's env over the process's (docs/providers.md).
 */
function proxyFor(model: Model<Api>, options: BedrockOptions, region: string | undefined): string | undefined {
	const target = model.baseUrl || `https://bedrock-runtime.${region ?? "us-east-1"}.amazonaws.com`;
	return proxyForUrl(target, options.env ? { ...process.env, ...options.env } : process.env);
}

/**
 * The AWS SDK sends requests over node:http(s), which no `fetch` dispatcher reaches: a proxy needs an
 * agent of its own. CONNECT tunnels serve plain-HTTP endpoints too, as they do for `fetch`.
 */
function proxyAgents(proxy: string | undefined): {
	httpAgent?: HttpsProxyAgent<string>;
	httpsAgent?: HttpsProxyAgent<string>;
} {
	if (proxy === undefined) return {};
	const agent = new HttpsProxyAgent(proxy, { keepAlive: true });
	return { httpAgent: agent, httpsAgent: agent };
}

/** A client for these options, reused across requests. */
export function createBedrockClient(model: Model<Api>, options: BedrockOptions): BedrockRuntimeClient {
	const config = clientConfig(model, options);
	const proxy = proxyFor(model, options, config.region as string | undefined);
	const credentials = config.credentials as
		| { accessKeyId?: string; secretAccessKey?: string; sessionToken?: string }
		| undefined;
	const key = JSON.stringify([
		config.region ?? null,
		config.endpoint ?? null,
		config.profile ?? null,
		(config.token as { token?: string } | undefined)?.token ?? null,
		credentials ? [credentials.accessKeyId, credentials.secretAccessKey, credentials.sessionToken ?? null] : null,
		proxy ?? null,
	]);
	return cachedSdkClient(
		{
			kind: "bedrock",
			baseUrl: model.baseUrl,
			credential: key,
			headers: {},
			timeoutMs: options.timeoutMs,
			fetch: undefined,
		},
		() => {
			// HTTP/1.1: ConverseStream needs no HTTP/2, and proxies and local endpoints often speak only 1.1.
			config.requestHandler = new NodeHttpHandler({
				...(options.timeoutMs !== undefined ? { requestTimeout: options.timeoutMs } : {}),
				...proxyAgents(proxy),
			});
			return withoutNodeVersionWarning(() => new BedrockRuntimeClient(config));
		},
	);
}

const NODE_WARNING_SWITCH = "AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED";

/**
 * The SDK warns on stderr, while building a client, about the Node version its future releases need;
 * tau supports Node 20, so the warning would only disturb the terminal. The switch is set for that
 * moment only (child processes never see it), and a user's own setting wins.
 */
function withoutNodeVersionWarning<T>(create: () => T): T {
	if (process.env[NODE_WARNING_SWITCH] !== undefined) return create();
	process.env[NODE_WARNING_SWITCH] = "true";
	try {
		return create();
	} finally {
		delete process.env[NODE_WARNING_SWITCH];
	}
}

/** Headers SigV4 signs or the auth scheme owns; a caller may not replace them. */
function isReserved(name: string): boolean {
	const lower = name.toLowerCase();
	return lower === "authorization" || lower === "host" || lower.startsWith("x-amz-");
}

/**
 * Per-request middleware: the model's and caller's headers join the request before it is signed, and the
 * raw HTTP response (status and headers, which the modeled output drops) is captured for `onResponse`.
 */
export function instrumentCommand(
	command: ConverseStreamCommand,
	model: Model<Api>,
	options: BedrockOptions,
	onResponse: (info: ProviderResponseInfo) => void,
): void {
	const headers = mergeHeaders(model.headers, options.headers);
	command.middlewareStack.add(
		(next) => async (args) => {
			const request = args.request as { headers?: Record<string, string> };
			for (const [name, value] of Object.entries(headers)) {
				if (!request.headers || isReserved(name)) continue;
				if (value === null) delete request.headers[name];
				else request.headers[name] = value;
			}
			return next(args);
		},
		{ step: "build", name: "tauRequestHeaders", priority: "low" },
	);
	command.middlewareStack.add(
		(next) => async (args) => {
			const result = await next(args);
			const response = result.response as { statusCode?: number; headers?: Record<string, string> };
			if (typeof response?.statusCode === "number") {
				const lowered: Record<string, string> = {};
				for (const [name, value] of Object.entries(response.headers ?? {})) lowered[name.toLowerCase()] = value;
				onResponse({ status: response.statusCode, headers: lowered });
			}
			return result;
		},
		{ step: "deserialize", name: "tauResponseCapture" },
	);
}
