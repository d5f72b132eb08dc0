/** A handler or action failure, as delivered to `runner.onError` listeners and shown by the modes. */
export interface ExtensionError {
	extensionPath: string;
	event: string;
	error: string;
	stack?: string;
}

export const NOT_INITIALIZED_MESSAGE =
	"Extension runtime not initialized. Action methods cannot be called during extension loading.";

export const STALE_CONTEXT_MESSAGE =
	"This extension context is stale: its session was replaced or reloaded. Do not reuse a captured `pi` or command `ctx` after newSession(), fork(), switchSession() or reload(); use the ctx passed to withSession instead.";

export function failedExtensionMessage(path: string): string {
	return `Extension "${path}" failed to load and its API is no longer active.`;
}

export function toExtensionError(extensionPath: string, event: string, error: unknown): ExtensionError {
	if (error instanceof Error) {
		const report: ExtensionError = { extensionPath, event, error: error.message };
		if (error.stack) report.stack = error.stack;
		return report;
	}
	return { extensionPath, event, error: String(error) };
}
