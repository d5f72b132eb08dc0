import type { AnyModel, ClassifierContext, ImagesContext, Usage } from "@tau/ai";
import { addUsage, getModelType } from "@tau/ai";
import type { CodemodeTool } from "@tau/codemode";
import type { ModelRegistry } from "../../config/index.js";
import type { CallRows } from "./nested-tools.js";

/** At most this many `classify`/`generateImages` calls run at once per script; the rest queue. */
export const MAX_CONCURRENT_MODEL_CALLS = 4;
const MODEL_TYPES = ["chat", "image", "classifier"] as const;
type ModelKind = (typeof MODEL_TYPES)[number];

interface MediaResult {
	stopReason: "stop" | "error" | "aborted";
	errorMessage?: string;
	usage?: Usage;
	output?: { type: string }[];
}

/** The media calls a registry may offer; a host without them reports failures as results. */
interface MediaRegistry {
	classify?(model: AnyModel, context: ClassifierContext, options?: { signal?: AbortSignal }): Promise<MediaResult>;
	generateImages?(model: AnyModel, context: ImagesContext, options?: { signal?: AbortSignal }): Promise<MediaResult>;
}

/** Usage and generated images of the model calls of one script. */
export class ModelCallTally {
	usage: Usage | undefined;
	generatedImages = 0;

	add(usage: Usage | undefined): void {
		if (!usage) return;
		this.usage = addUsage(this.usage, usage);
	}
}

/** A model as scripts see it: everything but `headers` (credentials never enter the VM). */
function modelInfo(model: AnyModel): Record<string, unknown> {
	const { headers: _headers, ...info } = model as AnyModel & { headers?: unknown };
	return { ...info, type: getModelType(model) };
}

function modelKind(value: unknown, method: string): ModelKind {
	if (typeof value !== "string" || !(MODEL_TYPES as readonly string[]).includes(value)) {
		throw new Error(`models.${method}: type must be one of "chat", "image", "classifier"`);
	}
	return value as ModelKind;
}

