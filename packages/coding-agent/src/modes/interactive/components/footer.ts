import { type Component, sanitizeTerminalText, truncateToWidth, visibleWidth } from "@tau/tui";
import type { Theme } from "../../../core/resources/index.js";

export interface FooterState {
	cwd: string;
	home: string | undefined;
	gitBranch: string | undefined;
	sessionName: string | undefined;
	tokens: { input: number; output: number; cacheRead: number; cacheWrite: number };
	/** Cache hit rate of the latest assistant message, percent; undefined without cache tokens. */
	cacheHitPercent: number | undefined;
	cost: number;
	subscription: boolean;
	context: { percent: number | null; contextWindow: number } | undefined;
	autoCompaction: boolean;
	modelId: string | undefined;
	provider: string | undefined;
	reasoning: boolean;
	thinkingLevel: string;
	/** Under a virtual model: the model (and level) the latest request was routed to. */
	routed?: { modelId: string; thinkingLevel?: string };
	multipleProviders: boolean;
	statuses: ReadonlyMap<string, string>;
}

/** `1234` → `1.2k` (docs/design/interactive.md#footer). */
export function formatTokens(count: number): string {
	if (count < 1000) return String(count);
	if (count < 10000) return `${(count / 1000).toFixed(1)}k`;
	if (count < 1e6) return `${Math.round(count / 1000)}k`;
	if (count < 1e7) return `${(count / 1e6).toFixed(1)}M`;
	return `${Math.round(count / 1e6)}M`;
}

function displayCwd(cwd: string, home: string | undefined): string {
	if (home && (cwd === home || cwd.startsWith(`${home}/`))) return `~${cwd.slice(home.length)}`;
	return cwd;
}

/** Two or three dim lines: location, usage and model, extension statuses. */
export class FooterView implements Component {
	private state: FooterState | undefined;
	/** Where the next drawn state comes from, when a refresh is pending. */
	private source: (() => FooterState) | undefined;
	private cache: { width: number; lines: string[] } | undefined;

	constructor(private readonly theme: Theme) {}

	setState(state: FooterState): void {
		this.state = state;
		this.source = undefined;
		this.cache = undefined;
	}

	/**
	 * Takes the state from `source` when the footer is next drawn: the session refreshes the footer on
	 * every event, and a streamed answer sends hundreds of them per frame.
	 */
	refresh(source: () => FooterState): void {
		this.source = source;
		this.cache = undefined;
	}

	invalidate(): void {
		this.cache = undefined;
	}

	private locationLine(state: FooterState, width: number): string {
		// A folder, branch or session name can carry anything a repository or session file puts there.
		let text = displayCwd(state.cwd, state.home);
		if (state.gitBranch) text += ` (${state.gitBranch})`;
		if (state.sessionName) text += ` • ${state.sessionName}`;
		const line = sanitizeTerminalText(text).replace(/\s+/g, " ");
		return truncateToWidth(this.theme.dim(line), width, this.theme.dim("..."));
	}

	private usageLeft(state: FooterState): string {
		const items: string[] = [];
		const { tokens } = state;
		if (tokens.input) items.push(`↑${formatTokens(tokens.input)}`);
		if (tokens.output) items.push(`↓${formatTokens(tokens.output)}`);
		if (tokens.cacheRead) items.push(`R${formatTokens(tokens.cacheRead)}`);
		if (tokens.cacheWrite) items.push(`W${formatTokens(tokens.cacheWrite)}`);
		if (state.cacheHitPercent !== undefined) items.push(`CH${Math.round(state.cacheHitPercent)}%`);
		if (state.cost > 0 || state.subscription)
			items.push(`$${state.cost.toFixed(3)}${state.subscription ? " (sub)" : ""}`);
		const left = this.theme.dim(items.join(" "));
		if (!state.context) return left;
		const window = formatTokens(state.context.contextWindow);
		const percent = state.context.percent;
		// Unknown (after a compaction, before the next reply) reads `?/200k`, as in pi.
		const text = `${percent === null ? "?" : `${percent.toFixed(1)}%`}/${window}${state.autoCompaction ? " (auto)" : ""}`;
		const token =
			percent !== null && percent > 90 ? "error" : percent !== null && percent > 70 ? "warning" : undefined;
		const context = token ? this.theme.fg(token, text) : this.theme.dim(text);
		return items.length > 0 ? `${left} ${context}` : context;
	}

	private modelRight(state: FooterState): { full: string; short: string } {
		if (!state.modelId) return { full: "no model", short: "no model" };
		const level = state.reasoning
			? state.thinkingLevel === "off"
				? " • thinking off"
				: ` • ${state.thinkingLevel}`
			: "";
		const routed = state.routed
			? ` → ${state.routed.modelId}${state.routed.thinkingLevel ? ` • ${state.routed.thinkingLevel}` : ""}`
			: "";
		const short = sanitizeTerminalText(`${state.modelId}${level}${routed}`).replace(/\s+/g, " ");
		const provider = sanitizeTerminalText(state.provider ?? "").replace(/\s+/g, " ");
		return { full: state.multipleProviders && provider ? `(${provider}) ${short}` : short, short };
	}

	private usageLine(state: FooterState, width: number): string {
		const left = this.usageLeft(state);
		const leftWidth = visibleWidth(left);
		const right = this.modelRight(state);
		const room = width - leftWidth - 2;
		const chosen = visibleWidth(right.full) <= room ? right.full : right.short;
		if (room <= 0) return truncateToWidth(left, width, this.theme.dim("..."));
		const shown = truncateToWidth(chosen, room, "");
		const gap = width - leftWidth - visibleWidth(shown);
		return left + " ".repeat(Math.max(2, gap)) + this.theme.dim(shown);
	}

	private statusLine(state: FooterState, width: number): string | undefined {
		if (state.statuses.size === 0) return undefined;
		const text = [...state.statuses.entries()]
			.sort(([a], [b]) => a.localeCompare(b))
			.map(([, value]) => sanitizeTerminalText(value, { keepStyle: true }).replace(/[\n\t]+/g, " "))
			.join(" ");
		return truncateToWidth(text, width, this.theme.dim("..."));
	}

	render(width: number): readonly string[] {
		if (this.source) this.setState(this.source());
		if (this.cache?.width === width) return this.cache.lines;
		const state = this.state;
		if (!state) return [];
		const status = this.statusLine(state, width);
		const lines = [this.locationLine(state, width), this.usageLine(state, width), ...(status ? [status] : [])];
		this.cache = { width, lines };
		return lines;
	}
}
