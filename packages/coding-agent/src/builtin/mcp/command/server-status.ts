import { countNoun } from "../../../core/text/count-noun.js";
import type { McpConfig, McpServerEntry } from "../config/load-config.js";
import type { McpConnectionState, McpServerConnection } from "../connection/server-connection.js";

/** What `/mcp` shows: the configured servers and the connections started so far. */
export interface McpStatusView {
	config: McpConfig;
	connections: ReadonlyMap<string, McpServerConnection>;
	/** Whether every enabled server was started; otherwise servers start when a prompt needs them. */
	started: boolean;
}

export type McpServerState = McpConnectionState | "disabled" | "not-started";

/** Most urgent first: what needs the user, then what is on its way, then what is fine or off. */
const ATTENTION: McpServerState[] = [
	"needs-auth",
	"failed",
	"disconnected",
	"connecting",
	"connected",
	"not-started",
	"closed",
	"disabled",
];

export function attentionRank(state: McpServerState): number {
	return ATTENTION.indexOf(state);
}

export function serverState(view: McpStatusView, entry: McpServerEntry): McpServerState {
	if (!entry.enabled) return "disabled";
	return view.connections.get(entry.name)?.state ?? (view.started ? "connecting" : "not-started");
}

const STATE_WORDS: Record<McpServerState, string> = {
	"needs-auth": "needs sign-in",
	failed: "failed",
	disconnected: "disconnected, reconnects on the next call",
	connecting: "connecting",
	connected: "connected",
	closed: "closed",
	disabled: "disabled",
	"not-started": "not started (starts when a prompt needs it)",
};

/** `connected, 12 tools`, `needs sign-in`, `failed`… */
export function describeState(view: McpStatusView, entry: McpServerEntry): string {
	const state = serverState(view, entry);
	if (state !== "connected") return STATE_WORDS[state];
	const count = view.connections.get(entry.name)?.tools.length ?? 0;
	return `connected, ${countNoun(count, "tool")}`;
}

/** The failure reason of a server that is not connected, if any. */
export function failureReason(view: McpStatusView, entry: McpServerEntry): string | undefined {
	const connection = view.connections.get(entry.name);
	if (!entry.enabled || !connection || connection.state === "connected") return undefined;
	return connection.error;
}

/**
 * A reason shortened for a notice: its first line (the error) and the last `tailLines` lines after
 * it (the end of the server's stderr says why it stopped).
 */
export function shortReason(reason: string, tailLines: number): string[] {
	const [first = "", ...rest] = reason.split("\n");
	if (rest.length <= tailLines) return [first, ...rest];
	return [first, `… ${rest.length - tailLines} more lines (see /mcp)`, ...rest.slice(-tailLines)];
}

function sortedEntries(view: McpStatusView): McpServerEntry[] {
	return [...view.config.servers].sort(
		(a, b) =>
			attentionRank(serverState(view, a)) - attentionRank(serverState(view, b)) || a.name.localeCompare(b.name),
	);
}

export function sourceText(entry: McpServerEntry): string {
	return entry.overrideSource ? `${entry.source} + ${entry.overrideSource}` : entry.source;
}

/** Status of every configured server, most urgent first, with full failure reasons (D.11). */
export function mcpStatusText(view: McpStatusView | undefined): string {
	if (!view || view.config.servers.length === 0) {
		return ["No MCP servers configured.", ...(view?.config.errors ?? [])].join("\n");
	}
	const lines: string[] = [];
	for (const entry of sortedEntries(view)) {
		const exposure = entry.config.exposure ?? "codemode";
		lines.push(`${entry.name}: ${describeState(view, entry)}, exposure ${exposure}, ${sourceText(entry)}`);
		const reason = failureReason(view, entry);
		if (reason) for (const line of reason.split("\n")) lines.push(`    ${line}`);
	}
	for (const error of view.config.errors) lines.push(`config error: ${error}`);
	return lines.join("\n");
}

/** The one notice after startup for servers that failed or need sign-in, or undefined. */
export function startupProblemsText(view: McpStatusView): string | undefined {
	const lines = view.config.errors.map((error) => `  config: ${error}`);
	for (const entry of sortedEntries(view)) {
		const state = serverState(view, entry);
		if (state !== "failed" && state !== "needs-auth") continue;
		const [first, ...rest] = shortReason(failureReason(view, entry) ?? STATE_WORDS[state], 3);
		lines.push(`  ${entry.name}: ${state === "failed" ? `failed: ${first}` : first}`);
		for (const line of rest) lines.push(`    ${line}`);
	}
	if (lines.length === 0) return undefined;
	return `MCP servers need attention:\n${lines.join("\n")}\nRun /mcp for details.`;
}