function optionalProvider(value: unknown, method: string): string | undefined {
	if (value !== undefined && value !== null && typeof value !== "string") {
		throw new Error(`models.${method}: provider must be a string`);
	}
	return value ?? undefined;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

function validateImages(images: unknown, field: string): void {
	if (!Array.isArray(images)) throw new Error(`${field} must be an array of { type: "image", data, mimeType } blocks`);
	images.forEach((block, i) => {
		if (
			!isPlainObject(block) ||
			block.type !== "image" ||
			typeof block.data !== "string" ||
			typeof block.mimeType !== "string"
		) {
			throw new Error(`${field}[${i}] must be { type: "image", data: string, mimeType: string }`);
		}
	});
}

/** Throws with the bad field and the expected shape. */
export function validateClassifierContext(context: unknown): asserts context is ClassifierContext {
	if (!isPlainObject(context)) throw new Error("models.classify: context must be { state, questions, images? }");
	if (!isPlainObject(context.state)) throw new Error("models.classify: context.state must be a JSON object");
	if (!isPlainObject(context.questions) || Object.keys(context.questions).length === 0) {
		throw new Error("models.classify: context.questions must be a non-empty object of questions");
	}
	for (const [key, question] of Object.entries(context.questions)) {
		const field = `models.classify: context.questions.${key}`;
		if (!isPlainObject(question) || typeof question.instructions !== "string") {
			throw new Error(`${field} must be { type, instructions: string, criteria }`);
		}
		const { type, criteria } = question;
		const ok =
			(type === "choice" &&
				isPlainObject(criteria) &&
				Object.values(criteria).every((v) => typeof v === "string")) ||
			(type === "score" && Array.isArray(criteria) && criteria.every((v) => typeof v === "string")) ||
			(type === "bool" &&
				isPlainObject(criteria) &&
				typeof criteria.true === "string" &&
				typeof criteria.false === "string");
		if (!ok) {
			throw new Error(
				`${field}: expected type "choice" with criteria Record<string, string>, "score" with criteria string[], or "bool" with criteria { true, false }`,
			);
		}
	}
	if (context.images !== undefined) validateImages(context.images, "models.classify: context.images");
}

export function validateImagesContext(context: unknown): asserts context is ImagesContext {
	if (!isPlainObject(context) || !Array.isArray(context.input)) {
		throw new Error(
			'models.generateImages: context must be { input: ({ type: "text", text } | { type: "image", data, mimeType })[] }',
		);
	}
	context.input.forEach((block, i) => {
		const text = isPlainObject(block) && block.type === "text" && typeof block.text === "string";
		const image =
			isPlainObject(block) &&
			block.type === "image" &&
			typeof block.data === "string" &&
			typeof block.mimeType === "string";
		if (!text && !image) throw new Error(`models.generateImages: context.input[${i}] must be a text or image block`);
	});
}

/** A FIFO limit on concurrent calls. */
class CallLimit {
	private running = 0;
	private readonly queue: (() => void)[] = [];

	constructor(private readonly max: number) {}

	async run<T>(fn: () => Promise<T>): Promise<T> {
		if (this.running >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
		this.running++;
		try {
			return await fn();
		} finally {
			this.running--;
			this.queue.shift()?.();
		}
	}
}

/** `models.*` members over the session's model registry (B.6). */
export function modelsGlobals(
	registry: ModelRegistry,
	rows: CallRows,
	parentId: string,
	tally: ModelCallTally,
): Record<string, CodemodeTool["execute"]> {
	const limit = new CallLimit(MAX_CONCURRENT_MODEL_CALLS);
	const counters = { classify: 0, generateImages: 0 };
	const media = registry as unknown as MediaRegistry;

	const resolve = (ref: unknown, method: string, wanted: ModelKind): AnyModel => {
		if (!isPlainObject(ref) || typeof ref.provider !== "string" || typeof ref.id !== "string") {
			throw new Error(`models.${method}: model must be { provider: string, id: string }`);
		}
		const model = registry.find(ref.provider, ref.id) as AnyModel | undefined;
		if (!model) throw new Error(`models.${method}: unknown model ${ref.provider}/${ref.id}`);
		const kind = getModelType(model);
		if (kind !== wanted) {
			throw new Error(`models.${method}: ${ref.provider}/${ref.id} is a ${kind} model, not a ${wanted} model`);
		}
		return model;
	};

	const runMedia = (method: "classify" | "generateImages", model: AnyModel, context: unknown, signal: AbortSignal) => {
		const row = rows.start(
			`${parentId}/models.${method}/${++counters[method]}`,
			`models.${method}`,
			`${model.provider}/${model.id}`,
		);
		const startedAt = performance.now();
		return limit.run(async () => {
			const call = media[method];
			const result: MediaResult = call
				? await call.call(registry, model, context as never, { signal })
				: { stopReason: "error", errorMessage: `This host cannot run ${method} models` };
			tally.add(result.usage);
			if (result.usage) row.cost = result.usage.cost.total;
			if (method === "generateImages")
				tally.generatedImages += (result.output ?? []).filter((b) => b.type === "image").length;
			rows.finish(row, result.stopReason === "stop" ? "ok" : "error", startedAt, result.errorMessage);
			return result;
		});
	};

	return {
		getModelsOfType: (args) => {
			const [type, provider] = args as unknown[];
			const kind = modelKind(type, "getModelsOfType");
			const p = optionalProvider(provider, "getModelsOfType");
			return (registry.getAll() as AnyModel[])
				.filter((m) => getModelType(m) === kind && (p === undefined || m.provider === p))
				.map(modelInfo);
		},
		getAvailableOfType: (args) => {
			const [type, provider] = args as unknown[];
			const kind = modelKind(type, "getAvailableOfType");
			const p = optionalProvider(provider, "getAvailableOfType");
			return (registry.getAvailable() as AnyModel[])
				.filter((m) => getModelType(m) === kind && (p === undefined || m.provider === p))
				.map(modelInfo);
		},
		getModelOfType: (args) => {
			const [type, provider, id] = args as unknown[];
			const kind = modelKind(type, "getModelOfType");
			if (typeof provider !== "string" || typeof id !== "string") {
				throw new Error("models.getModelOfType: provider and id must be strings");
			}
			const model = registry.find(provider, id) as AnyModel | undefined;
			return model && getModelType(model) === kind ? modelInfo(model) : undefined;
		},
		classify: (args, { signal }) => {
			const [ref, context] = args as unknown[];
			const model = resolve(ref, "classify", "classifier");
			validateClassifierContext(context);
			return runMedia("classify", model, context, signal);
		},
		generateImages: (args, { signal }) => {
			const [ref, context] = args as unknown[];
			const model = resolve(ref, "generateImages", "image");
			validateImagesContext(context);
			return runMedia("generateImages", model, context, signal);
		},
	};
}
