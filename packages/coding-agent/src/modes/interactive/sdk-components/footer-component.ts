import { homedir } from "node:os";
import type { Component } from "@tau/tui";
import type { AgentSession } from "../../../core/agent-session/agent-session.js";
import type { ReadonlyFooterDataProvider } from "../../../core/extensions/index.js";
import { FooterView } from "../components/footer.js";
import { footerStateOf, SessionTotals } from "../controller/footer-state.js";
import { activeTheme } from "../theme/active-theme.js";

/**
 * The built-in footer (cwd, branch, tokens, cost, context, model) for a session, as custom footers
 * compose it (docs/extensions.md): state is read again on every render, so it stays current.
 */
export class FooterComponent implements Component {
	private readonly view = new FooterView(activeTheme());
	private readonly totals = new SessionTotals();
	private autoCompact: boolean | undefined;
	private readonly stopWatching: () => void;

	constructor(
		private session: AgentSession,
		private readonly footerData: ReadonlyFooterDataProvider,
	) {
		this.stopWatching = footerData.onBranchChange(() => this.view.invalidate());
	}

	setSession(session: AgentSession): void {
		this.session = session;
	}

	/** Overrides what the footer shows for auto-compaction (default: the session's setting). */
	setAutoCompactEnabled(enabled: boolean): void {
		this.autoCompact = enabled;
	}

	invalidate(): void {
		this.view.invalidate();
	}

	dispose(): void {
		this.stopWatching();
	}

	render(width: number): string[] {
		const state = footerStateOf(this.session, this.totals, {
			gitBranch: this.footerData.getGitBranch() ?? undefined,
			home: homedir(),
			statuses: this.footerData.getExtensionStatuses(),
			subscription: this.session.model
				? this.session.modelRuntime.isUsingSubscription(this.session.model.provider)
				: false,
		});
		this.view.setState(this.autoCompact === undefined ? state : { ...state, autoCompaction: this.autoCompact });
		return [...this.view.render(width)];
	}
}
