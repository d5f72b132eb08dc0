import type { ModelsStore, ModelsStoreEntry } from "@tau/ai";
import { FileAuthStorageBackend } from "../auth/backend.js";
import { isPlainObject, stripBom } from "../fs/json-text.js";

type StoreFile = Record<string, ModelsStoreEntry>;

function parseStore(text: string | undefined): StoreFile {
	if (text === undefined || stripBom(text).trim() === "") return {};
	const parsed: unknown = JSON.parse(stripBom(text));
	if (!isPlainObject(parsed)) throw new Error("Invalid models-store.json: expected an object");
	return parsed as StoreFile;
}

/**
 * `<agentDir>/models-store.json`: cached remote model catalogs for offline starts, one entry per
 * provider, written atomically under the same kind of lock as auth.json.
 */
export class FileModelsStore implements ModelsStore {
	private readonly file: FileAuthStorageBackend;

	constructor(path: string) {
		this.file = new FileAuthStorageBackend(path);
	}

	async read(providerId: string): Promise<ModelsStoreEntry | undefined> {
		return parseStore(this.file.readCurrent())[providerId];
	}

	async write(providerId: string, entry: ModelsStoreEntry, options: { signal?: AbortSignal } = {}): Promise<void> {
		await this.file.withLockAsync(async (text) => {
			const next = { ...parseStore(text), [providerId]: entry };
			return { result: undefined, next: JSON.stringify(next, null, 2) };
		}, options);
	}

	async delete(providerId: string, options: { signal?: AbortSignal } = {}): Promise<void> {
		await this.file.withLockAsync(async (text) => {
			const { [providerId]: _removed, ...rest } = parseStore(text);
			return { result: undefined, next: JSON.stringify(rest, null, 2) };
		}, options);
	}
}
