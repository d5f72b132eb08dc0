import { readFileSync } from "node:fs";
import { join } from "node:path";

interface Version {
	numbers: [number, number, number];
	prerelease: boolean;
}

function parseVersion(text: string): Version | undefined {
	const match = /^v?(\d+)\.(\d+)\.(\d+)(-[^+]*)?(?:\+.*)?$/.exec(text.trim());
	if (!match) return undefined;
	return { numbers: [Number(match[1]), Number(match[2]), Number(match[3])], prerelease: match[4] !== undefined };
}

function compare(a: Version, b: Version): number {
	for (let i = 0; i < 3; i++) if (a.numbers[i] !== b.numbers[i]) return a.numbers[i]! - b.numbers[i]!;
	return Number(b.prerelease) - Number(a.prerelease);
}

/** Whether `candidate` is a newer semver version than `installed` (a release beats its prerelease). */
export function isNewerVersion(candidate: string, installed: string): boolean {
	const a = parseVersion(candidate);
	const b = parseVersion(installed);
	if (!a || !b) return candidate !== installed;
	return compare(a, b) > 0;
}

/**
 * Whether an installed version satisfies the version written in a package source: exact versions,
 * `^`/`~` ranges and `x`/`*` partials are checked; anything else (tags, compound ranges) is
 * undecidable here and answers `undefined`.
 */
export function satisfiesVersion(installed: string, wanted: string): boolean | undefined {
	const version = parseVersion(installed);
	if (!version) return undefined;
	const exact = parseVersion(wanted);
	if (exact) return compare(version, exact) === 0;
	const caret = /^([\^~])v?(\d+)\.(\d+)\.(\d+)$/.exec(wanted.trim());
	if (caret) {
		const floor = parseVersion(`${caret[2]}.${caret[3]}.${caret[4]}`)!;
		if (compare(version, floor) < 0) return false;
		const [major, minor] = floor.numbers;
		const [vMajor, vMinor, vPatch] = version.numbers;
		if (caret[1] === "~") return vMajor === major && vMinor === minor;
		if (major > 0) return vMajor === major;
		if (minor > 0) return vMajor === 0 && vMinor === minor;
		return vMajor === 0 && vMinor === 0 && vPatch === floor.numbers[2];
	}
	const partial = /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?$/.exec(wanted.trim());
	if (partial) {
		return partial
			.slice(1)
			.every((part, index) => part === undefined || !/^\d+$/.test(part) || Number(part) === version.numbers[index]);
	}
	return undefined;
}

/** The `version` of an installed package directory, if readable. */
export function installedVersion(packageDir: string): string | undefined {
	try {
		const version = (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version?: unknown })
			.version;
		return typeof version === "string" ? version : undefined;
	} catch {
		return undefined;
	}
}
