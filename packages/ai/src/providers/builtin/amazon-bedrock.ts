import type { ApiKeyAuth } from "../../types/auth.js";
import type { Provider } from "../../types/provider.js";
import { catalogProvider } from "../catalog/catalog-provider.js";

/**
 * The ambient AWS credentials the SDK's default chain would find, in the order the chain tries them
 * (docs/providers.md). Only their presence is checked: the adapter hands the chain to the AWS SDK.
 */
const AMBIENT_SOURCES: readonly (readonly [source: string, variables: readonly string[]])[] = [
	["AWS_BEARER_TOKEN_BEDROCK", ["AWS_BEARER_TOKEN_BEDROCK"]],
	["AWS_PROFILE", ["AWS_PROFILE"]],
	["AWS access keys", ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]],
	["ECS task role", ["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"]],
	["ECS task role", ["AWS_CONTAINER_CREDENTIALS_FULL_URI"]],
	["web identity token", ["AWS_WEB_IDENTITY_TOKEN_FILE"]],
];

/** A stored bearer token or profile, else any ambient AWS credential source. */
const bedrockAuth: ApiKeyAuth = {
	name: "AWS credentials or bearer token",
	async resolve({ ctx, credential }) {
		if (credential?.key)
			return { auth: { apiKey: credential.key }, env: credential.env, source: "stored credential" };
		if (credential?.env?.AWS_PROFILE) return { auth: {}, env: credential.env, source: "stored credential" };
		for (const [source, variables] of AMBIENT_SOURCES) {
			const values = await Promise.all(variables.map((name) => ctx.env(name)));
			if (values.every(Boolean)) return { auth: {}, source };
		}
		return undefined;
	},
	async login(interaction) {
		const method = await interaction.prompt({
			type: "select",
			message: "Select Amazon Bedrock authentication method:",
			options: [
				{ value: "bearer-token", label: "Bearer token" },
				{ value: "aws-profile", label: "AWS profile" },
			],
		});
		if (method === "aws-profile") {
			const profile = await interaction.prompt({ type: "text", message: "Enter AWS profile name" });
			return { type: "api_key", env: { AWS_PROFILE: profile } };
		}
		return {
			type: "api_key",
			key: await interaction.prompt({ type: "secret", message: "Enter Amazon Bedrock bearer token" }),
		};
	},
};

/**
 * The Amazon Bedrock provider over its shipped catalog, authorized by AWS credentials (profile, keys, role or Bedrock
 * API key).
 */
export function amazonBedrockProvider(): Provider {
	return catalogProvider({ id: "amazon-bedrock", name: "Amazon Bedrock", auth: { apiKey: bedrockAuth } });
}
