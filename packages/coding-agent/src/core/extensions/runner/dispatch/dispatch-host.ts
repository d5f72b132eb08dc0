import type { ExtensionContext } from "../../api/context.js";
import type { AnyHandler } from "../../runtime/extension.js";

export interface HandlerEntry {
	extensionPath: string;
	handler: AnyHandler;
}

/** What every dispatch strategy needs from the runner. */
export interface DispatchHost {
	/** Handlers for `event` in load order, snapshotted at the start of the dispatch. */
	handlers(event: string): HandlerEntry[];
	/** One context per dispatch, shared by its handlers. */
	context(): ExtensionContext;
	report(extensionPath: string, event: string, error: unknown): void;
}
