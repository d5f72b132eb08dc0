/** Any value that survives `JSON.parse(JSON.stringify(x))` unchanged. */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;

/** A JSON object: string keys, JSON values. */
export type JsonObject = { [key: string]: JsonValue };

/**
 * Compile-time check that `T` is representable as JSON: resolves to `T` when it is, to `never` otherwise.
 * Functions, symbols, bigints and class-like members are rejected; `undefined` properties are allowed
 * because JSON serialization simply drops them.
 */
export type JsonRepresentation<T> = T extends null | boolean | number | string
	? T
	: T extends bigint | symbol | ((...args: never[]) => unknown)
		? never
		: T extends readonly (infer E)[]
			? JsonRepresentation<E> extends never
				? never
				: T
			: T extends object
				? { [K in keyof T]: undefined extends T[K] ? T[K] : JsonRepresentation<T[K]> } extends T
					? T
					: never
				: never;
