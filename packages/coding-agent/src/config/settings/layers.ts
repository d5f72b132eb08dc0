import { toError } from "../../core/errors.js";
import { parseJsonFile } from "../fs/json-file.js";
import { isPlainObject, stripBom } from "../fs/json-text.js";
import { USER_ONLY_KEYS } from "./defaults.js";
import { mergeSettings } from "./merge.js";
import { migrateSettings } from "./migrate.js";
import type { SettingsStorage } from "./storage.js";
import type { Settings, SettingsError, SettingsScope } from "./types.js";

export interface SettingsLayersOptions {
	projectTrusted?: boolean;
	/** How long `flush()` keeps retrying a write that lost the lock race (default 5 s). */
	writeRetryDeadlineMs?: number;
}

const DEFAULT_WRITE_RETRY_DEADLINE_MS = 5000;
const WRITE_RETRY_INTERVAL_MS = 20;
const SCOPES: readonly SettingsScope[] = ["global", "project"];
const UNTRUSTED_PROJECT_WRITE = "Project is not trusted; refusing to write project settings";

/** In-memory state of one settings file. */
interface Layer {
	settings: Settings;
	loadError?: Error;
	/** Top-level fields changed in memory and not yet written. */
	modified: Set<string>;
	/** Per object-valued field, the nested keys changed (one level of precision). */
	nested: Map<string, Set<string>>;
	/** The last write of this layer failed and its fields are still pending. */
	writeError?: Error;
	saveSeq: number;
}

/**
 * Parses settings text: missing/empty is `{}`; a non-object top level is an error. A syntax error
 * names `path`, line and column.
 */
export function parseSettingsText(text: string | undefined, path = "settings.json"): Settings {
	if (text === undefined) return {};
	if (stripBom(text).trim() === "") return {};
	const parsed = parseJsonFile(path, text);
	if (!isPlainObject(parsed)) throw new Error("expected a JSON object");
	return migrateSettings(parsed);
}

/**
 * The layer machinery behind `SettingsManager`: loading with diagnostics, merging, trust gating,
 * and field-wise write-back through a serial queue under the storage lock.
 */
export class SettingsLayers {
	private readonly layers: Record<SettingsScope, Layer> = { global: emptyLayer(), project: emptyLayer() };
	private effective: Settings = {};
	private overrides: Settings[] = [];
	private errors: SettingsError[] = [];
	private writeQueue: Promise<void> = Promise.resolve();
	private projectTrusted: boolean;
	private readonly writeRetryDeadlineMs: number;

	protected constructor(
		private readonly storage: SettingsStorage,
		options: SettingsLayersOptions = {},
	) {
		this.projectTrusted = options.projectTrusted ?? true;
		this.writeRetryDeadlineMs = options.writeRetryDeadlineMs ?? DEFAULT_WRITE_RETRY_DEADLINE_MS;
		this.loadLayer("global");
		this.loadLayer("project");
		this.recompute();
	}

	/** Deep copy of the effective (merged) settings. */
	getSettings(): Settings {
		return structuredClone(this.effective);
	}

	getGlobalSettings(): Settings {
		return structuredClone(this.layers.global.settings);
	}

	getProjectSettings(): Settings {
		return structuredClone(this.layers.project.settings);
	}

	/** The load error of a layer, if its file could not be read or parsed. */
	getLoadError(scope: SettingsScope): Error | undefined {
		return this.layers[scope].loadError;
	}

	/** Runtime-only overrides (e.g. `--use-theme`): merged into the effective view, never written, dropped by `reload()`. */
	applyOverrides(partial: Settings): void {
		this.overrides.push(structuredClone(partial));
		this.recompute();
	}

	isProjectTrusted(): boolean {
		return this.projectTrusted;
	}

	setProjectTrusted(trusted: boolean): void {
		if (trusted === this.projectTrusted) return;
		this.projectTrusted = trusted;
		const project = this.layers.project;
		project.modified.clear();
		project.nested.clear();
		project.writeError = undefined;
		if (trusted) {
			this.loadLayer("project");
		} else {
			project.settings = {};
			project.loadError = undefined;
		}
		this.recompute();
	}

	/** Returns and clears the accumulated errors (load failures, failed writes). */
	drainErrors(): SettingsError[] {
		const drained = this.errors;
		this.errors = [];
		for (const scope of SCOPES) {
			const layer = this.layers[scope];
			if (layer.writeError) drained.push(this.errorOf(scope, layer.writeError));
			layer.writeError = undefined;
		}
		return drained;
	}

	/**
	 * Waits for queued writes. A write that lost the lock race is retried until it lands or the
	 * retry deadline passes, so the last setter before exit is not lost.
	 */
	async flush(): Promise<void> {
		await this.writeQueue;
		const deadline = Date.now() + this.writeRetryDeadlineMs;
		for (const scope of SCOPES) {
			const layer = this.layers[scope];
			while (layer.writeError && layer.modified.size > 0 && Date.now() < deadline) {
				await new Promise((resolve) => setTimeout(resolve, WRITE_RETRY_INTERVAL_MS));
				this.enqueueWrite(scope);
				await this.writeQueue;
			}
		}
	}

	/** Waits for queued writes, then re-reads both layers; a failed read keeps the previous values. */
	async reload(): Promise<void> {
		await this.writeQueue;
		this.overrides = [];
		for (const scope of SCOPES) {
			const layer = this.layers[scope];
			const previous = layer.settings;
			this.loadLayer(scope);
			if (layer.loadError) layer.settings = previous;
			layer.modified.clear();
			layer.nested.clear();
		}
		this.recompute();
	}

