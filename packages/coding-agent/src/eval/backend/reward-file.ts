import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The reward the verifier wrote under `<logs>/verifier/`: `reward.txt` holds a number, `reward.json`
 * an object with a numeric `reward` (else its first numeric value). Undefined when neither exists.
 */
export function readRewardFile(logsDir: string): number | undefined {
	const text = join(logsDir, "verifier", "reward.txt");
	if (existsSync(text)) {
		const value = Number(readFileSync(text, "utf8").trim());
		if (!Number.isFinite(value)) throw new Error(`reward.txt does not hold a number`);
		return value;
	}
	const json = join(logsDir, "verifier", "reward.json");
	if (!existsSync(json)) return undefined;
	const parsed = JSON.parse(readFileSync(json, "utf8")) as unknown;
	if (typeof parsed === "number") return parsed;
	if (parsed !== null && typeof parsed === "object") {
		const record = parsed as Record<string, unknown>;
		const value = typeof record.reward === "number" ? record.reward : Object.values(record).find(Number.isFinite);
		if (typeof value === "number") return value;
	}
	throw new Error("reward.json holds no numeric reward");
}
