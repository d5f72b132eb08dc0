import type { SelectItem } from "@tau/tui";
import { errorMessage } from "../../../../core/errors.js";
import type { ExtensionContext } from "../../../../core/extensions/index.js";
import { activeTheme } from "../../../../modes/interactive/theme/active-theme.js";
import { usesOAuth } from "../../config/entry-auth.js";
import type { McpServerEntry } from "../../config/load-config.js";
import { getMcpToolExposure } from "../../exposure.js";
import type { McpCommandHost } from "../command-host.js";
import { attentionRank, describeState, failureReason, serverState, sourceText } from "../server-status.js";
import { type ManagerMenu, McpManagerView } from "./manager-view.js";

const EXPOSURES = {
	codemode: "callable from codemode scripts, which find them with searchTools(); not declared to the model",
	deferred: "not declared until tool_search loads them, then called directly",
	direct: "declared to the model in every request, like built-in tools",
	hidden: "registered but unreachable",
} as const;
type Exposure = keyof typeof EXPOSURES;

function describeTransport(entry: McpServerEntry): string {
	const config = entry.config as { url?: string; command?: string; args?: string[] };
	return config.url ?? [config.command, ...(config.args ?? [])].join(" ");
}

const exposureOf = (entry: McpServerEntry): Exposure => entry.config.exposure ?? "codemode";
const firstLine = (text: string | undefined) => (text ?? "").trim().split("\n")[0] ?? "";

/** The `/mcp` manager in the TUI: servers → one server's actions → tools, exposure, sign-in. */
export async function runMcpManager(ctx: ExtensionContext, host: McpCommandHost): Promise<void> {
	await ctx.ui.custom<void>((tui, _theme, keys, done) => {
		const view = new McpManagerView(tui, activeTheme(), keys);
		new ManagerFlow(view, host, ctx).run().then(
			() => done(),
			(error: unknown) => {
				ctx.ui.notify(errorMessage(error), "error");
				done();
			},
		);
		return view;
	});
}

class ManagerFlow {
	/** Outcome of the last action, per server, shown on its screen. */
	private readonly notes = new Map<string, string>();
	/** Screens to rebuild when a note arrives after its action returned (a reconnect finishing). */
	private readonly noteListeners = new Set<() => void>();
	private readonly subscribe = (listener: () => void) => {
		const off = this.host.onChange(listener);
		this.noteListeners.add(listener);
		return () => {
			off();
			this.noteListeners.delete(listener);
		};
	};

	constructor(
		private readonly view: McpManagerView,
		private readonly host: McpCommandHost,
		private readonly ctx: ExtensionContext,
	) {}

	async run(): Promise<void> {
		const subscribe = this.subscribe;
		let last: string | undefined;
		for (;;) {
			const name = await this.view.menu(() => this.serversMenu(last), subscribe);
			if (name === undefined) return;
			last = name;
			let action: string | undefined;
			for (;;) {
				const previous = action;
				action = await this.view.menu(() => this.serverMenu(name, previous), subscribe);
				const entry = this.entry(name);
				if (action === undefined || !entry) break;
				await this.act(entry, action);
			}
		}
	}

	private entry(name: string): McpServerEntry | undefined {
		return this.host.view()?.config.servers.find((candidate) => candidate.name === name);
	}

	private serversMenu(selected: string | undefined): ManagerMenu {
		const view = this.host.view();
		const entries = [...(view?.config.servers ?? [])].sort(
			(a, b) =>
				attentionRank(serverState(view!, a)) - attentionRank(serverState(view!, b)) || a.name.localeCompare(b.name),
		);
		const errors = view?.config.errors ?? [];
		return {
			title: "MCP servers",
			...(errors.length > 0 ? { error: errors.map((error) => `config: ${error}`).join("\n") } : {}),
			items: entries.map((entry) => {
				const reason = firstLine(failureReason(view!, entry));
				const state = describeState(view!, entry);
				return {
					value: entry.name,
					label: entry.name,
					description: [reason ? `${state}: ${reason}` : state, exposureOf(entry), this.scopeLabel(entry)].join(
						" · ",
					),
				};
			}),
			...(selected ? { selected } : {}),
			empty: "No MCP servers configured. Add them with `tau mcp add` or in ~/.tau/agent/mcp.json (see docs/mcp.md).",
			confirmLabel: "manage",
			cancelLabel: "close",
		};
	}

	private scopeLabel(entry: McpServerEntry): string {
		return entry.overrideSource ? `${entry.scope}, project override` : entry.scope;
	}

