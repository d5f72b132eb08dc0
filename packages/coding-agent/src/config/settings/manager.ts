import { randomUUID } from "node:crypto";
import { envName } from "../app-identity.js";
import { isPlainObject } from "../fs/json-text.js";
import { expandTilde, getAgentDir } from "../paths.js";
import { applyToolModifiers } from "./default-tools.js";
import {
	CACHE_WARMING_MODES,
	DOUBLE_ESCAPE_ACTIONS,
	PROJECT_TRUST_POLICIES,
	QUEUE_MODES,
	SETTINGS_DEFAULTS,
	THINKING_LEVELS,
	TRANSPORTS,
	TREE_FILTER_MODES,
} from "./defaults.js";
import { DisplaySettings } from "./display-settings.js";
import type { SettingsLayersOptions } from "./layers.js";
import {
	booleanOr,
	finiteNumberOr,
	oneOf,
	parseTimeoutSetting,
	parseTokenSetting,
	settingText,
	stringArray,
} from "./normalize.js";
import { FileSettingsStorage, InMemorySettingsStorage, type SettingsStorage } from "./storage.js";
import type {
	CacheWarmingMode,
	CompactionSettings,
	DoubleEscapeAction,
	ModelKey,
	PackageSource,
	ProjectTrustPolicy,
	ProviderRetrySettings,
	QueueMode,
	RetrySettings,
	SessionShareDestination,
	Settings,
	SettingsThinkingLevel,
	TransportSetting,
	TreeFilterMode,
} from "./types.js";

const D = SETTINGS_DEFAULTS;

type ResourceField = "extensions" | "skills" | "prompts" | "themes";

/** Typed access to user and project settings with defaults, normalization and write-back. */
export class SettingsManager extends DisplaySettings {
	static create(cwd: string, agentDir: string = getAgentDir(), options: SettingsLayersOptions = {}): SettingsManager {
		return new SettingsManager(new FileSettingsStorage(cwd, agentDir), options);
	}

	static fromStorage(storage: SettingsStorage, options: SettingsLayersOptions = {}): SettingsManager {
		return new SettingsManager(storage, options);
	}

	/** Everything runs unchanged, but nothing touches the disk (SDK and tests). */
	static inMemory(settings: Settings = {}, options: SettingsLayersOptions = {}): SettingsManager {
		const text = JSON.stringify(structuredClone(settings), null, 2);
		return new SettingsManager(new InMemorySettingsStorage(text), options);
	}

	// Model and thinking

