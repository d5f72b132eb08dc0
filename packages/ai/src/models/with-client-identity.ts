import { mergeClientIdentity } from "../identity/client-identity.js";
import type { ClientIdentity } from "../types/identity.js";
import type { Models, MutableModels } from "../types/provider.js";

/** Request methods; each takes its options (carrying an identity) as the third argument. */
const REQUEST_METHODS = new Set([
	"stream",
	"complete",
	"streamSimple",
	"completeSimple",
	"streamDeferred",
	"fetchDeferred",
	"cancelDeferred",
	"generateImages",
	"classify",
]);
const OPTIONS_ARGUMENT = 2;

/** A delegating view of `models` whose requests merge `identity` under each request's own identity. */
export function withClientIdentity<T extends Models | MutableModels>(models: T, identity: ClientIdentity): T {
	return new Proxy(models, {
		get(target, property, receiver) {
			const value = Reflect.get(target, property, receiver);
			if (typeof value !== "function") return value;
			if (typeof property !== "string" || !REQUEST_METHODS.has(property)) return value.bind(target);
			return (...args: unknown[]) => {
				const options = (args[OPTIONS_ARGUMENT] ?? {}) as { identity?: ClientIdentity };
				const merged = mergeClientIdentity(identity, options.identity);
				args[OPTIONS_ARGUMENT] = { ...options, ...(merged ? { identity: merged } : {}) };
				return value.apply(target, args);
			};
		},
	});
}
