import type { ExtensionContext } from "../../../core/extensions/index.js";
import type { EntryChange } from "../config/update-entry.js";
import type { McpStatusView } from "./server-status.js";

/** What `/mcp` and its manager ask of the MCP extension. */
export interface McpCommandHost {
	/** The configured servers and their connections; undefined when nothing is configured. */
	view(): McpStatusView | undefined;
	/** Calls `listener` whenever a server's state, tools or configuration changed. */
	onChange(listener: () => void): () => void;
	reconnect(name: string, ctx: ExtensionContext): Promise<string>;
	/** Signs in through the browser; `showUrl` sees the authorization URL, `signal` cancels. */
	signIn(
		name: string,
		ctx: ExtensionContext,
		options?: { signal?: AbortSignal; showUrl?(url: string): void },
	): Promise<string>;
	signOut(name: string): Promise<string>;
	change(name: string, change: EntryChange, inProject: boolean, ctx: ExtensionContext): Promise<string>;
}
