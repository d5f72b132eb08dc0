import type { Model } from "@tau/ai";
import { APP_NAME } from "../config/app-identity.js";

/** What to do when no model can be used: keys, local servers, or the offline demo (docs/design/cli.md#offline-demo). */
export const NO_MODELS_GUIDANCE = [
	"No models available.",
	"Set an API key in the environment (for example ANTHROPIC_API_KEY or OPENAI_API_KEY),",
	`or add a provider (an API key or a local server) to models.json in the agent directory (${APP_NAME} --help lists it).`,
	`To try ${APP_NAME} without any key or network: ${APP_NAME} --offline-demo -p "look around"`,
].join("\n");

/** `200000` → `200K`, `1000000` → `1M`, `1500` → `1.5K`. */
export function formatTokenCount(count: number): string {
	const scaled = (value: number, suffix: string) =>
		`${Number.isInteger(value) ? value.toString() : value.toFixed(1)}${suffix}`;
	if (count >= 1_000_000) return scaled(count / 1_000_000, "M");
	if (count >= 1_000) return scaled(count / 1_000, "K");
	return count.toString();
}

/** Case-insensitive subsequence match of every search word against `<provider> <id>`. */
function fuzzyMatches(search: string, text: string): boolean {
	const haystack = text.toLowerCase();
	return search
		.toLowerCase()
		.split(/\s+/)
		.filter((word) => word !== "")
		.every((word) => {
			let at = 0;
			for (const char of word) {
				at = haystack.indexOf(char, at);
				if (at === -1) return false;
				at++;
			}
			return true;
		});
}

/** The `--list-models` output (docs/design/cli.md#listing-models): a padded table, or a message when nothing matches. */
export function renderModelList(models: readonly Model[], search?: string): string {
	if (models.length === 0) return `${NO_MODELS_GUIDANCE}\n`;
	const matching = search
		? models.filter((model) => fuzzyMatches(search, `${model.provider} ${model.id}`))
		: [...models];
	if (matching.length === 0) return `No models matching "${search}"\n`;
	matching.sort((a, b) => a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id));
	const rows = [
		["provider", "model", "context", "max-out", "thinking", "images"],
		...matching.map((model) => [
			model.provider,
			model.id,
			formatTokenCount(model.contextWindow),
			formatTokenCount(model.maxTokens),
			model.reasoning ? "yes" : "no",
			model.input.includes("image") ? "yes" : "no",
		]),
	];
	const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
	return `${rows
		.map((row) =>
			row
				.map((cell, column) => cell.padEnd(widths[column]!))
				.join("  ")
				.trimEnd(),
		)
		.join("\n")}\n`;
}
