import type { ViewerPayload } from "../../src/export/viewer-payload.js";
import { byId, h, text } from "./dom.js";
import type { Entry, SessionModel } from "./session-model.js";
import { computeStats, promptAt } from "./session-stats.js";

const number = (value: number) => value.toLocaleString("en-US");

/** The top of the page: name, where and when, token and cost totals, and the branch's system prompt and tools. */
export class HeaderView {
	private readonly element = byId("session-header");
	private readonly promptSlot = h("div", { class: "prompt-slot" });

	constructor(model: SessionModel, payload: ViewerPayload) {
		const header = model.header ?? {};
		const stats = computeStats(model.entries);
		const created = typeof header.timestamp === "string" ? new Date(header.timestamp) : undefined;
		const fact = (name: string, value: string) =>
			value ? h("div", { class: "fact" }, h("dt", {}, name), h("dd", {}, value)) : null;
		this.element.append(
			h("h1", {}, model.name ?? "Session"),
			h(
				"dl",
				{ class: "facts" },
				fact("Session", text(header.id)),
				fact("Directory", text(header.cwd)),
				fact("Started", created && !Number.isNaN(created.getTime()) ? created.toLocaleString() : ""),
				fact("Forked from", text(header.parentSession)),
				fact("Models", stats.models.join(", ")),
				fact(
					"Entries",
					`${number(stats.entries)} (${number(stats.userMessages)} user, ${number(stats.assistantMessages)} assistant, ${number(stats.toolCalls)} tool calls)`,
				),
				fact(
					"Tokens",
					`${number(stats.input)} in, ${number(stats.output)} out, ${number(stats.cacheRead)} cache read, ${number(stats.cacheWrite)} cache write`,
				),
				fact("Cost", `$${stats.cost.toFixed(4)}`),
				fact(
					"Exported",
					`${new Date(payload.exportedAt).toLocaleString()} by ${payload.app.name} ${payload.app.version}`,
				),
			),
			this.promptSlot,
		);
	}

	/** The system prompt and tool list as of the end of the shown branch. */
	showBranch(branch: readonly Entry[]): void {
		const { prompt, sections, tools } = promptAt(branch);
		const parts: HTMLElement[] = [];
		if (prompt || sections.size > 0) {
			const text = [prompt, ...sections.values()].filter(Boolean).join("\n\n");
			parts.push(
				h(
					"details",
					{ class: "system-prompt" },
					h("summary", {}, "System prompt"),
					h("pre", { class: "prompt" }, text),
				),
			);
		}
		if (tools.size > 0) {
			parts.push(
				h(
					"details",
					{ class: "tool-list" },
					h("summary", {}, `Tools (${tools.size})`),
					h(
						"dl",
						{},
						...[...tools].flatMap(([name, description]) => [h("dt", {}, name), h("dd", {}, description)]),
					),
				),
			);
		}
		this.promptSlot.replaceChildren(...parts);
	}
}
