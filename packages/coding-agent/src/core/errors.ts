/** The message of anything thrown: an `Error`'s message, anything else as a string. */
export function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Anything thrown as an `Error` (a non-`Error` becomes the message of a new one). */
export function toError(error: unknown): Error {
	return error instanceof Error ? error : new Error(String(error));
}
