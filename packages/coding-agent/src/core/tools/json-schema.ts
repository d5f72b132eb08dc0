import type { TSchema } from "typebox";

/**
 * A plain JSON Schema literal typed as the TypeBox schema it is equivalent to: `Static<>` still
 * derives the parameter type, while the `typebox` runtime (over 100 ms to load) stays out of
 * startup. Validation loads it lazily on the first tool call.
 */
export function jsonSchema<T extends TSchema>(schema: Record<string, unknown>): T {
	return schema as unknown as T;
}
