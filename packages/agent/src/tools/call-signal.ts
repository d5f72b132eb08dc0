/** The per-call signals of one parent signal, all aborted by a single listener on the parent. */
interface Scope {
	children: Set<AbortController>;
	onAbort: () => void;
}

const scopes = new WeakMap<AbortSignal, Scope>();

/**
 * Runs `fn` with a signal of its own that aborts (with the same reason) when `parent` does. However
 * many calls run at once, `parent` carries one listener for all of them, removed when the last call
 * ends: a run's parallel tool calls never pile listeners onto the run's signal.
 */
export async function withCallSignal<T>(
	parent: AbortSignal | undefined,
	fn: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
	if (!parent) return fn(undefined);
	const controller = new AbortController();
	if (parent.aborted) {
		controller.abort(parent.reason);
		return fn(controller.signal);
	}
	let scope = scopes.get(parent);
	if (!scope) {
		const children = new Set<AbortController>();
		const onAbort = () => {
			scopes.delete(parent);
			for (const child of children) child.abort(parent.reason);
		};
		scope = { children, onAbort };
		scopes.set(parent, scope);
		parent.addEventListener("abort", onAbort, { once: true });
	}
	scope.children.add(controller);
	try {
		return await fn(controller.signal);
	} finally {
		scope.children.delete(controller);
		if (scope.children.size === 0 && scopes.get(parent) === scope) {
			scopes.delete(parent);
			parent.removeEventListener("abort", scope.onAbort);
		}
	}
}
