import { JsonFileError } from "../fs/json-file.js";
import type { SettingsError } from "./types.js";

export interface SettingsDiagnostic {
	type: "warning";
	message: string;
}

/**
 * Renders settings errors as warnings, dropping duplicates by (type, message) so a file reported
 * by both the startup and the runtime manager appears once.
 */
export function collectSettingsDiagnostics(errors: readonly SettingsError[]): SettingsDiagnostic[] {
	const seen = new Set<string>();
	const diagnostics: SettingsDiagnostic[] = [];
	for (const { scope, path, error } of errors) {
		// A syntax error already names the file, line and column.
		const message =
			error instanceof JsonFileError
				? `Invalid settings file ${error.message}`
				: path === undefined
					? `Invalid ${scope} settings: ${error.message}`
					: `Invalid settings file ${path}: ${error.message}`;
		const key = `warning\0${message}`;
		if (seen.has(key)) continue;
		seen.add(key);
		diagnostics.push({ type: "warning", message });
	}
	return diagnostics;
}

/** The line package commands print for a settings error. */
export function formatSettingsWarning(context: string, error: SettingsError): string {
	return `Warning (${context}, ${error.scope} settings): ${error.error.message}`;
}
