import { describeThrown } from "../stream/failure.js";
import type { AssistantImages, ClassifierResult } from "../types/media.js";
import type { AnyModel } from "../types/model.js";

function failureFields(error: unknown, signal: AbortSignal | undefined) {
	return {
		stopReason: signal?.aborted ? ("aborted" as const) : ("error" as const),
		errorMessage: describeThrown(error) || "Unknown error",
		timestamp: Date.now(),
	};
}

export function failedImages(model: AnyModel, error: unknown, signal?: AbortSignal): AssistantImages {
	return { api: model.api, provider: model.provider, model: model.id, output: [], ...failureFields(error, signal) };
}

export function failedClassification(model: AnyModel, error: unknown, signal?: AbortSignal): ClassifierResult {
	return { api: model.api, provider: model.provider, model: model.id, answers: {}, ...failureFields(error, signal) };
}

/** Runs a media request so that every failure becomes an error result instead of a rejection. */
export async function neverRejecting<T>(run: () => Promise<T>, fail: (error: unknown) => T): Promise<T> {
	try {
		return await run();
	} catch (error) {
		return fail(error);
	}
}
