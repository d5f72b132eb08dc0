import { Text } from "@tau/tui";
import type { ExtensionAPI } from "../../../core/extensions/index.js";

const MAX_ARGS_CHARS = 200;

/**
 * Renders calls of `mcp__*` tools that are not (yet) registered, so a resumed session shows its
 * MCP calls before the servers connect. Registered tools keep their own rendering.
 */
export function registerMcpToolRenderer(pi: ExtensionAPI): void {
	pi.registerToolRenderer((toolName, next) => {
		const found = next();
		if (found || !toolName.startsWith("mcp__")) return found;
		return {
			renderCall: (args) => {
				const json = JSON.stringify(args ?? {});
				const shown = json.length > MAX_ARGS_CHARS ? `${json.slice(0, MAX_ARGS_CHARS)}…` : json;
				return new Text(`${toolName} ${shown}`, 0, 0);
			},
		};
	});
}