	getDefaultProvider(): string | undefined {
		return stringOrUndefined(this.value("defaultProvider"));
	}
	setDefaultProvider(provider: string | undefined): void {
		this.setGlobalField("defaultProvider", provider);
	}
	getDefaultModel(): string | undefined {
		return stringOrUndefined(this.value("defaultModel"));
	}
	setDefaultModel(model: string | undefined): void {
		this.setGlobalField("defaultModel", model);
	}
	setDefaultModelAndProvider(provider: string, model: string): void {
		this.setGlobalFields({ defaultProvider: provider, defaultModel: model });
	}
	/** The raw configured level (undefined when unset; callers fall back to `medium`). */
	getDefaultThinkingLevel(): SettingsThinkingLevel | undefined {
		return this.value("defaultThinkingLevel");
	}
	setDefaultThinkingLevel(level: SettingsThinkingLevel | undefined): void {
		this.setGlobalField("defaultThinkingLevel", level);
	}
	getModelThinkingLevel(provider: string, id: string): SettingsThinkingLevel | undefined {
		const level = this.getAllModelThinkingLevels()[`${provider}/${id}`];
		return THINKING_LEVELS.includes(level as SettingsThinkingLevel) ? level : undefined;
	}
	getAllModelThinkingLevels(): Record<string, SettingsThinkingLevel> {
		const levels = this.value("modelThinkingLevels");
		return isPlainObject(levels) ? { ...(levels as Record<string, SettingsThinkingLevel>) } : {};
	}
	setModelThinkingLevel(provider: string, id: string, level: SettingsThinkingLevel): void {
		const levels = { ...this.globalLevels(), [`${provider}/${id}`]: level };
		this.setGlobalField("modelThinkingLevels", levels);
	}
	removeModelThinkingLevel(provider: string, id: string): void {
		const levels = this.globalLevels();
		delete levels[`${provider}/${id}`];
		this.setGlobalField("modelThinkingLevels", Object.keys(levels).length > 0 ? levels : undefined);
	}
	private globalLevels(): Record<string, SettingsThinkingLevel> {
		const levels = this.globalValue("modelThinkingLevels");
		return isPlainObject(levels) ? { ...(levels as Record<string, SettingsThinkingLevel>) } : {};
	}
	/** The configured budgets (levels left out use the provider defaults); undefined when unset, as in Pi. */
	getThinkingBudgets(): { minimal?: number; low?: number; medium?: number; high?: number } | undefined {
		const configured = this.value("thinkingBudgets");
		if (!isPlainObject(configured)) return undefined;
		const budgets: { minimal?: number; low?: number; medium?: number; high?: number } = {};
		for (const level of ["minimal", "low", "medium", "high"] as const) {
			const budget = configured[level];
			if (typeof budget === "number" && Number.isFinite(budget)) budgets[level] = budget;
		}
		return budgets;
	}
	getEnabledModels(): string[] | undefined {
		return stringArray(this.value("enabledModels"));
	}
	setEnabledModels(patterns: string[] | undefined): void {
		this.setGlobalField("enabledModels", patterns ? [...patterns] : undefined);
	}
	getHideThinkingBlock(): boolean {
		return booleanOr(this.value("hideThinkingBlock"), D.hideThinkingBlock);
	}
	setHideThinkingBlock(hide: boolean): void {
		this.setGlobalField("hideThinkingBlock", hide);
	}
	getShowCacheMissNotices(): boolean {
		return booleanOr(this.value("showCacheMissNotices"), D.showCacheMissNotices);
	}
	setShowCacheMissNotices(show: boolean): void {
		this.setGlobalField("showCacheMissNotices", show);
	}
	getCacheWarmingMode(): CacheWarmingMode {
		return oneOf(this.globalValue("cacheWarming"), CACHE_WARMING_MODES, D.cacheWarming);
	}
	setCacheWarmingMode(mode: CacheWarmingMode): void {
		this.setGlobalField("cacheWarming", mode);
	}

	// Interaction

	getSteeringMode(): QueueMode {
		return oneOf(this.value("steeringMode"), QUEUE_MODES, D.steeringMode);
	}
	setSteeringMode(mode: QueueMode): void {
		this.setGlobalField("steeringMode", mode);
	}
	getFollowUpMode(): QueueMode {
		return oneOf(this.value("followUpMode"), QUEUE_MODES, D.followUpMode);
	}
	setFollowUpMode(mode: QueueMode): void {
		this.setGlobalField("followUpMode", mode);
	}
	/** The configured editor, else `$VISUAL`, `$EDITOR`, then `notepad` (Windows) or `nano`. */
	getExternalEditorCommand(): string {
		const configured = this.value("externalEditor");
		if (typeof configured === "string" && configured.trim() !== "") return configured;
		const fromEnv = process.env.VISUAL || process.env.EDITOR;
		if (fromEnv) return fromEnv;
		return process.platform === "win32" ? "notepad" : "nano";
	}
	getDoubleEscapeAction(): DoubleEscapeAction {
		return oneOf(this.value("doubleEscapeAction"), DOUBLE_ESCAPE_ACTIONS, D.doubleEscapeAction);
	}
	setDoubleEscapeAction(action: DoubleEscapeAction): void {
		this.setGlobalField("doubleEscapeAction", action);
	}
	getTreeFilterMode(): TreeFilterMode {
		return oneOf(this.value("treeFilterMode"), TREE_FILTER_MODES, D.treeFilterMode);
	}
	setTreeFilterMode(mode: TreeFilterMode): void {
		this.setGlobalField("treeFilterMode", mode);
	}
	/** User layer only: the trust policy cannot be set by the project it governs. */
	getDefaultProjectTrust(): ProjectTrustPolicy {
		return oneOf(this.globalValue("defaultProjectTrust"), PROJECT_TRUST_POLICIES, D.defaultProjectTrust);
	}
	setDefaultProjectTrust(policy: ProjectTrustPolicy): void {
		this.setGlobalField("defaultProjectTrust", policy);
	}

