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
 * Strict timeout parse: numbers or numeric strings >= 0 are floored, `"disabled"` or `0` disables
 * (returns 0); anything else throws `Invalid <name> setting: <v>`.
 */
export function parseTimeoutSetting(name: string, value: unknown, fallback: number): number {
	if (value === undefined) return fallback;
	if (value === "disabled") return 0;
	const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
	if (typeof number === "number" && Number.isFinite(number) && number >= 0) return Math.floor(number);
	throw new Error(`Invalid ${name} setting: ${JSON.stringify(value)}`);
}

/** Compaction token values must be non-negative safe integers; reading a bad one throws. */
export function parseTokenSetting(label: string, value: unknown): number | undefined {
	if (value === undefined) return undefined;
	if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
	throw new Error(`Invalid ${label} setting: ${JSON.stringify(value)}. Expected a non-negative safe integer.`);
}

export function stringArray(value: unknown): string[] | undefined {
	return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : undefined;
}
