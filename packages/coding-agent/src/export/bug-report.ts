import { arch, platform, release } from "node:os";
import { join } from "node:path";
import type { SettingsManager } from "../config/index.js";
import { writeFileAtomicSync } from "../core/fs/atomic-write.js";
import type { ResourceLoader } from "../core/resources/index.js";
import { type SessionManager, serializeEntry } from "../core/session/index.js";
import { createZip, type ZipEntry } from "./zip-writer.js";

export const REDACTED = "[redacted]";

/** What a bug report reads of a session (an `AgentSession` is one). */
export interface ReportedSession {
	readonly sessionManager: SessionManager;
	readonly settingsManager: SettingsManager;
	readonly resourceLoader: ResourceLoader;
}

/** Names whose values are credentials whatever they look like (`apiKey`, `auth_token`, `Authorization`…). */
const SECRET_NAME = /(key|token|secret|password|passwd|credentials?|authorization|auth|cookie|bearer)$/i;
/** Prefixes of well-known credential formats. */
const SECRET_PREFIX = /^(sk-|sk_|pk_|rk_|ghp_|gho_|ghu_|ghs_|github_pat_|glpat-|xox[abprs]-|AIza|ya29\.|Bearer\s)/;
/**
 * `$NAME` / `${NAME}` environment references and `!command` shell commands: how settings point at
 * secrets; the reference itself is left out too, since a command line may embed the secret.
 */
const SECRET_REFERENCE = /^(\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|!.+)$/s;

/** A long token of mixed case and digits with no spaces or path separators: an opaque key. */
function looksLikeOpaqueKey(value: string): boolean {
	return (
		value.length >= 24 &&
		/^[A-Za-z0-9_\-+=.]+$/.test(value) &&
		/[a-z]/.test(value) &&
		/[A-Z]/.test(value) &&
		/[0-9]/.test(value)
	);
}

function looksSecret(value: string): boolean {
	const trimmed = value.trim();
	return SECRET_PREFIX.test(trimmed) || SECRET_REFERENCE.test(trimmed) || looksLikeOpaqueKey(trimmed);
}

/** A copy of a settings value with credential-named fields and secret-looking strings replaced. */
export function redactSecrets(value: unknown): unknown {
	if (typeof value === "string") return looksSecret(value) ? REDACTED : value;
	if (Array.isArray(value)) return value.map(redactSecrets);
	if (value !== null && typeof value === "object") {
		return Object.fromEntries(
			Object.entries(value).map(([name, inner]) => [
				name,
				SECRET_NAME.test(name) && inner !== null && typeof inner !== "object" ? REDACTED : redactSecrets(inner),
			]),
		);
	}
	return value;
}

export interface BugReport {
	appName: string;
	version: string;
	description: string;
	model?: { provider: string; id: string; thinkingLevel: string };
	/** The raw settings layers; redacted when the archive is built. */
	settings: { global: unknown; project: unknown };
	diagnostics: string[];
	/** Session JSONL, only when the user chose to include it. */
	transcript?: string;
	/** Where TERM / TERM_PROGRAM are read; nothing else of it goes into the report. */
	env: NodeJS.ProcessEnv;
	createdAt: Date;
}

/** The files of the archive: `report.json`, `settings.json`, `diagnostics.txt`, optionally `session.jsonl`. */
export function bugReportEntries(report: BugReport): ZipEntry[] {
	const summary = {
		app: report.appName,
		version: report.version,
		createdAt: report.createdAt.toISOString(),
		platform: `${platform()} ${release()} (${arch()})`,
		node: process.version,
		terminal: { TERM: report.env.TERM ?? null, TERM_PROGRAM: report.env.TERM_PROGRAM ?? null },
		model: report.model ?? null,
		transcriptIncluded: report.transcript !== undefined,
		description: report.description,
	};
	const entries: ZipEntry[] = [
		{ name: "report.json", data: `${JSON.stringify(summary, null, 2)}\n` },
		{ name: "settings.json", data: `${JSON.stringify(redactSecrets(report.settings), null, 2)}\n` },
		{
			name: "diagnostics.txt",
			data: report.diagnostics.length > 0 ? `${report.diagnostics.join("\n")}\n` : "(none)\n",
		},
	];
	if (report.transcript !== undefined) entries.push({ name: "session.jsonl", data: report.transcript });
	return entries;
}

/** Warnings the session's settings and resources reported (load failures, skipped files, collisions). */
export function collectDiagnostics(session: ReportedSession): string[] {
	const lines: string[] = [];
	for (const scope of ["global", "project"] as const) {
		const error = session.settingsManager.getLoadError(scope);
		if (error) lines.push(`settings (${scope}): ${error.message}`);
	}
	const loader = session.resourceLoader;
	const extensions = loader.getExtensions();
	for (const failure of extensions.errors) lines.push(`extension ${failure.path}: ${failure.error}`);
	const resourceDiagnostics = [
		...(extensions.warnings ?? []).map((diagnostic) => ["extension", diagnostic] as const),
		...loader.getSkills().diagnostics.map((diagnostic) => ["skill", diagnostic] as const),
		...loader.getPrompts().diagnostics.map((diagnostic) => ["prompt", diagnostic] as const),
		...loader.getThemes().diagnostics.map((diagnostic) => ["theme", diagnostic] as const),
	];
	for (const [kind, diagnostic] of resourceDiagnostics) {
		lines.push(`${kind} ${diagnostic.type}: ${diagnostic.message}${diagnostic.path ? ` (${diagnostic.path})` : ""}`);
	}
	return lines;
}

/** The session file as JSONL: header, then every entry. */
export function sessionTranscript(session: Pick<ReportedSession, "sessionManager">): string {
	const manager = session.sessionManager;
	const header = manager.getHeader();
	const entries = header ? [header, ...manager.getEntries()] : manager.getEntries();
	return entries.map(serializeEntry).join("");
}

export function bugReportFileName(appName: string, createdAt: Date): string {
	return `${appName}-bug-${createdAt.toISOString().replace(/[:.]/g, "-")}.zip`;
}

/**
 * Writes the archive into the first directory that accepts it (the working directory, then the
 * agent dir) and returns its path. Nothing is uploaded.
 */
export function writeBugReport(report: BugReport, directories: readonly string[]): string {
	const archive = createZip(bugReportEntries(report), report.createdAt);
	const name = bugReportFileName(report.appName, report.createdAt);
	let lastError: unknown;
	for (const directory of directories) {
		const path = join(directory, name);
		try {
			writeFileAtomicSync(path, archive, { exclusive: true });
			return path;
		} catch (error) {
			lastError = error;
		}
	}
	throw lastError instanceof Error ? lastError : new Error("No directory to write the bug report to");
}
