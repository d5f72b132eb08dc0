import type { JsonObject } from "../types/json.js";
import type { AssistantMessage, AssistantMessageDiagnostic } from "../types/messages.js";

/** A diagnostic record of `type` from anything thrown. */
export function createAssistantMessageDiagnostic(
	type: string,
	error: unknown,
	details?: JsonObject,
): AssistantMessageDiagnostic {
	const diagnostic: AssistantMessageDiagnostic = { type, timestamp: Date.now() };
	if (error !== undefined) {
		if (error instanceof Error) {
			const code = (error as { code?: unknown }).code;
			diagnostic.error = { name: error.name, message: error.message };
			if (error.stack) diagnostic.error.stack = error.stack;
			if (typeof code === "string" || typeof code === "number") diagnostic.error.code = code;
		} else {
			diagnostic.error = { message: String(error) };
		}
	}
	if (details !== undefined) diagnostic.details = details;
	return diagnostic;
}

export function appendAssistantMessageDiagnostic(
	message: AssistantMessage,
	diagnostic: AssistantMessageDiagnostic,
): void {
	message.diagnostics ??= [];
	message.diagnostics.push(diagnostic);
}