	// Tools

	/** The resolved built-in tool list, or undefined when no layer sets `defaultTools`. */
	getDefaultTools(): string[] | undefined {
		const tools = stringArray(this.value("defaultTools"));
		return tools === undefined ? undefined : applyToolModifiers(tools);
	}
	getCodemodeMode(): "on" | "only" {
		const codemode = this.value("codemode");
		return oneOf(isPlainObject(codemode) ? codemode.mode : undefined, ["on", "only"] as const, D.codemode.mode);
	}
	getCodemodeInlineBudget(): number {
		const codemode = this.value("codemode");
		return finiteNumberOr(isPlainObject(codemode) ? codemode.inlineBudget : undefined, D.codemode.inlineBudget);
	}

	// Sessions and context

	getSessionDir(): string | undefined {
		const dir = this.value("sessionDir");
		return typeof dir === "string" && dir !== "" ? expandTilde(dir) : undefined;
	}
	getSessionShareDestination(): SessionShareDestination {
		return oneOf(this.value("sessionShareDestination"), ["gist", "radius"] as const, D.sessionShareDestination);
	}
	setSessionShareDestination(destination: SessionShareDestination): void {
		this.setGlobalField("sessionShareDestination", destination);
	}
	getCompactionEnabled(): boolean {
		return booleanOr(this.object("compaction").enabled, D.compaction.enabled);
	}
	setCompactionEnabled(enabled: boolean): void {
		this.setGlobalNested("compaction", "enabled", enabled);
	}
	getCompactionReserveTokens(model?: ModelKey): number {
		return this.compactionTokens("reserveTokens", model);
	}
	getCompactionKeepRecentTokens(model?: ModelKey): number {
		return this.compactionTokens("keepRecentTokens", model);
	}
	getCompactionSettings(model?: ModelKey): CompactionSettings {
		return {
			enabled: this.getCompactionEnabled(),
			reserveTokens: this.getCompactionReserveTokens(model),
			keepRecentTokens: this.getCompactionKeepRecentTokens(model),
		};
	}
	/** Model override ?? ordinary value ?? default, each validated strictly (a bad value throws). */
	private compactionTokens(field: "reserveTokens" | "keepRecentTokens", model?: ModelKey): number {
		const compaction = this.object("compaction");
		const ordinary = parseTokenSetting(`compaction.${field}`, compaction[field]);
		let override: number | undefined;
		if (model && isPlainObject(compaction.modelOverrides)) {
			const key = `${model.provider}/${model.id}`;
			const entry = compaction.modelOverrides[key];
			if (entry !== undefined) {
				const label = `compaction.modelOverrides[${JSON.stringify(key)}]`;
				if (!isPlainObject(entry)) {
					throw new Error(`Invalid ${label} setting: ${settingText(entry)}. Expected an object.`);
				}
				override = parseTokenSetting(`${label}.${field}`, entry[field]);
			}
		}
		return override ?? ordinary ?? D.compaction[field];
	}
	getBranchSummarySettings(): { reserveTokens: number; skipPrompt: boolean } {
		const summary = this.object("branchSummary");
		return {
			reserveTokens: finiteNumberOr(summary.reserveTokens, D.branchSummary.reserveTokens),
			skipPrompt: booleanOr(summary.skipPrompt, D.branchSummary.skipPrompt),
		};
	}
	getBranchSummarySkipPrompt(): boolean {
		return this.getBranchSummarySettings().skipPrompt;
	}

	// Network and retries

