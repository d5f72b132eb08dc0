import { envApiKeyAuth } from "../../auth/auth-helpers.js";
import {
	kimiCodingLogin,
	metaLogin,
	openaiChatgptLogin,
	openrouterLogin,
	xaiLogin,
} from "../../auth/oauth/subscription-logins.js";
import type { OAuthAuth } from "../../types/auth.js";
import type { Provider } from "../../types/provider.js";
import { catalogProvider } from "../catalog/catalog-provider.js";

/** A provider reached with an API key from its env vars (or a stored key), over its shipped catalog. */
interface HostedProvider {
	name: string;
	baseUrl?: string;
	/** The name of the key, as `/login` shows it. */
	keyName: string;
	envVars: readonly string[];
	/** An account sign-in offered beside the key. */
	oauth?: () => OAuthAuth;
}

/** Ids, names, base URLs and env vars as pi 1.6 defines them (docs/providers.md lists them for users). */
const HOSTED: Record<string, HostedProvider> = {
	"ant-ling": {
		name: "Ant Ling",
		baseUrl: "https://api.ant-ling.com/v1",
		keyName: "Ant Ling API key",
		envVars: ["ANT_LING_API_KEY"],
	},
	baseten: {
		name: "Baseten",
		baseUrl: "https://inference.baseten.co/v1",
		keyName: "Baseten API key",
		envVars: ["BASETEN_API_KEY"],
	},
	cerebras: {
		name: "Cerebras",
		baseUrl: "https://api.cerebras.ai/v1",
		keyName: "Cerebras API key",
		envVars: ["CEREBRAS_API_KEY"],
	},
	deepseek: {
		name: "DeepSeek",
		baseUrl: "https://api.deepseek.com",
		keyName: "DeepSeek API key",
		envVars: ["DEEPSEEK_API_KEY"],
	},
	fireworks: {
		name: "Fireworks",
		baseUrl: "https://api.fireworks.ai/inference",
		keyName: "Fireworks API key",
		envVars: ["FIREWORKS_API_KEY"],
	},
	google: {
		name: "Google",
		baseUrl: "https://generativelanguage.googleapis.com/v1beta",
		keyName: "Gemini API key",
		envVars: ["GEMINI_API_KEY"],
	},
	groq: {
		name: "Groq",
		baseUrl: "https://api.groq.com/openai/v1",
		keyName: "Groq API key",
		envVars: ["GROQ_API_KEY"],
	},
	huggingface: {
		name: "Hugging Face",
		baseUrl: "https://router.huggingface.co/v1",
		keyName: "Hugging Face token",
		envVars: ["HF_TOKEN"],
	},
	"kimi-coding": {
		name: "Kimi For Coding",
		baseUrl: "https://api.kimi.com/coding/v1",
		keyName: "Kimi API key",
		envVars: ["KIMI_API_KEY"],
		oauth: kimiCodingLogin,
	},
	meta: {
		name: "Meta",
		baseUrl: "https://api.meta.ai/v1",
		keyName: "Meta Model API key",
		envVars: ["META_API_KEY"],
		oauth: metaLogin,
	},
	minimax: {
		name: "MiniMax",
		baseUrl: "https://api.minimax.io/anthropic",
		keyName: "MiniMax API key",
		envVars: ["MINIMAX_API_KEY"],
	},
	"minimax-cn": {
		name: "MiniMax CN",
		baseUrl: "https://api.minimaxi.com/anthropic",
		keyName: "MiniMax CN API key",
		envVars: ["MINIMAX_CN_API_KEY"],
	},
	mistral: {
		name: "Mistral",
		baseUrl: "https://api.mistral.ai",
		keyName: "Mistral API key",
		envVars: ["MISTRAL_API_KEY"],
	},
	moonshotai: {
		name: "Moonshot AI",
		baseUrl: "https://api.moonshot.ai/v1",
		keyName: "Moonshot AI API key",
		envVars: ["MOONSHOT_API_KEY"],
	},
	"moonshotai-cn": {
		name: "Moonshot AI CN",
		baseUrl: "https://api.moonshot.cn/v1",
		keyName: "Moonshot AI API key",
		envVars: ["MOONSHOT_API_KEY"],
	},
	nvidia: {
		name: "NVIDIA",
		baseUrl: "https://integrate.api.nvidia.com/v1",
		keyName: "NVIDIA API key",
		envVars: ["NVIDIA_API_KEY"],
	},
	openai: {
		name: "OpenAI",
		baseUrl: "https://api.openai.com/v1",
		keyName: "OpenAI API key",
		envVars: ["OPENAI_API_KEY"],
		oauth: openaiChatgptLogin,
	},
	opencode: { name: "OpenCode Zen", keyName: "OpenCode API key", envVars: ["OPENCODE_API_KEY"] },
	"opencode-go": { name: "OpenCode Go", keyName: "OpenCode API key", envVars: ["OPENCODE_API_KEY"] },
	openrouter: {
		name: "OpenRouter",
		baseUrl: "https://openrouter.ai/api/v1",
		keyName: "OpenRouter API key",
		envVars: ["OPENROUTER_API_KEY"],
		oauth: openrouterLogin,
	},
	"qwen-token-plan": {
		name: "Qwen Token Plan Team",
		baseUrl: "https://token-plan.maas.qwencloudapi.com/compatible-mode/v1",
		keyName: "Qwen Token Plan Team API key",
		envVars: ["QWEN_TOKEN_PLAN_TEAM_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"],
	},
	"qwen-token-plan-cn": {
		name: "Qwen Token Plan Team CN",
		baseUrl: "https://token-plan.maas.qianwenaiapi.com/compatible-mode/v1",
		keyName: "Qwen Token Plan Team CN API key",
		envVars: ["QWEN_TOKEN_PLAN_TEAM_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"],
	},
	"qwen-token-plan-individual": {
		name: "Qwen Token Plan Individual",
		baseUrl: "https://token-plan.maas.qwencloudapi.com/compatible-mode/v1",
		keyName: "Qwen Token Plan Individual API key",
		envVars: ["QWEN_TOKEN_PLAN_INDIVIDUAL_API_KEY", "QWEN_TOKEN_PLAN_API_KEY"],
	},
	"qwen-token-plan-individual-cn": {
		name: "Qwen Token Plan Individual CN",
		baseUrl: "https://token-plan.maas.qianwenaiapi.com/compatible-mode/v1",
		keyName: "Qwen Token Plan Individual CN API key",
		envVars: ["QWEN_TOKEN_PLAN_INDIVIDUAL_CN_API_KEY", "QWEN_TOKEN_PLAN_CN_API_KEY"],
	},
	together: {
		name: "Together",
		baseUrl: "https://api.together.ai/v1",
		keyName: "Together API key",
		envVars: ["TOGETHER_API_KEY"],
	},
	typesafe: { name: "TypeSafe", keyName: "TypeSafe API key", envVars: ["TYPESAFE_API_KEY"] },
	"vercel-ai-gateway": {
		name: "Vercel AI Gateway",
		baseUrl: "https://ai-gateway.vercel.sh",
		keyName: "Vercel AI Gateway API key",
		envVars: ["AI_GATEWAY_API_KEY"],
	},
	xai: {
		name: "xAI",
		baseUrl: "https://api.x.ai/v1",
		keyName: "xAI API key",
		envVars: ["XAI_API_KEY"],
		oauth: xaiLogin,
	},
	xiaomi: {
		name: "Xiaomi",
		baseUrl: "https://api.xiaomimimo.com/v1",
		keyName: "Xiaomi API key",
		envVars: ["XIAOMI_API_KEY"],
	},
	"xiaomi-token-plan-ams": {
		name: "Xiaomi Token Plan AMS",
		baseUrl: "https://token-plan-ams.xiaomimimo.com/v1",
		keyName: "Xiaomi Token Plan AMS API key",
		envVars: ["XIAOMI_TOKEN_PLAN_AMS_API_KEY"],
	},
	"xiaomi-token-plan-cn": {
		name: "Xiaomi Token Plan CN",
		baseUrl: "https://token-plan-cn.xiaomimimo.com/v1",
		keyName: "Xiaomi Token Plan CN API key",
		envVars: ["XIAOMI_TOKEN_PLAN_CN_API_KEY"],
	},
	"xiaomi-token-plan-sgp": {
		name: "Xiaomi Token Plan SGP",
		baseUrl: "https://token-plan-sgp.xiaomimimo.com/v1",
		keyName: "Xiaomi Token Plan SGP API key",
		envVars: ["XIAOMI_TOKEN_PLAN_SGP_API_KEY"],
	},
	zai: {
		name: "Z.AI",
		baseUrl: "https://api.z.ai/api/coding/paas/v4",
		keyName: "Z.AI API key",
		envVars: ["ZAI_API_KEY"],
	},
	"zai-coding-cn": {
		name: "Z.AI Coding CN",
		baseUrl: "https://open.bigmodel.cn/api/coding/paas/v4",
		keyName: "Z.AI Coding CN API key",
		envVars: ["ZAI_CODING_CN_API_KEY"],
	},
};

