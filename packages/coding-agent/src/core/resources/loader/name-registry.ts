import type { ResourceDiagnostic, ResourceType } from "../types.js";
import { pathKey } from "./path-key.js";

/**
 * First-wins registry of named resources. The same file reached twice (a symlink, a duplicate
 * entry) is skipped silently; a different file with a taken name gets a collision diagnostic.
 */
export class NameRegistry<T> {
	readonly diagnostics: ResourceDiagnostic[] = [];
	private readonly byName = new Map<string, { path: string; value: T }>();
	private readonly seenFiles = new Set<string>();

	constructor(
		private readonly resourceType: ResourceType,
		private readonly collisionMessage: (name: string) => string = (name) => `name "${name}" collision`,
	) {}

	/** Adds a resource; returns false when it lost (duplicate file or name collision). */
	add(name: string, path: string, value: T): boolean {
		const key = pathKey(path);
		if (this.seenFiles.has(key)) return false;
		this.seenFiles.add(key);
		const winner = this.byName.get(name);
		if (winner) {
			this.diagnostics.push({
				type: "collision",
				message: this.collisionMessage(name),
				path,
				collision: { resourceType: this.resourceType, name, winnerPath: winner.path, loserPath: path },
			});
			return false;
		}
		this.byName.set(name, { path, value });
		return true;
	}

	values(): T[] {
		return [...this.byName.values()].map((entry) => entry.value);
	}
}
