import type { ExtensionAPI, ExtensionContext } from "../../../core/extensions/index.js";
import type { EntryChange } from "../config/update-entry.js";
import type { McpSession } from "../mcp-session.js";

export interface McpCommandHost {
	session(): McpSession | undefined;
	reconnect(name: string, ctx: ExtensionContext): Promise<string>;
	signIn(name: string, ctx: ExtensionContext): Promise<string>;
	signOut(name: string): Promise<string>;
	change(name: string, change: EntryChange, inProject: boolean, ctx: ExtensionContext): Promise<string>;
}

const ATTENTION = ["needs-auth", "failed", "disconnected", "connecting", "connected", "closed"];

/** Status lines of every configured server, most urgent first (D.11). */
export function mcpStatusText(session: McpSession | undefined): string {
	if (!session || session.config.servers.length === 0) {
		const errors = session?.config.errors ?? [];
		return ["No MCP servers configured.", ...errors].join("\n");
	}
	const rows = session.config.servers.map((entry) => {
		const connection = session.connections.get(entry.name);
		const state = entry.enabled ? (connection?.state ?? "connecting") : "disabled";
		const tools = connection?.tools.length ?? 0;
		const exposure = entry.config.exposure ?? "codemode";
		const source = entry.overrideSource ? `${entry.source} + ${entry.overrideSource}` : entry.source;
		const error = connection?.error ? `\n    ${connection.error.split("\n")[0]}` : "";
		return {
			rank: state === "disabled" ? ATTENTION.length : ATTENTION.indexOf(state),
			text: `${entry.name}: ${state}, ${tools} tools, exposure ${exposure}, ${source}${error}`,
		};
	});
	rows.sort((a, b) => a.rank - b.rank);
	return [...rows.map((row) => row.text), ...session.config.errors.map((error) => `config error: ${error}`)].join(
		"\n",
	);
}

export function registerMcpCommand(pi: ExtensionAPI, host: McpCommandHost): void {
	pi.registerCommand("mcp", {
		description: "MCP servers: status, reconnect, login, logout, enable, disable, exposure",
		handler: async (args, ctx) => {
			const [action, name] = args.trim().split(/\s+/);
			const session = host.session();
			if (!action) {
				ctx.ui.notify(mcpStatusText(session), "info");
				return;
			}
			if (action === "reconnect") {
				const targets = name
					? [name]
					: [...(session?.config.servers ?? [])].filter((e) => e.enabled).map((e) => e.name);
				for (const target of targets) ctx.ui.notify(await host.reconnect(target, ctx), "info");
				return;
			}
			if (action === "enable" || action === "disable" || action === "exposure") {
				const words = args.trim().split(/\s+/);
				const inProject = words.includes("--project");
				const value = words.filter((word) => word !== "--project")[2];
				// The MCP client loads only when a /mcp action needs it.
				const exposure = (await import("@tau/mcp")).parseMcpExposure(value);
				if (!name || (action === "exposure" && !exposure)) {
					ctx.ui.notify(
						action === "exposure"
							? "Usage: /mcp exposure <server> codemode|deferred|direct|hidden [--project]"
							: `Usage: /mcp ${action} <server> [--project]`,
						"error",
					);
					return;
				}
				const change: EntryChange =
					action === "exposure"
						? { field: "exposure", value: exposure! }
						: { field: "enabled", value: action === "enable" };
				try {
					ctx.ui.notify(await host.change(name, change, inProject, ctx), "info");
				} catch (error) {
					ctx.ui.notify((error as Error).message, "error");
				}
				return;
			}
			if (action === "login" || action === "logout") {
				if (!name) {
					ctx.ui.notify(`Usage: /mcp ${action} <server>`, "error");
					return;
				}
				try {
					ctx.ui.notify(action === "login" ? await host.signIn(name, ctx) : await host.signOut(name), "info");
				} catch (error) {
					ctx.ui.notify(`MCP ${action} failed: ${(error as Error).message}`, "error");
					return;
				}
				ctx.ui.notify(await host.reconnect(name, ctx), "info");
				return;
			}
			ctx.ui.notify(
				`Unknown /mcp action "${action}". Use: /mcp, /mcp reconnect [server], /mcp login|logout|enable|disable <server>, /mcp exposure <server> <exposure>.`,
				"error",
			);
		},
	});
}
