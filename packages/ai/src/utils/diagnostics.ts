import type { JsonObject } from "../types/json.js";
import type { AssistantMessageDiagnostic, DiagnosticErrorInfo } from "../types/messages.js";

/** The text of a thrown value: an Error's message (or its name when empty), a string as is, else `String()`. */
export function formatThrownValue(value: unknown): string {
	if (value instanceof Error) return value.message || value.name;
	if (typeof value === "string") return value;
	return String(value);
}

/** What a diagnostic records of a thrown value; a non-Error becomes `ThrownValue` with its text. */
export function extractDiagnosticError(error: unknown): DiagnosticErrorInfo {
	if (!(error instanceof Error)) return { name: "ThrownValue", message: formatThrownValue(error) };
	const code = (error as { code?: unknown }).code;
	const info: DiagnosticErrorInfo = { message: error.message || error.name };
	if (error.name) info.name = error.name;
	if (error.stack) info.stack = error.stack;
	if (typeof code === "string" || typeof code === "number") info.code = code;
	return info;
}

/** A diagnostic record of `type` from anything thrown. */
export function createAssistantMessageDiagnostic(
	type: string,
	error: unknown,
	details?: JsonObject,
): AssistantMessageDiagnostic {
	const diagnostic: AssistantMessageDiagnostic = { type, timestamp: Date.now(), error: extractDiagnosticError(error) };
	if (details !== undefined) diagnostic.details = details;
	return diagnostic;
}

/** Appends without mutating the previous array, so snapshots taken earlier keep their length. */
export function appendAssistantMessageDiagnostic<T extends { diagnostics?: AssistantMessageDiagnostic[] }>(
	message: T,
	diagnostic: AssistantMessageDiagnostic,
): void {
	message.diagnostics = [...(message.diagnostics ?? []), diagnostic];
}