	getTransport(): TransportSetting {
		return oneOf(this.value("transport"), TRANSPORTS, D.transport);
	}
	setTransport(transport: TransportSetting): void {
		this.setGlobalField("transport", transport);
	}
	getHttpProxy(): string | undefined {
		return stringOrUndefined(this.globalValue("httpProxy"));
	}
	/** Milliseconds; 0 means disabled. Throws `Invalid httpIdleTimeoutMs setting: <v>` on a bad value. */
	getHttpIdleTimeoutMs(): number {
		return parseTimeoutSetting("httpIdleTimeoutMs", this.value("httpIdleTimeoutMs")) ?? D.httpIdleTimeoutMs;
	}
	setHttpIdleTimeoutMs(timeout: number | "disabled"): void {
		if (timeout !== "disabled" && (!Number.isFinite(timeout) || timeout < 0)) {
			throw new Error(`Invalid httpIdleTimeoutMs setting: ${timeout}`);
		}
		this.setGlobalField("httpIdleTimeoutMs", timeout === "disabled" ? timeout : Math.floor(timeout));
	}
	/** Undefined when unset (the transport's own default applies). */
	getWebSocketConnectTimeoutMs(): number | undefined {
		return parseTimeoutSetting("websocketConnectTimeoutMs", this.value("websocketConnectTimeoutMs"));
	}
	getRetryEnabled(): boolean {
		return booleanOr(this.object("retry").enabled, D.retry.enabled);
	}
	setRetryEnabled(enabled: boolean): void {
		this.setGlobalNested("retry", "enabled", enabled);
	}
	getRetrySettings(): RetrySettings {
		const retry = this.object("retry");
		return {
			enabled: this.getRetryEnabled(),
			maxRetries: finiteNumberOr(retry.maxRetries, D.retry.maxRetries),
			baseDelayMs: finiteNumberOr(retry.baseDelayMs, D.retry.baseDelayMs),
			maxAgentDelayMs: finiteNumberOr(retry.maxAgentDelayMs, D.retry.maxAgentDelayMs),
		};
	}
	/** `retry.provider` as configured; only `maxRetryDelayMs` has a default here, as in Pi. */
	getProviderRetrySettings(): ProviderRetrySettings {
		const retry = this.object("retry");
		const provider = isPlainObject(retry.provider) ? retry.provider : {};
		const settings: ProviderRetrySettings = {
			maxRetryDelayMs: finiteNumberOr(provider.maxRetryDelayMs, D.retry.provider.maxRetryDelayMs),
		};
		if (typeof provider.timeoutMs === "number" && Number.isFinite(provider.timeoutMs))
			settings.timeoutMs = provider.timeoutMs;
		if (typeof provider.maxRetries === "number" && Number.isFinite(provider.maxRetries))
			settings.maxRetries = provider.maxRetries;
		return settings;
	}

	// Shell and updates

	getShellPath(): string | undefined {
		const shell = this.value("shellPath");
		return typeof shell === "string" && shell !== "" ? expandTilde(shell) : undefined;
	}
	setShellPath(path: string | undefined): void {
		this.setGlobalField("shellPath", path);
	}
	getShellCommandPrefix(): string | undefined {
		return stringOrUndefined(this.value("shellCommandPrefix"));
	}
	setShellCommandPrefix(prefix: string | undefined): void {
		this.setGlobalField("shellCommandPrefix", prefix);
	}
	/** The configured argv, or undefined when unset (see `npmCommandOrDefault`). */
	getNpmCommand(): string[] | undefined {
		return stringArray(this.value("npmCommand"));
	}
	setNpmCommand(command: string[]): void {
		this.setGlobalField("npmCommand", [...command]);
	}
	/** argv for `tau update`: `TAU_SELF_UPDATE_COMMAND` (split on whitespace) wins over the user setting. */
	getSelfUpdateCommand(): string[] | undefined {
		const fromEnv = process.env[envName("SELF_UPDATE_COMMAND")];
		if (fromEnv && fromEnv.trim() !== "") return fromEnv.trim().split(/\s+/);
		return stringArray(this.globalValue("selfUpdateCommand"));
	}
	getCollapseChangelog(): boolean {
		return booleanOr(this.value("collapseChangelog"), D.collapseChangelog);
	}
	setCollapseChangelog(collapse: boolean): void {
		this.setGlobalField("collapseChangelog", collapse);
	}
	getEnableInstallTelemetry(): boolean {
		return booleanOr(this.value("enableInstallTelemetry"), D.enableInstallTelemetry);
	}
	setEnableInstallTelemetry(enable: boolean): void {
		this.setGlobalField("enableInstallTelemetry", enable);
	}
	getEnableAnalytics(): boolean {
		return booleanOr(this.value("enableAnalytics"), D.enableAnalytics);
	}
	/** Enabling analytics for the first time creates the `trackingId`. */
	setEnableAnalytics(enable: boolean): void {
		const fields: Record<string, unknown> = { enableAnalytics: enable };
		if (enable && typeof this.globalValue("trackingId") !== "string") fields.trackingId = randomUUID();
		this.setGlobalFields(fields);
	}
	getTrackingId(): string | undefined {
		return stringOrUndefined(this.globalValue("trackingId"));
	}
	getOrCreateDeviceId(): string {
		const existing = this.globalValue("deviceId");
		if (typeof existing === "string" && existing !== "") return existing;
		const id = randomUUID();
		this.setGlobalField("deviceId", id);
		return id;
	}
	/** The configured warning switches; one left out is on. */
	getWarnings(): { anthropicExtraUsage?: boolean; [key: string]: unknown } {
		return { ...this.object("warnings") };
	}
	setWarnings(warnings: Record<string, unknown>): void {
		this.setGlobalField("warnings", { ...warnings });
	}

