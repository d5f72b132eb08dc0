import type { Model, ModelThinkingLevel } from "@tau/ai";
import { defaultModelIdFor } from "./default-models.js";
import { isThinkingLevel, resolveModelReference, splitProviderPrefix } from "./model-reference.js";

export interface CliModelInput {
	/** `--model` text. */
	model?: string;
	/** `--provider`. */
	provider?: string;
	/** `--thinking`, already validated. */
	thinking?: ModelThinkingLevel;
	/** `--api-key` was given: credentials must not choose the provider. */
	hasApiKey: boolean;
	/** `--models` was given (it can supply the model an `--api-key` belongs to). */
	hasScope?: boolean;
	/** Every model; called only when `--model` needs the whole catalog. */
	models: () => readonly Model[];
	usable: (providerId: string) => boolean;
	/**
	 * For `provider/id` references: the provider ids and a lookup of one model, so an exact reference to a
	 * configured provider resolves from that provider's catalog alone.
	 */
	catalog?: { providerIds(): readonly string[]; find(provider: string, id: string): Model | undefined };
}

export interface CliModelSelection {
	model: Model;
	/** From a `:level` suffix (only when `--thinking` was not given). */
	thinkingLevel?: ModelThinkingLevel;
	warnings: string[];
}

/** Resolves `--model`/`--provider`; returns undefined without `--model`, throws user-facing errors. */
export function resolveCliModel(input: CliModelInput): CliModelSelection | undefined {
	if (!input.model) {
		if (input.provider) {
			throw new Error("--provider requires --model (for example: --provider <name> --model <pattern>)");
		}
		if (input.hasApiKey && !input.hasScope) {
			throw new Error("--api-key requires a model to be specified via --model, --provider/--model, or --models");
		}
		return undefined;
	}
	const direct = exactProviderReference(input, input.model);
	if (direct) return direct;
	const models = input.models();
	if (models.length === 0)
		throw new Error("No models available. Check your installation or add models to models.json.");
	const providerIds = new Set(models.map((model) => model.provider));
	const provider = input.provider
		? [...providerIds].find((id) => id.toLowerCase() === input.provider!.toLowerCase())
		: undefined;
	if (input.provider && !provider) {
		throw new Error(`Unknown provider "${input.provider}". Use --list-models to see available providers/models.`);
	}
	const usable = input.hasApiKey ? () => false : input.usable;
	const result = resolveModelReference(input.model, models, {
		provider,
		thinkingSuffix: "strict",
		fuzzy: true,
		usable,
	});
	if (result.kind === "resolved") {
		const warnings = result.warning ? [result.warning] : [];
		const thinkingLevel = input.thinking === undefined ? result.thinkingLevel : undefined;
		return { model: result.model, thinkingLevel, warnings };
	}
	if (result.kind === "ambiguous") {
		const names = result.candidates.map((model) => `${model.provider}/${model.id}`).sort();
		const usableCount = result.candidates.filter((model) => usable(model.provider)).length;
		const hint = input.hasApiKey
			? "--api-key does not choose a provider."
			: usableCount === 0
				? "No matching provider is authenticated."
				: "More than one matching provider is authenticated.";
		throw new Error(
			`Model "${input.model}" is ambiguous: ${names.join(", ")}. ${hint} Use --provider or provider/model.`,
		);
	}
	if (result.target) return customModel(result.target.provider, result.target.id, input);
	throw new Error(`Model "${input.model}" not found. Use --list-models to see available models.`);
}

/**
 * `provider/id[:level]` naming a model of a provider with configured auth: the full resolution would pick
 * the same model (the named provider wins over others with that id when it is usable), so only that
 * provider's catalog is read.
 */
function exactProviderReference(input: CliModelInput, text: string): CliModelSelection | undefined {
	if (!input.catalog || input.provider || input.hasApiKey) return undefined;
	const colon = text.lastIndexOf(":");
	const suffix = colon > 0 ? text.slice(colon + 1) : "";
	const level = isThinkingLevel(suffix) ? suffix : undefined;
	const reference = level ? text.slice(0, colon) : text;
	const prefix = splitProviderPrefix(reference, input.catalog.providerIds());
	if (!prefix || !input.usable(prefix.provider)) return undefined;
	const model = input.catalog.find(prefix.provider, prefix.rest);
	if (!model) return undefined;
	return { model, thinkingLevel: input.thinking === undefined ? level : undefined, warnings: [] };
}

/** A custom model cloned from the provider's default (or first) model, for an id the catalog lacks. */
function customModel(provider: string, requestedId: string, input: CliModelInput): CliModelSelection {
	const ofProvider = input.models().filter((model) => model.provider === provider);
	const defaultId = defaultModelIdFor(provider);
	const template = ofProvider.find((model) => model.id === defaultId) ?? ofProvider[0]!;
	let id = requestedId;
	let thinkingLevel: ModelThinkingLevel | undefined;
	const colon = requestedId.lastIndexOf(":");
	const suffix = colon > 0 ? requestedId.slice(colon + 1) : "";
	if (input.thinking === undefined && isThinkingLevel(suffix)) {
		id = requestedId.slice(0, colon);
		thinkingLevel = suffix;
	}
	const requested = input.thinking ?? thinkingLevel;
	const model: Model = { ...template, id, name: id };
	if (requested !== undefined && requested !== "off") model.reasoning = true;
	return {
		model,
		thinkingLevel,
		warnings: [`Model "${id}" not found for provider "${provider}". Using custom model id.`],
	};
}
