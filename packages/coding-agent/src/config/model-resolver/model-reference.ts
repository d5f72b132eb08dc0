import type { Model, ModelThinkingLevel } from "@tau/ai";

export const MODEL_THINKING_LEVEL_NAMES: readonly ModelThinkingLevel[] = [
	"off",
	"minimal",
	"low",
	"medium",
	"high",
	"xhigh",
	"max",
];

export function isThinkingLevel(value: string): value is ModelThinkingLevel {
	return (MODEL_THINKING_LEVEL_NAMES as readonly string[]).includes(value);
}

/** How a `:level` suffix is treated: `--model` (strict), scope patterns (lenient), exact lookups (none). */
export type ThinkingSuffixMode = "strict" | "lenient" | "none";

export interface ModelReferenceOptions {
	/** `--provider`: restricts the pool to one provider (case-insensitive). */
	provider?: string;
	thinkingSuffix: ThinkingSuffixMode;
	fuzzy: boolean;
	/** Whether a provider has configured auth. */
	usable: (providerId: string) => boolean;
}

export type ModelReferenceResult =
	| { kind: "resolved"; model: Model; thinkingLevel?: ModelThinkingLevel; warning?: string }
	| { kind: "ambiguous"; candidates: Model[] }
	| { kind: "not-found"; target?: { provider: string; id: string }; warning?: string };

const sameText = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Splits a known provider id (the longest, case-insensitive, ids may contain `/`) off `text`. */
export function splitProviderPrefix(
	text: string,
	providerIds: Iterable<string>,
): { provider: string; rest: string } | undefined {
	let best: string | undefined;
	for (const id of providerIds) {
		if (text.length > id.length && text[id.length] === "/" && sameText(text.slice(0, id.length), id)) {
			if (!best || id.length > best.length) best = id;
		}
	}
	return best === undefined ? undefined : { provider: best, rest: text.slice(best.length + 1) };
}

/** An alias is an id ending in `-latest` or not ending in a `-YYYYMMDD` date. */
function isAlias(id: string): boolean {
	return id.endsWith("-latest") || !/-\d{8}$/.test(id);
}

/** Aliases first, then reverse lexicographic id (newest first). */
function compareFuzzy(a: Model, b: Model): number {
	const alias = Number(isAlias(b.id)) - Number(isAlias(a.id));
	if (alias !== 0) return alias;
	return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}

function fuzzyMatches(pool: readonly Model[], text: string): Model[] {
	const needle = text.toLowerCase();
	return pool.filter((model) => model.id.toLowerCase().includes(needle) || model.name.toLowerCase().includes(needle));
}

/** Resolves `[provider/]pattern[:thinking]` against all models (not only available ones). */
export function resolveModelReference(
	text: string,
	models: readonly Model[],
	options: ModelReferenceOptions,
): ModelReferenceResult {
	const pool = options.provider ? models.filter((model) => sameText(model.provider, options.provider!)) : [...models];
	const providerIds = new Set(models.map((model) => model.provider));
	const direct = selectReference(text, pool, providerIds, options);
	if (direct) return direct;

	const colon = text.lastIndexOf(":");
	if (colon > 0) {
		const suffix = text.slice(colon + 1);
		const inner = text.slice(0, colon);
		if (isThinkingLevel(suffix) && options.thinkingSuffix !== "none") {
			const resolved = resolveModelReference(inner, models, options);
			if (resolved.kind !== "resolved")
				return resolved.kind === "ambiguous" ? resolved : notFound(text, providerIds, options);
			return resolved.warning ? resolved : { ...resolved, thinkingLevel: suffix };
		}
		if (options.thinkingSuffix === "lenient") {
			const resolved = resolveModelReference(inner, models, { ...options, thinkingSuffix: "none" });
			const warning = `Invalid thinking level "${suffix}" in pattern "${text}". Using default instead.`;
			if (resolved.kind === "resolved") return { ...resolved, warning };
			if (resolved.kind === "not-found") return { ...resolved, warning };
			return resolved;
		}
	}
	return notFound(text, providerIds, options);
}

function notFound(text: string, providerIds: Set<string>, options: ModelReferenceOptions): ModelReferenceResult {
	if (options.provider) return { kind: "not-found", target: { provider: options.provider, id: text } };
	const prefix = splitProviderPrefix(text, providerIds);
	return prefix
		? { kind: "not-found", target: { provider: prefix.provider, id: prefix.rest } }
		: { kind: "not-found" };
}

function selectReference(
	text: string,
	pool: readonly Model[],
	providerIds: Set<string>,
	options: ModelReferenceOptions,
): ModelReferenceResult | undefined {
	const raw = pool.filter((model) => sameText(model.id, text));
	let named: Model | undefined;
	const prefix = splitProviderPrefix(text, providerIds);
	if (prefix) {
		const ofProvider = pool.filter((model) => model.provider === prefix.provider);
		named =
			ofProvider.find((model) => sameText(model.id, prefix.rest)) ??
			raw.find((model) => model.provider === prefix.provider) ??
			(options.fuzzy ? fuzzyMatches(ofProvider, prefix.rest).sort(compareFuzzy)[0] : undefined);
	}
	const candidates = named ? [named, ...raw.filter((model) => model !== named)] : raw;
	if (candidates.length > 0) {
		if (candidates.every((model) => model.provider === candidates[0]!.provider)) {
			return { kind: "resolved", model: candidates[0]! };
		}
		if (named && options.usable(named.provider)) return { kind: "resolved", model: named };
		const usableOthers = candidates.filter((model) => model !== named && options.usable(model.provider));
		if (usableOthers.length === 1) return { kind: "resolved", model: usableOthers[0]! };
		if (usableOthers.length === 0 && named) return { kind: "resolved", model: named };
		return { kind: "ambiguous", candidates };
	}
	if (!options.fuzzy) return undefined;
	let matches = fuzzyMatches(pool, text);
	if (matches.length === 0) return undefined;
	if (new Set(matches.map((model) => model.provider)).size > 1) {
		const usable = matches.filter((model) => options.usable(model.provider));
		if (usable.length > 0) matches = usable;
	}
	const best = [...matches].sort(compareFuzzy)[0]!;
	const sameId = matches.filter((model) => model.id === best.id);
	if (new Set(sameId.map((model) => model.provider)).size > 1) return { kind: "ambiguous", candidates: sameId };
	return { kind: "resolved", model: best };
}

/** Exact `provider/id` or bare id (no suffix, no fuzzy); only an unambiguous match resolves. */
export function findExactModelReferenceMatch(reference: string, models: readonly Model[]): Model | undefined {
	const result = resolveModelReference(reference, models, {
		thinkingSuffix: "none",
		fuzzy: false,
		usable: () => false,
	});
	return result.kind === "resolved" ? result.model : undefined;
}