	// Changelog bookkeeping (user layer only: a committed project file must not spoof it)

	getLastChangelogVersion(): string | undefined {
		return stringOrUndefined(this.globalValue("lastChangelogVersion"));
	}
	setLastChangelogVersion(version: string): void {
		this.setGlobalField("lastChangelogVersion", version);
	}
	getExtensionChangelogVersion(key: string): string | undefined {
		const versions = this.globalValue("extensionChangelogVersions");
		return isPlainObject(versions) ? stringOrUndefined(versions[key]) : undefined;
	}
	setExtensionChangelogVersion(key: string, version: string): void {
		this.setGlobalNested("extensionChangelogVersions", key, version);
	}

	// Resources (merged view for display; loaders resolve each layer separately)

	getPackages(): PackageSource[] {
		const packages = this.value("packages");
		return Array.isArray(packages) ? structuredClone(packages) : [];
	}
	setPackages(packages: PackageSource[]): void {
		this.setGlobalField("packages", structuredClone(packages));
	}
	setProjectPackages(packages: PackageSource[]): void {
		this.updateProjectSettings("packages", () => structuredClone(packages));
	}
	getExtensionPaths(): string[] {
		return this.resourceList("extensions");
	}
	setExtensionPaths(paths: string[]): void {
		this.setGlobalField("extensions", [...paths]);
	}
	setProjectExtensionPaths(paths: string[]): void {
		this.updateProjectSettings("extensions", () => [...paths]);
	}
	getSkillPaths(): string[] {
		return this.resourceList("skills");
	}
	setSkillPaths(paths: string[]): void {
		this.setGlobalField("skills", [...paths]);
	}
	setProjectSkillPaths(paths: string[]): void {
		this.updateProjectSettings("skills", () => [...paths]);
	}
	getPromptTemplatePaths(): string[] {
		return this.resourceList("prompts");
	}
	setPromptTemplatePaths(paths: string[]): void {
		this.setGlobalField("prompts", [...paths]);
	}
	setProjectPromptTemplatePaths(paths: string[]): void {
		this.updateProjectSettings("prompts", () => [...paths]);
	}
	getThemePaths(): string[] {
		return this.resourceList("themes");
	}
	setThemePaths(paths: string[]): void {
		this.setGlobalField("themes", [...paths]);
	}
	setProjectThemePaths(paths: string[]): void {
		this.updateProjectSettings("themes", () => [...paths]);
	}
	getEnableSkillCommands(): boolean {
		return booleanOr(this.value("enableSkillCommands"), D.enableSkillCommands);
	}
	setEnableSkillCommands(enable: boolean): void {
		this.setGlobalField("enableSkillCommands", enable);
	}
	private resourceList(field: ResourceField): string[] {
		return stringArray(this.value(field)) ?? [];
	}
}

function stringOrUndefined(value: unknown): string | undefined {
	return typeof value === "string" ? value : undefined;
}
