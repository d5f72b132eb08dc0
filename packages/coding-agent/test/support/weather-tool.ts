import type { ExtensionAPI, ToolDefinition } from "@tau/coding-agent";
import { type TObject, type TString, Type } from "typebox";

type WeatherParameters = TObject<{ city: TString }>;

/** How the weather tool draws itself: each test asserts its own renderer output. */
export type WeatherRenderers = Pick<
	ToolDefinition<WeatherParameters, { temperature: number }>,
	"renderCall" | "renderResult"
>;

/**
 * Registers `weather`, an extension tool whose result text (`raw <city> data`) differs from what its
 * renderers draw, so a test can tell the tool's own rendering from the built-in one
 * (docs/extensions.md, tool renderers). Its details carry `{ temperature: 21 }`.
 */
export function registerWeatherTool(pi: ExtensionAPI, renderers: WeatherRenderers): void {
	pi.registerTool({
		name: "weather",
		label: "Weather",
		description: "Current weather",
		parameters: Type.Object({ city: Type.String() }),
		execute: async (_id, params) => ({
			content: [{ type: "text", text: `raw ${params.city} data` }],
			details: { temperature: 21 },
		}),
		...renderers,
	});
}
