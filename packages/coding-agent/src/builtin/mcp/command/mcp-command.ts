import type { ExtensionAPI } from "../../../core/extensions/index.js";
import type { EntryChange } from "../config/update-entry.js";
import type { McpCommandHost } from "./command-host.js";
import { mcpStatusText } from "./server-status.js";

export function registerMcpCommand(pi: ExtensionAPI, host: McpCommandHost): void {
	pi.registerCommand("mcp", {
		description: "MCP servers: status, reconnect, login, logout, enable, disable, exposure",
		handler: async (args, ctx) => {
			const [action, name] = args.trim().split(/\s+/);
			const session = host.view();
			if (!action) {
				// The interactive manager, with the TUI code it needs, loads only when opened.
				if (ctx.mode === "tui") await (await import("./manager/mcp-manager.js")).runMcpManager(ctx, host);
				else ctx.ui.notify(mcpStatusText(session), "info");
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
				const exposure = (await import("@tau/mcp/config")).parseMcpExposure(value);
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