/** A provider of the table, freshly constructed. */
export function hostedProvider(id: string): Provider {
	const definition = HOSTED[id];
	if (!definition) throw new Error(`Unknown hosted provider "${id}"`);
	const { oauth, ...rest } = definition;
	if (!oauth) return catalogProvider({ id, ...rest });
	return catalogProvider({ id, ...rest, auth: { apiKey: envApiKeyAuth(rest.keyName, rest.envVars), oauth: oauth() } });
}

/**
 * The Ant Ling provider (`ant-ling`) over its shipped model catalog, authorized by `ANT_LING_API_KEY` or a stored key.
 */
export const antLingProvider = (): Provider => hostedProvider("ant-ling");
/** The Baseten provider (`baseten`) over its shipped model catalog, authorized by `BASETEN_API_KEY` or a stored key. */
export const basetenProvider = (): Provider => hostedProvider("baseten");
/**
 * The Cerebras provider (`cerebras`) over its shipped model catalog, authorized by `CEREBRAS_API_KEY` or a stored key.
 */
export const cerebrasProvider = (): Provider => hostedProvider("cerebras");
/**
 * The DeepSeek provider (`deepseek`) over its shipped model catalog, authorized by `DEEPSEEK_API_KEY` or a stored key.
 */
export const deepseekProvider = (): Provider => hostedProvider("deepseek");
/**
 * The Fireworks provider (`fireworks`) over its shipped model catalog, authorized by `FIREWORKS_API_KEY` or a stored
 * key.
 */