	/** Reads a user-layer-only value. */
	protected globalValue<K extends keyof Settings>(key: K): Settings[K] {
		return this.layers.global.settings[key];
	}

	protected value<K extends keyof Settings>(key: K): Settings[K] {
		return this.effective[key];
	}

	/** Sets a top-level field of the user layer (undefined removes it) and saves. */
	protected setGlobalField(field: string, value: unknown): void {
		this.layers.global.settings[field] = value;
		this.layers.global.modified.add(field);
		this.save("global");
	}

	/** Sets several top-level user fields in one save. */
	protected setGlobalFields(fields: Record<string, unknown>): void {
		for (const [field, value] of Object.entries(fields)) {
			this.layers.global.settings[field] = value;
			this.layers.global.modified.add(field);
		}
		this.save("global");
	}

	/** Sets `field.key` of the user layer, tracking the nested key so other keys on disk survive. */
	protected setGlobalNested(field: string, key: string, value: unknown): void {
		const layer = this.layers.global;
		const current = layer.settings[field];
		const object: Record<string, unknown> = isPlainObject(current) ? current : {};
		object[key] = value;
		layer.settings[field] = object;
		layer.modified.add(field);
		let keys = layer.nested.get(field);
		if (!keys) {
			keys = new Set();
			layer.nested.set(field, keys);
		}
		keys.add(key);
		this.save("global");
	}

	/** Changes one project field; only allowed while the project is trusted. */
	protected updateProjectSettings(field: string, update: (current: unknown) => unknown): void {
		this.assertProjectTrusted();
		const layer = this.layers.project;
		const settings = structuredClone(layer.settings);
		settings[field] = update(settings[field]);
		layer.settings = settings;
		layer.modified.add(field);
		this.save("project");
	}

	private assertProjectTrusted(): void {
		if (!this.projectTrusted) throw new Error(UNTRUSTED_PROJECT_WRITE);
	}

	private save(scope: SettingsScope): void {
		this.recompute();
		// A file that failed to load is never replaced by `{}` plus one field.
		if (this.layers[scope].loadError) return;
		this.enqueueWrite(scope);
	}

	private enqueueWrite(scope: SettingsScope): void {
		const layer = this.layers[scope];
		const snapshot = structuredClone(layer.settings);
		const fields = new Set(layer.modified);
		const nested = new Map([...layer.nested].map(([field, keys]) => [field, new Set(keys)]));
		const seq = ++layer.saveSeq;
		this.writeQueue = this.writeQueue.then(() => this.writeLayer(scope, snapshot, fields, nested, seq));
	}

	private writeLayer(
		scope: SettingsScope,
		snapshot: Settings,
		fields: Set<string>,
		nested: Map<string, Set<string>>,
		seq: number,
	): void {
		const layer = this.layers[scope];
		if (scope === "project" && !this.projectTrusted) {
			// Trust was revoked after the setter: drop the write instead of retrying it.
			this.errors.push(this.errorOf(scope, new Error(UNTRUSTED_PROJECT_WRITE)));
			return;
		}
		try {
			this.storage.withLock(scope, (current) => {
				const onDisk = parseSettingsText(current, this.pathOf(scope));
				const merged: Record<string, unknown> = { ...onDisk };
				for (const field of fields) {
					const keys = nested.get(field);
					const value = snapshot[field];
					if (keys && isPlainObject(value)) {
						const base = onDisk[field];
						const object: Record<string, unknown> = isPlainObject(base) ? { ...base } : {};
						for (const key of keys) object[key] = value[key];
						merged[field] = object;
					} else {
						merged[field] = value;
					}
				}
				return `${JSON.stringify(merged, null, 2)}\n`;
			});
			layer.writeError = undefined;
			// Later saves carry these fields too; only the newest one may forget them.
			if (seq === layer.saveSeq) {
				layer.modified.clear();
				layer.nested.clear();
			}
		} catch (error) {
			for (const field of fields) layer.modified.add(field);
			for (const [field, keys] of nested) {
				const pending = layer.nested.get(field) ?? new Set<string>();
				for (const key of keys) pending.add(key);
				layer.nested.set(field, pending);
			}
			layer.writeError = toError(error);
		}
	}

	private loadLayer(scope: SettingsScope): void {
		const layer = this.layers[scope];
		layer.loadError = undefined;
		if (scope === "project" && !this.projectTrusted) {
			layer.settings = {};
			return;
		}
		try {
			let text: string | undefined;
			this.storage.withLock(scope, (current) => {
				text = current;
				return undefined;
			});
			layer.settings = parseSettingsText(text, this.pathOf(scope));
		} catch (error) {
			layer.settings = {};
			layer.loadError = toError(error);
			this.errors.push(this.errorOf(scope, layer.loadError));
		}
	}

	private pathOf(scope: SettingsScope): string {
		return this.storage.pathOf?.(scope) ?? `${scope} settings.json`;
	}

	private errorOf(scope: SettingsScope, error: Error): SettingsError {
		const path = this.storage.pathOf?.(scope);
		return path === undefined ? { scope, error } : { scope, path, error };
	}

	private recompute(): void {
		let effective = mergeSettings(this.layers.global.settings, this.layers.project.settings);
		for (const override of this.overrides) effective = mergeSettings(effective, override);
		for (const key of USER_ONLY_KEYS) {
			const value = this.layers.global.settings[key];
			if (value === undefined) delete effective[key];
			else effective[key] = value;
		}
		this.effective = structuredClone(effective);
	}
}

function emptyLayer(): Layer {
	return { settings: {}, modified: new Set(), nested: new Map(), saveSeq: 0 };
}
