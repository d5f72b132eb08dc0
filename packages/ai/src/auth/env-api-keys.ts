import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

/**
 * Which environment variables hold an API key for each known provider, as pi-ai's compatibility entry
 * reads them (docs/ai.md "The pi-ai compatibility entry"). Only key variables are listed: ambient
 * credentials (AWS profiles and roles, Google application-default credentials) are reported as the
 * `<authenticated>` marker by `getEnvApiKey`.
 */

export type ProviderEnv = Record<string, string | undefined>;

/**
 * The environment variable that holds a bearer token for Anthropic (sent as `Authorization` instead of an API key);
 * read first.
 */
export const ANTHROPIC_AUTH_TOKEN_ENV = "ANTHROPIC_AUTH_TOKEN";
/** The environment variable that holds a Claude subscription OAuth access token for Anthropic. */
export const ANTHROPIC_OAUTH_TOKEN_ENV = "ANTHROPIC_OAUTH_TOKEN";
/** The environment variable that holds an Anthropic API key. */
export const ANTHROPIC_API_KEY_ENV = "ANTHROPIC_API_KEY";
/**
 * The environment variable that names the workload identity federation rule under which Anthropic exchanges an identity
 * token.
 */
export const ANTHROPIC_FEDERATION_RULE_ID_ENV = "ANTHROPIC_FEDERATION_RULE_ID";
/** The environment variable that names the Anthropic organization of a workload identity federation sign-in. */
export const ANTHROPIC_ORGANIZATION_ID_ENV = "ANTHROPIC_ORGANIZATION_ID";
/** The environment variable that names the Anthropic service account a workload identity federation sign-in acts as. */
export const ANTHROPIC_SERVICE_ACCOUNT_ID_ENV = "ANTHROPIC_SERVICE_ACCOUNT_ID";
/**
 * The environment variable that holds the path of an identity token file (e.g. a Kubernetes service-account token)
 * exchanged for an Anthropic access token.
 */
export const ANTHROPIC_IDENTITY_TOKEN_FILE_ENV = "ANTHROPIC_IDENTITY_TOKEN_FILE";
/** The environment variable that names the Anthropic workspace a workload identity federation sign-in is scoped to. */
export const ANTHROPIC_WORKSPACE_ID_ENV = "ANTHROPIC_WORKSPACE_ID";

/** What `getEnvApiKey` returns for a provider whose ambient credentials are configured. */
export const AMBIENT_CREDENTIALS_MARKER = "<authenticated>";

/** Key variables per provider, in the order they are tried. */
const API_KEY_ENV_VARS: Record<string, readonly string[]> = {
	anthropic: [ANTHROPIC_AUTH_TOKEN_ENV, ANTHROPIC_OAUTH_TOKEN_ENV, ANTHROPIC_API_KEY_ENV],
	"github-copilot": ["COPILOT_GITHUB_TOKEN"],
	"ant-ling": ["ANT_LING_API_KEY"],
	"qwen-token-plan": ["QWEN_TOKEN_PLAN_TEAM_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"],
	"qwen-token-plan-cn": ["QWEN_TOKEN_PLAN_TEAM_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"],
	"qwen-token-plan-individual": ["QWEN_TOKEN_PLAN_INDIVIDUAL_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"],
	"qwen-token-plan-individual-cn": ["QWEN_TOKEN_PLAN_INDIVIDUAL_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"],
	openai: ["OPENAI_API_KEY"],
	azure: ["AZURE_OPENAI_API_KEY"],
	nvidia: ["NVIDIA_API_KEY"],
	deepseek: ["DEEPSEEK_API_KEY"],
	google: ["GEMINI_API_KEY"],
	"google-vertex": ["GOOGLE_CLOUD_API_KEY"],
	groq: ["GROQ_API_KEY"],
	cerebras: ["CEREBRAS_API_KEY"],
	xai: ["XAI_API_KEY"],
	typesafe: ["TYPESAFE_API_KEY"],
	radius: ["RADIUS_API_KEY"],
	openrouter: ["OPENROUTER_API_KEY"],
	"vercel-ai-gateway": ["AI_GATEWAY_API_KEY"],
	zai: ["ZAI_API_KEY"],
	"zai-coding-cn": ["ZAI_CODING_CN_API_KEY"],
	mistral: ["MISTRAL_API_KEY"],
	minimax: ["MINIMAX_API_KEY"],
	"minimax-cn": ["MINIMAX_CN_API_KEY"],
	moonshotai: ["MOONSHOT_API_KEY"],
	"moonshotai-cn": ["MOONSHOT_API_KEY"],
	huggingface: ["HF_TOKEN"],
	fireworks: ["FIREWORKS_API_KEY"],
	together: ["TOGETHER_API_KEY"],
	baseten: ["BASETEN_API_KEY"],
	opencode: ["OPENCODE_API_KEY"],
	"opencode-go": ["OPENCODE_API_KEY"],
	"kimi-coding": ["KIMI_API_KEY"],
	meta: ["META_API_KEY"],
	"cloudflare-workers-ai": ["CLOUDFLARE_API_KEY"],
	"cloudflare-ai-gateway": ["CLOUDFLARE_API_KEY"],
	xiaomi: ["XIAOMI_API_KEY"],
	"xiaomi-token-plan-cn": ["XIAOMI_TOKEN_PLAN_CN_API_KEY"],
	"xiaomi-token-plan-ams": ["XIAOMI_TOKEN_PLAN_AMS_API_KEY"],
	"xiaomi-token-plan-sgp": ["XIAOMI_TOKEN_PLAN_SGP_API_KEY"],
};