export const fireworksProvider = (): Provider => hostedProvider("fireworks");
/** The Google provider (`google`) over its shipped model catalog, authorized by `GEMINI_API_KEY` or a stored key. */
export const googleProvider = (): Provider => hostedProvider("google");
/** The Groq provider (`groq`) over its shipped model catalog, authorized by `GROQ_API_KEY` or a stored key. */
export const groqProvider = (): Provider => hostedProvider("groq");
/**
 * The Hugging Face provider (`huggingface`) over its shipped model catalog, authorized by `HF_TOKEN` or a stored key.
 */
export const huggingfaceProvider = (): Provider => hostedProvider("huggingface");
/**
 * The Kimi For Coding provider (`kimi-coding`) over its shipped model catalog, authorized by `KIMI_API_KEY`, a stored
 * key or an account sign-in.
 */
export const kimiCodingProvider = (): Provider => hostedProvider("kimi-coding");
/**
 * The Meta provider (`meta`) over its shipped model catalog, authorized by `META_API_KEY`, a stored key or an account
 * sign-in.
 */
export const metaProvider = (): Provider => hostedProvider("meta");
/** The MiniMax provider (`minimax`) over its shipped model catalog, authorized by `MINIMAX_API_KEY` or a stored key. */
export const minimaxProvider = (): Provider => hostedProvider("minimax");
/**
 * The MiniMax CN provider (`minimax-cn`) over its shipped model catalog, authorized by `MINIMAX_CN_API_KEY` or a stored
 * key.
 */
export const minimaxCnProvider = (): Provider => hostedProvider("minimax-cn");
/** The Mistral provider (`mistral`) over its shipped model catalog, authorized by `MISTRAL_API_KEY` or a stored key. */
export const mistralProvider = (): Provider => hostedProvider("mistral");
/**
 * The Moonshot AI provider (`moonshotai`) over its shipped model catalog, authorized by `MOONSHOT_API_KEY` or a stored
 * key.
 */
export const moonshotaiProvider = (): Provider => hostedProvider("moonshotai");
/**
 * The Moonshot AI CN provider (`moonshotai-cn`) over its shipped model catalog, authorized by `MOONSHOT_API_KEY` or a
 * stored key.
 */
export const moonshotaiCnProvider = (): Provider => hostedProvider("moonshotai-cn");
/** The NVIDIA provider (`nvidia`) over its shipped model catalog, authorized by `NVIDIA_API_KEY` or a stored key. */
export const nvidiaProvider = (): Provider => hostedProvider("nvidia");
/**
 * The OpenAI provider (`openai`) over its shipped model catalog, authorized by `OPENAI_API_KEY`, a stored key or an
 * account sign-in.
 */
export const openaiProvider = (): Provider => hostedProvider("openai");
/**
 * The OpenCode Zen provider (`opencode`) over its shipped model catalog, authorized by `OPENCODE_API_KEY` or a stored
 * key.
 */
export const opencodeProvider = (): Provider => hostedProvider("opencode");
/**
 * The OpenCode Go provider (`opencode-go`) over its shipped model catalog, authorized by `OPENCODE_API_KEY` or a stored
 * key.
 */
