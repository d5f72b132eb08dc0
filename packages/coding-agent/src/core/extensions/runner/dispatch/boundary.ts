import { errorMessage } from "../../../errors.js";
import type {
	AgentBeforeSettleEvent,
	BoundaryContextPreview,
	BoundaryEventResult,
	SessionBoundaryDraft,
	TurnEndEvent,
} from "../../api/events.js";
import type { DispatchHost } from "./dispatch-host.js";

type BoundaryBase =
	| Omit<TurnEndEvent, "entries" | "continue" | "context">
	| Omit<AgentBeforeSettleEvent, "entries" | "continue" | "context">;

export interface BoundaryProposal {
	entries: SessionBoundaryDraft[];
	continue: boolean;
	/** False when the final drafts could not be applied to the branch; the host then discards them. */
	valid: boolean;
}

/**
 * `turn_end` / `agent_before_settle`: a chained proposal. Each handler sees the drafts and flag so
 * far and replaces only the fields it returns. After every handler (even a failed one) the preview
 * is rebuilt by `buildPreview`, which throws when the drafts do not apply; that marks the proposal
 * invalid until a later rebuild succeeds. An invalid final proposal is discarded.
 */
export async function dispatchBoundary(
	host: DispatchHost,
	base: BoundaryBase,
	buildPreview: (entries: readonly SessionBoundaryDraft[]) => BoundaryContextPreview,
): Promise<BoundaryProposal> {
	const handlers = host.handlers(base.type);
	let entries: SessionBoundaryDraft[] = [];
	let proceed = false;
	let valid = true;
	let context = buildPreview(entries);
	const ctx = host.context();
	for (const { extensionPath, handler } of handlers) {
		try {
			const event = { ...base, entries: [...entries], continue: proceed, context };
			const result = (await handler(event, ctx)) as BoundaryEventResult | undefined;
			if (result?.entries !== undefined) entries = [...result.entries];
			if (result?.continue !== undefined) proceed = result.continue;
		} catch (error) {
			host.report(extensionPath, base.type, error);
		}
		try {
			context = buildPreview(entries);
			valid = true;
		} catch (error) {
			valid = false;
			host.report("<boundary>", base.type, new Error(`Invalid boundary entries: ${errorMessage(error)}`));
		}
	}
	if (!valid) return { entries: [], continue: false, valid: false };
	return { entries, continue: proceed, valid: true };
}
