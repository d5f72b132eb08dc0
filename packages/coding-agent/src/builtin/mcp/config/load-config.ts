import { existsSync, readFileSync } from "node:fs";
import {
	isMcpServerOverride,
	type McpHttpServerConfig,
	type McpStdioServerConfig,
	mcpNamespace,
	validateMcpServerConfig,
} from "@tau/mcp/config";
import { JsonFileError, parseJsonFile } from "../../../config/fs/json-file.js";
import { projectConfigPath, userConfigPath } from "./config-paths.js";

export type McpConfigScope = "user" | "project" | "extension";

/** One configured server after merging files and registrations. */
export interface McpServerEntry {
	name: string;
	namespace: string;
	transport: "stdio" | "http";
	config: McpStdioServerConfig | McpHttpServerConfig;
	scope: McpConfigScope;
	/** The file defining the entry, or the registering extension's path. */
	source: string;
	/** The project file whose override was merged over a user entry. */
	overrideSource?: string;
	enabled: boolean;
}

export interface McpConfig {
	servers: McpServerEntry[];
	errors: string[];
	autoEnableCodemode: boolean;
	/** Set when a project mcp.json exists but the project is not trusted. */
	untrustedProjectFile?: string;
}

export interface McpConfigSources {
	cwd: string;
	agentDir: string;
	projectTrusted: boolean;
	registered?: readonly { name: string; config: Record<string, unknown>; extensionPath: string }[];
}

const OVERRIDE_KEYS = new Set(["enabled", "exposure", "toolExposure"]);

interface RawFile {
	servers: Record<string, unknown>;
	autoEnableCodemode?: unknown;
}

/** Reads one mcp.json; a broken file is one error and contributes nothing. */
export function readMcpFile(path: string, errors: string[]): RawFile | undefined {
	if (!existsSync(path)) return undefined;
	let value: unknown;
	try {
		value = parseJsonFile(path, readFileSync(path, "utf8"));
	} catch (error) {
		// `<file>:<line>:<column>: <what>` for a syntax error; a read error names the file.
		const detail = error instanceof JsonFileError ? error.message : `${path}: ${(error as Error).message}`;
		errors.push(`Invalid JSON in ${detail}`);
		return undefined;
	}
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		errors.push(`${path}: must contain a JSON object`);
		return undefined;
	}
	const record = value as Record<string, unknown>;
	const servers = record.mcpServers ?? {};
	if (typeof servers !== "object" || servers === null || Array.isArray(servers)) {
		errors.push(`${path}: "mcpServers" must be an object`);
		return undefined;
	}
	return { servers: servers as Record<string, unknown>, autoEnableCodemode: record.autoEnableCodemode };
}

function toEntry(
	name: string,
	raw: unknown,
	scope: McpConfigScope,
	source: string,
	errors: string[],
): McpServerEntry | undefined {
	const result = validateMcpServerConfig(name, raw);
	if (result.kind === "invalid") {
		errors.push(`${source}: ${result.error}`);
		return undefined;
	}
	return {
		name,
		namespace: mcpNamespace(name),
		transport: result.kind,
		config: result.config,
		scope,
		source,
		enabled: result.config.enabled !== false,
	};
}

/** Merges the user file, the trusted project file and extension registrations (D.1). */
export function loadMcpConfig(sources: McpConfigSources): McpConfig {
	const errors: string[] = [];
	const userPath = userConfigPath(sources.agentDir);
	const projectPath = projectConfigPath(sources.cwd);
	const user = readMcpFile(userPath, errors);
	const project = sources.projectTrusted ? readMcpFile(projectPath, errors) : undefined;
	const entries = new Map<string, McpServerEntry>();
	const namespaces = new Map<string, string>();
	const add = (entry: McpServerEntry, source: string): boolean => {
		const owner = namespaces.get(entry.namespace);
		if (owner !== undefined && owner !== entry.name) {
			errors.push(
				`${source}: MCP server "${entry.name}" conflicts with "${owner}" (same namespace ${entry.namespace})`,
			);
			return false;
		}
		namespaces.set(entry.namespace, entry.name);
		entries.set(entry.name, entry);
		return true;
	};
	for (const [name, raw] of Object.entries(user?.servers ?? {})) {
		const entry = toEntry(name, raw, "user", userPath, errors);
		if (entry) add(entry, userPath);
	}
	const userRaw = user?.servers ?? {};
	for (const [name, raw] of Object.entries(project?.servers ?? {})) {
		if (typeof raw === "object" && raw !== null && "auth" in raw) {
			errors.push(`${projectPath}: MCP server "${name}": "auth" is allowed only in the user file`);
			continue;
		}
		if (!isMcpServerOverride(raw)) {
			const entry = toEntry(name, raw, "project", projectPath, errors);
			if (entry) add(entry, projectPath);
			continue;
		}
		const extra = Object.keys(raw as object).filter((key) => !OVERRIDE_KEYS.has(key));
		const base = entries.get(name);
		if (extra.length > 0) {
			errors.push(
				`${projectPath}: MCP server "${name}": an override may set only enabled, exposure, toolExposure (found ${extra.join(", ")})`,
			);
			continue;
		}
		if (base?.scope !== "user") {
			errors.push(`${projectPath}: MCP server "${name}": override without a user entry of that name`);
			continue;
		}
		const merged = toEntry(name, { ...(userRaw[name] as object), ...(raw as object) }, "user", userPath, errors);
		if (merged) entries.set(name, { ...merged, overrideSource: projectPath });
	}
	for (const registration of sources.registered ?? []) {
		const existing = [...entries.values()].find((entry) => entry.namespace === mcpNamespace(registration.name));
		if (existing) {
			errors.push(
				`MCP server "${registration.name}" registered by ${registration.extensionPath} is overridden by ${existing.source}`,
			);
			continue;
		}
		const entry = toEntry(registration.name, registration.config, "extension", registration.extensionPath, errors);
		if (entry) add(entry, registration.extensionPath);
	}
	let autoEnableCodemode = true;
	for (const [file, path] of [
		[user, userPath],
		[project, projectPath],
	] as const) {
		const value = file?.autoEnableCodemode;
		if (value === undefined) continue;
		if (typeof value === "boolean") autoEnableCodemode = value;
		else errors.push(`${path}: "autoEnableCodemode" must be a boolean`);
	}
	const config: McpConfig = { servers: [...entries.values()], errors, autoEnableCodemode };
	if (!sources.projectTrusted && existsSync(projectPath)) config.untrustedProjectFile = projectPath;
	return config;
}
