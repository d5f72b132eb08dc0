/** Returns `value` when it is one of `allowed`, else `fallback` (accessor normalization of enums). */
export function oneOf<T>(value: unknown, allowed: readonly T[], fallback: T): T {
	return allowed.includes(value as T) ? (value as T) : fallback;
}

export function booleanOr(value: unknown, fallback: boolean): boolean {
	return typeof value === "boolean" ? value : fallback;
}

export function finiteNumberOr(value: unknown, fallback: number): number {
	return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

export function clamp(value: number, min: number, max: number): number {
	return Math.min(max, Math.max(min, value));
}

/**
 * Strict timeout parse: numbers or numeric strings >= 0 are floored, `"disabled"` (any case)
 * disables (returns 0), unset is undefined; anything else (a blank string too) throws
 * `Invalid <name> setting: <v>`.
 */
export function parseTimeoutSetting(name: string, value: unknown): number | undefined {
	if (value === undefined) return undefined;
	let number = value;
	if (typeof value === "string") {
		const trimmed = value.trim();
		if (trimmed.toLowerCase() === "disabled") return 0;
		number = trimmed === "" ? Number.NaN : Number(trimmed);
	}
	if (typeof number === "number" && Number.isFinite(number) && number >= 0) return Math.floor(number);
	throw new Error(`Invalid ${name} setting: ${settingText(value)}`);
}

/** A bad setting value in an error: scalars as Pi prints them, objects and arrays as JSON. */
export function settingText(value: unknown): string {
	return typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
}

/** The npm argv to run: the configured one, else `npm`; an empty command is an error. */
export function npmCommandOrDefault(configured: string[] | undefined): string[] {
	const command = configured ?? ["npm"];
	if (!command[0]) throw new Error("Invalid npmCommand: first array entry must be a non-empty command");
	return [...command];
}

/** Compaction token values must be non-negative safe integers; reading a bad one throws. */
export function parseTokenSetting(label: string, value: unknown): number | undefined {
	if (value === undefined) return undefined;
	if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
	throw new Error(`Invalid ${label} setting: ${settingText(value)}. Expected a non-negative safe integer.`);
}

export function stringArray(value: unknown): string[] | undefined {
	return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : undefined;
}