	private serverMenu(name: string, selected: string | undefined): ManagerMenu {
		const view = this.host.view();
		const entry = this.entry(name);
		if (!view || !entry) {
			return {
				title: name,
				items: [],
				empty: "This server is no longer configured.",
				confirmLabel: "",
				cancelLabel: "back",
			};
		}
		const state = serverState(view, entry);
		const savedTo =
			entry.scope === "extension" ? "for this session" : `saved to ${entry.overrideSource ?? entry.source}`;
		const inProject = entry.scope === "user" && !entry.overrideSource && this.ctx.isProjectTrusted();
		const items: SelectItem[] = [];
		if (!entry.enabled) {
			items.push({ value: "enable", label: "Enable", description: savedTo });
			if (inProject)
				items.push({
					value: "enable-project",
					label: "Enable in this project",
					description: "saved to .tau/mcp.json",
				});
		} else {
			if (state === "needs-auth" && usesOAuth(entry)) {
				items.push({ value: "signin", label: "Sign in", description: "opens the authorization page" });
			}
			const tools = view.connections.get(name)?.tools.length ?? 0;
			if (state === "connected") items.push({ value: "tools", label: "Tools", description: `${tools} offered` });
			items.push({ value: "reconnect", label: state === "not-started" ? "Connect" : "Reconnect" });
			if (usesOAuth(entry))
				items.push({ value: "signout", label: "Sign out", description: "deletes the stored sign-in" });
			items.push({ value: "exposure", label: "Exposure", description: exposureOf(entry) });
			items.push({ value: "disable", label: "Disable", description: savedTo });
			if (inProject) {
				items.push({
					value: "disable-project",
					label: "Disable in this project",
					description: "saved to .tau/mcp.json",
				});
			}
		}
		const details = [
			describeTransport(entry),
			`${entry.scope}: ${sourceText(entry)}`,
			`State: ${describeState(view, entry)}`,
		];
		const reason = failureReason(view, entry);
		const note = this.notes.get(name);
		return {
			title: `MCP server ${name}`,
			details,
			...(reason ? { error: reason } : {}),
			...(note ? { note } : {}),
			items,
			...(selected ? { selected } : {}),
			confirmLabel: "select",
			cancelLabel: "back",
		};
	}

	private async act(entry: McpServerEntry, action: string): Promise<void> {
		const name = entry.name;
		const note = (text: string) => {
			this.notes.set(name, text);
			for (const listener of [...this.noteListeners]) listener();
		};
		switch (action) {
			case "tools":
				await this.showTools(entry);
				return;
			case "exposure": {
				const choice = await this.chooseExposure(entry);
				if (choice) note(await this.host.change(name, { field: "exposure", value: choice }, false, this.ctx));
				return;
			}
			case "reconnect":
				// The menu stays usable; the state line follows the connection.
				this.notes.delete(name);
				void this.host.reconnect(name, this.ctx).then(note, (error: unknown) => note(String(error)));
				return;
			case "signin": {
				const outcome = await this.signIn(name);
				note(outcome);
				// Connect with the new credentials; the state line follows.
				if (!/failed|cancelled/.test(outcome)) void this.host.reconnect(name, this.ctx).catch(() => undefined);
				return;
			}
			case "signout":
				note(await this.host.signOut(name));
				return;
			default: {
				const enable = action.startsWith("enable");
				const change = { field: "enabled", value: enable } as const;
				note(await this.host.change(name, change, action.endsWith("-project"), this.ctx).catch(String));
			}
		}
	}

	private async showTools(entry: McpServerEntry): Promise<void> {
		const server = exposureOf(entry);
		await this.view.menu(() => {
			const tools = this.host.view()?.connections.get(entry.name)?.tools ?? [];
			const overridden = Object.keys(entry.config.toolExposure ?? {}).length > 0;
			return {
				title: `Tools of ${entry.name}`,
				details: [
					`Exposure ${server}: ${EXPOSURES[server]}`,
					...(overridden ? ["Tools marked [exposure] override it with toolExposure."] : []),
				],
				items: tools.map((tool) => {
					const own = getMcpToolExposure(entry, tool.name);
					const description = firstLine(tool.description);
					return {
						value: tool.name,
						label: tool.name,
						description: own === server ? description : `[${own}] ${description}`,
					};
				}),
				empty: "The server offers no tools.",
				confirmLabel: "back",
				cancelLabel: "back",
			};
		}, this.subscribe);
	}

	private async chooseExposure(entry: McpServerEntry): Promise<Exposure | undefined> {
		const current = exposureOf(entry);
		const choice = await this.view.menu(() => ({
			title: `Exposure of ${entry.name}`,
			details: [
				entry.scope === "extension"
					? "Applies to this session."
					: `Saved to ${entry.overrideSource ?? entry.source}.`,
			],
			items: (Object.keys(EXPOSURES) as Exposure[]).map((exposure) => ({
				value: exposure,
				label: `${exposure === current ? "✓" : " "} ${exposure}`,
				description: EXPOSURES[exposure],
			})),
			selected: current,
			confirmLabel: "save",
			cancelLabel: "back",
		}));
		return choice === undefined || choice === current ? undefined : (choice as Exposure);
	}

	private async signIn(name: string): Promise<string> {
		const cancel = new AbortController();
		const title = `Sign in to ${name}`;
		this.view.status(title, ["Contacting the authorization server…"], () => cancel.abort());
		try {
			return await this.host.signIn(name, this.ctx, {
				signal: cancel.signal,
				showUrl: (url) =>
					this.view.status(title, ["Approve access in your browser. If it did not open, visit:", url], () =>
						cancel.abort(),
					),
			});
		} catch (error) {
			return cancel.signal.aborted ? "Sign-in cancelled." : `Sign-in failed: ${(error as Error).message}`;
		}
	}
}