export const opencodeGoProvider = (): Provider => hostedProvider("opencode-go");
/**
 * The OpenRouter provider (`openrouter`) over its shipped model catalog, authorized by `OPENROUTER_API_KEY`, a stored
 * key or an account sign-in.
 */
export const openrouterProvider = (): Provider => hostedProvider("openrouter");
/**
 * The Qwen Token Plan Team provider (`qwen-token-plan`) over its shipped model catalog, authorized by
 * `QWEN_TOKEN_PLAN_TEAM_API_KEY`, `QWEN_TOKEN_PLAN_API_KEY` or a stored key.
 */
export const qwenTokenPlanProvider = (): Provider => hostedProvider("qwen-token-plan");
/**
 * The Qwen Token Plan Team CN provider (`qwen-token-plan-cn`) over its shipped model catalog, authorized by
 * `QWEN_TOKEN_PLAN_TEAM_CN_API_KEY`, `QWEN_TOKEN_PLAN_CN_API_KEY` or a stored key.
 */
export const qwenTokenPlanCnProvider = (): Provider => hostedProvider("qwen-token-plan-cn");
/**
 * The Qwen Token Plan Individual provider (`qwen-token-plan-individual`) over its shipped model catalog, authorized by
 * `QWEN_TOKEN_PLAN_INDIVIDUAL_API_KEY`, `QWEN_TOKEN_PLAN_API_KEY` or a stored key.
 */
export const qwenTokenPlanIndividualProvider = (): Provider => hostedProvider("qwen-token-plan-individual");
/**
 * The Qwen Token Plan Individual CN provider (`qwen-token-plan-individual-cn`) over its shipped model catalog,
 * authorized by `QWEN_TOKEN_PLAN_INDIVIDUAL_CN_API_KEY`, `QWEN_TOKEN_PLAN_CN_API_KEY` or a stored key.
 */
export const qwenTokenPlanIndividualCnProvider = (): Provider => hostedProvider("qwen-token-plan-individual-cn");
/**
 * The Together provider (`together`) over its shipped model catalog, authorized by `TOGETHER_API_KEY` or a stored key.
 */
export const togetherProvider = (): Provider => hostedProvider("together");
/**
 * The TypeSafe provider (`typesafe`) over its shipped model catalog, authorized by `TYPESAFE_API_KEY` or a stored key.
 */
export const typesafeProvider = (): Provider => hostedProvider("typesafe");
/**
 * The Vercel AI Gateway provider (`vercel-ai-gateway`) over its shipped model catalog, authorized by
 * `AI_GATEWAY_API_KEY` or a stored key.
 */
export const vercelAIGatewayProvider = (): Provider => hostedProvider("vercel-ai-gateway");
/**
 * The xAI provider (`xai`) over its shipped model catalog, authorized by `XAI_API_KEY`, a stored key or an account
 * sign-in.
 */
export const xaiProvider = (): Provider => hostedProvider("xai");
/** The Xiaomi provider (`xiaomi`) over its shipped model catalog, authorized by `XIAOMI_API_KEY` or a stored key. */
export const xiaomiProvider = (): Provider => hostedProvider("xiaomi");
/**
 * The Xiaomi Token Plan AMS provider (`xiaomi-token-plan-ams`) over its shipped model catalog, authorized by
 * `XIAOMI_TOKEN_PLAN_AMS_API_KEY` or a stored key.
 */
export const xiaomiTokenPlanAmsProvider = (): Provider => hostedProvider("xiaomi-token-plan-ams");
/**
 * The Xiaomi Token Plan CN provider (`xiaomi-token-plan-cn`) over its shipped model catalog, authorized by
 * `XIAOMI_TOKEN_PLAN_CN_API_KEY` or a stored key.
 */
export const xiaomiTokenPlanCnProvider = (): Provider => hostedProvider("xiaomi-token-plan-cn");
/**
 * The Xiaomi Token Plan SGP provider (`xiaomi-token-plan-sgp`) over its shipped model catalog, authorized by
 * `XIAOMI_TOKEN_PLAN_SGP_API_KEY` or a stored key.
 */
export const xiaomiTokenPlanSgpProvider = (): Provider => hostedProvider("xiaomi-token-plan-sgp");
/** The Z.AI provider (`zai`) over its shipped model catalog, authorized by `ZAI_API_KEY` or a stored key. */
export const zaiProvider = (): Provider => hostedProvider("zai");
/**
 * The Z.AI Coding CN provider (`zai-coding-cn`) over its shipped model catalog, authorized by `ZAI_CODING_CN_API_KEY`
 * or a stored key.
 */
export const zaiCodingCnProvider = (): Provider => hostedProvider("zai-coding-cn");
