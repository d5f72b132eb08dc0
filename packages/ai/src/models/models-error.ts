/** What kind of failure a `ModelsError` is: model source, validation, provider, stream, auth or OAuth. */
export type ModelsErrorCode = "model_source" | "model_validation" | "provider" | "stream" | "auth" | "oauth";

/** A failure of a non-stream `Models` operation; request paths turn the same failures into error events. */
export class ModelsError extends Error {
	override readonly name = "ModelsError";

	constructor(
		readonly code: ModelsErrorCode,
		message: string,
		options?: { cause?: unknown },
	) {
		super(message, options);
	}
}
