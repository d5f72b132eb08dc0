import type { ApiKeyAuth } from "../../types/auth.js";
import type { Provider } from "../../types/provider.js";
import { catalogProvider } from "../catalog/catalog-provider.js";

/** Where `gcloud auth application-default login` writes its credentials. */
const ADC_PATH = "~/.config/gcloud/application_default_credentials.json";

/**
 * An API key (stored or `GOOGLE_CLOUD_API_KEY`), else Application Default Credentials, which also need
 * a project and a location; the adapter reads those from the request env (docs/providers.md).
 */
const vertexAuth: ApiKeyAuth = {
	name: "Google Cloud credentials",
	async resolve({ ctx, credential }) {
		if (credential?.key)
			return { auth: { apiKey: credential.key }, env: credential.env, source: "stored credential" };
		const key = await ctx.env("GOOGLE_CLOUD_API_KEY");
		if (key) return { auth: { apiKey: key }, source: "GOOGLE_CLOUD_API_KEY" };
		const stored = credential?.env ?? {};
		const credentialsFile =
			stored.GOOGLE_APPLICATION_CREDENTIALS ?? (await ctx.env("GOOGLE_APPLICATION_CREDENTIALS"));
		const project =
			stored.GOOGLE_CLOUD_PROJECT ?? (await ctx.env("GOOGLE_CLOUD_PROJECT")) ?? (await ctx.env("GCLOUD_PROJECT"));
		const location = stored.GOOGLE_CLOUD_LOCATION ?? (await ctx.env("GOOGLE_CLOUD_LOCATION"));
		if (!project || !location || !(await ctx.fileExists(credentialsFile ?? ADC_PATH))) return undefined;
		const source = credential ? "stored credential" : "gcloud application default credentials";
		return { auth: {}, ...(credential?.env ? { env: credential.env } : {}), source };
	},
	async login(interaction) {
		const method = await interaction.prompt({
			type: "select",
			message: "Select Google Vertex AI authentication method:",
			options: [
				{ value: "api-key", label: "Google Cloud API key" },
				{ value: "adc", label: "Application Default Credentials" },
			],
		});
		if (method === "api-key") {
			return {
				type: "api_key",
				key: await interaction.prompt({ type: "secret", message: "Enter Google Cloud API key" }),
			};
		}
		await interaction.notify({
			type: "info",
			message: "Run `gcloud auth application-default login`, then give the project and location.",
		});
		const project = await interaction.prompt({ type: "text", message: "Enter Google Cloud project ID" });
		const location = await interaction.prompt({ type: "text", message: "Enter Google Cloud location" });
		return { type: "api_key", env: { GOOGLE_CLOUD_PROJECT: project, GOOGLE_CLOUD_LOCATION: location } };
	},
};

/**
 * The Google Vertex AI provider over its shipped catalog, authorized by an API key or Google application-default
 * credentials.
 */
export function googleVertexProvider(): Provider {
	return catalogProvider({ id: "google-vertex", name: "Google Vertex AI", auth: { apiKey: vertexAuth } });
}
