import type { Component } from "@tau/tui";
import type { ExtensionAPI } from "../../../core/extensions/index.js";

const MAX_ARGS_CHARS = 200;

/** Non-ASCII as JSON `\uXXXX` escapes, so one character is one terminal column. */
function asciiJson(value: unknown): string {
	return JSON.stringify(value ?? {}).replace(
		/[^\x20-\x7e]/g,
		(char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
	);
}

/**
 * One line of ASCII text wrapped to the width. Built without `@tau/tui` values, so loading the
 * extension does not load the TUI in modes that never render. Anything else (controls included:
 * the tool name comes from the session) shows as `?`.
 */
function asciiText(raw: string): Component {
	const text = raw.replace(/[^\x20-\x7e]/g, "?");
	return {
		render: (width) => {
			const columns = Math.max(1, width);
			const lines: string[] = [];
			for (let start = 0; start < text.length; start += columns) lines.push(text.slice(start, start + columns));
			return lines;
		},
		invalidate: () => {},
	};
}

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
				const json = asciiJson(args);
				const shown = json.length > MAX_ARGS_CHARS ? `${json.slice(0, MAX_ARGS_CHARS)}...` : json;
				return asciiText(`${toolName} ${shown}`);
			},
		};
	});
}
