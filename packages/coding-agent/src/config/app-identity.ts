import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * Product identity read from this package's package.json, so a rebrand is one edit.
 * `tauConfig` wins; `piConfig` is accepted for forks of Pi's package layout.
 */
interface BrandingFields {
	name?: string;
	version?: string;
	tauConfig?: { name?: string; configDir?: string };
	piConfig?: { name?: string; configDir?: string };
}

/** The package root: the nearest ancestor of this module holding a package.json (src/ or dist/ parent). */
export const PACKAGE_DIR: string = findPackageDir(dirname(fileURLToPath(import.meta.url)));

function findPackageDir(start: string): string {
	if (process.env.TAU_PACKAGE_DIR) return process.env.TAU_PACKAGE_DIR;
	let dir = start;
	for (;;) {
		try {
			readFileSync(join(dir, "package.json"));
			return dir;
		} catch {
			const parent = dirname(dir);
			if (parent === dir) return start;
			dir = parent;
		}
	}
}

function readBranding(): BrandingFields {
	let text: string;
	try {
		text = readFileSync(join(PACKAGE_DIR, "package.json"), "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
		throw error;
	}
	return JSON.parse(text.replace(/^\uFEFF/, "")) as BrandingFields;
}

const branding = readBranding();
const brand = branding.tauConfig ?? branding.piConfig ?? {};

export const APP_NAME: string = brand.name ?? "tau";
/** Name of the per-user and per-project configuration directory (`.tau`, or a brand's own). */
export const CONFIG_DIR_NAME: string = brand.configDir ?? ".tau";
export const ENV_PREFIX: string = APP_NAME.toUpperCase();
export const ENV_AGENT_DIR = `${ENV_PREFIX}_CODING_AGENT_DIR`;
export const ENV_SESSION_DIR = `${ENV_PREFIX}_CODING_AGENT_SESSION_DIR`;
export const PACKAGE_NAME: string = branding.name ?? "@tau/coding-agent";
/** The version of the running tau package. */
export const VERSION: string = branding.version ?? "0.0.0";

/** The name of a product environment variable: `envName("OFFLINE")` is `TAU_OFFLINE`. */
export function envName(suffix: string): string {
	return `${ENV_PREFIX}_${suffix}`;
}

/** The installed package's root directory (where its README, docs and examples are). */
export function getPackageDir(): string {
	return PACKAGE_DIR;
}

/** Absolute path of the README shipped with the installed package. */
export function getReadmePath(): string {
	return join(PACKAGE_DIR, "README.md");
}

/** Absolute path of the documentation shipped with the installed package. */
export function getDocsPath(): string {
	return readerPath("docs");
}

/** Absolute path of the examples shipped with the installed package. */
export function getExamplesPath(): string {
	return readerPath("examples");
}

/**
 * A folder the package offers its readers (the model included, through the system prompt): inside
 * the package when it was installed from its tarball (`prepack` copies docs and examples in), else at
 * the root of the source checkout the package sits in (`packages/coding-agent` → `../..`).
 */
function readerPath(name: string): string {
	const own = join(PACKAGE_DIR, name);
	if (existsSync(own)) return own;
	const checkout = join(PACKAGE_DIR, "..", "..", name);
	return existsSync(checkout) ? checkout : own;
}
