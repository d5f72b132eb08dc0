import type { Model, ModelThinkingLevel } from "@tau/ai";
import { defaultModelIdFor } from "./default-models.js";
import { isThinkingLevel, resolveModelReference } from "./model-reference.js";

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
	models: readonly Model[];
	usable: (providerId: string) => boolean;
}

export interface CliModelSelection {
	model: Model;
	/** From a `:level` suffix (only when `--thinking` was not given). */
	thinkingLevel?: ModelThinkingLevel;
	warnings: string[];
}

/** Resolves `--model`/`--provider`; returns undefined without `--model`, throws user-facing errors. */
export function resolveCliModel(input: CliModelInput): CliModelSelection | undefined {
	const { models } = input;
	if (!input.model) {
		if (input.provider) {
			throw new Error("--provider requires --model (for example: --provider <name> --model <pattern>)");
		}
		if (input.hasApiKey && !input.hasScope) {
			throw new Error("--api-key requires a model to be specified via --model, --provider/--model, or --models");
		}
		return undefined;
	}
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

/** A custom model cloned from the provider's default (or first) model, for an id the catalog lacks. */
function customModel(provider: string, requestedId: string, input: CliModelInput): CliModelSelection {
	const ofProvider = input.models.filter((model) => model.provider === provider);
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