/** Bedrock's ambient AWS credential sources; any one of them is enough. */
const AWS_CREDENTIAL_SOURCES: readonly (readonly string[])[] = [
	["AWS_PROFILE"],
	["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
	["AWS_BEARER_TOKEN_BEDROCK"],
	["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"],
	["AWS_CONTAINER_CREDENTIALS_FULL_URI"],
	["AWS_WEB_IDENTITY_TOKEN_FILE"],
];

/** A non-empty value from the request's env overrides, else from the process environment. */
export function providerEnvValue(name: string, env?: ProviderEnv): string | undefined {
	return env?.[name] || process.env[name] || undefined;
}

/** The key variables of `provider` that are set, in lookup order; undefined when none is (or none exist). */
export function findEnvKeys(provider: string, env?: ProviderEnv): string[] | undefined {
	const found = (API_KEY_ENV_VARS[provider] ?? []).filter((name) => providerEnvValue(name, env));
	return found.length > 0 ? found : undefined;
}

/**
 * The API key `provider` gets from the environment. Anthropic's `ANTHROPIC_AUTH_TOKEN` is skipped: it is a
 * bearer token, not a key. Bedrock and Vertex answer `<authenticated>` when their ambient credentials are set.
 */
export function getEnvApiKey(provider: string, env?: ProviderEnv): string | undefined {
	const keys = findEnvKeys(provider, env);
	const keyVariable = provider === "anthropic" ? keys?.find((name) => name !== ANTHROPIC_AUTH_TOKEN_ENV) : keys?.[0];
	if (keyVariable) return providerEnvValue(keyVariable, env);
	if (provider === "amazon-bedrock" && hasAwsCredentials(env)) return AMBIENT_CREDENTIALS_MARKER;
	if (provider === "google-vertex" && hasVertexCredentials(env)) return AMBIENT_CREDENTIALS_MARKER;
	return undefined;
}

function hasAwsCredentials(env: ProviderEnv | undefined): boolean {
	return AWS_CREDENTIAL_SOURCES.some((names) => names.every((name) => providerEnvValue(name, env)));
}

/** Vertex runs on application-default credentials when a project and a location are set as well. */
function hasVertexCredentials(env: ProviderEnv | undefined): boolean {
	const hasProject = Boolean(providerEnvValue("GOOGLE_CLOUD_PROJECT", env) || providerEnvValue("GCLOUD_PROJECT", env));
	if (!hasProject || !providerEnvValue("GOOGLE_CLOUD_LOCATION", env)) return false;
	const explicit = providerEnvValue("GOOGLE_APPLICATION_CREDENTIALS", env);
	return existsSync(explicit ?? join(homedir(), ".config", "gcloud", "application_default_credentials.json"));
}
