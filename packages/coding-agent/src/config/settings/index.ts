export { applyToolModifiers, getToolListError, isToolModifier } from "./default-tools.js";
export {
	CACHE_WARMING_MODES,
	DEFAULT_COMPACTION_SETTINGS,
	DEFAULT_TOOL_NAMES,
	SETTINGS_DEFAULTS,
	USER_ONLY_KEYS,
} from "./defaults.js";
export { collectSettingsDiagnostics, formatSettingsWarning, type SettingsDiagnostic } from "./diagnostics.js";
export { parseSettingsText, type SettingsLayersOptions } from "./layers.js";
export { SettingsManager } from "./manager.js";
export { mergeSettings } from "./merge.js";
export { migrateSettings } from "./migrate.js";
export { type ResourceKind, resolveResourceEntries, type ScopedResourceEntry } from "./resource-paths.js";
export { FileSettingsStorage, InMemorySettingsStorage, type SettingsStorage } from "./storage.js";
export type * from "./types.js";
