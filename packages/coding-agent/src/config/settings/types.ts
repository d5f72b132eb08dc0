/** Thinking levels accepted in settings (mirrors the model thinking levels of `@tau/ai`). */
export type SettingsThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";
export type QueueMode = "all" | "one-at-a-time";
/**
 * When tau refreshes the provider's prompt cache: never, while a response streams, or also while the session is
 * idle.
 */
export type CacheWarmingMode = "off" | "streaming" | "idle";
export type DoubleEscapeAction = "tree" | "fork" | "none";
export type TreeFilterMode = "default" | "no-tools" | "user-only" | "labeled-only" | "all";
export type ProjectTrustPolicy = "ask" | "always" | "never";
export type SessionShareDestination = "auto" | "gist" | "radius";
export type TuiMode = "regular" | "fullscreen";
/** What fullscreen mode prints to the terminal when it exits: the transcript, or only a hint on how to resume. */
export type FullscreenExitOutput = "transcript" | "resume-hint";
export type FullscreenScrollbar = "auto" | "always" | "hidden";
export type MermaidRenderingMode = "off" | "final" | "streaming";
export type TransportSetting = "auto" | "sse" | "websocket" | "websocket-cached";
export type ImageProtocolSetting = "kitty" | "iterm2" | "auto" | false;

export interface PackageSourceObject {
	source: string;
	autoload?: boolean;
	extensions?: string[];
	skills?: string[];
	prompts?: string[];
	themes?: string[];
}
/**
 * A package in settings: a source string (npm, git or local path) or an object that also filters which of its
 * resources load.
 */
export type PackageSource = string | PackageSourceObject;

export interface CompactionSettingsFile {
	enabled?: boolean;
	reserveTokens?: number;
	keepRecentTokens?: number;
	modelOverrides?: Record<string, { reserveTokens?: number; keepRecentTokens?: number }>;
}

export interface RetrySettingsFile {
	enabled?: boolean;
	maxRetries?: number;
	baseDelayMs?: number;
	maxAgentDelayMs?: number;
	provider?: { timeoutMs?: number; maxRetries?: number; maxRetryDelayMs?: number | null };
}

export interface TerminalSettingsFile {
	showImages?: boolean;
	imageWidthCells?: number;
	clearOnShrink?: boolean;
	showTerminalProgress?: boolean;
	hyperlinks?: boolean | "auto";
	images?: ImageProtocolSetting;
	trueColor?: boolean | "auto";
}

/**
 * The settings.json document. Files are not validated at load: every field may hold a wrong type,
 * which the accessors absorb. Unknown keys are kept.
 */
export interface Settings {
	$schema?: string;
	defaultProvider?: string;
	defaultModel?: string;
	defaultThinkingLevel?: SettingsThinkingLevel;
	modelThinkingLevels?: Record<string, SettingsThinkingLevel>;
	thinkingBudgets?: { minimal?: number; low?: number; medium?: number; high?: number };
	enabledModels?: string[];
	hideThinkingBlock?: boolean;
	showCacheMissNotices?: boolean;
	cacheWarming?: CacheWarmingMode;
	steeringMode?: QueueMode;
	followUpMode?: QueueMode;
	externalEditor?: string;
	doubleEscapeAction?: DoubleEscapeAction;
	treeFilterMode?: TreeFilterMode;
	defaultProjectTrust?: ProjectTrustPolicy;
	defaultTools?: string[];
	codemode?: { mode?: "on" | "only"; inlineBudget?: number };
	sessionDir?: string;
	sessionShareDestination?: SessionShareDestination;
	compaction?: CompactionSettingsFile;
	branchSummary?: { reserveTokens?: number; skipPrompt?: boolean };
	theme?: string;
	quietStartup?: boolean | "header";
	tuiMode?: TuiMode;
	fullscreenExitOutput?: FullscreenExitOutput;
	fullscreenScrollbar?: FullscreenScrollbar;
	fullscreenCopyOnSelect?: boolean;
	fullscreenWheelScrollLines?: "auto" | number;
	editorPaddingX?: number;
	outputPad?: 0 | 1;
	autocompleteMaxVisible?: number;
	showHardwareCursor?: boolean;
	terminal?: TerminalSettingsFile;
	images?: { autoResize?: boolean; blockImages?: boolean };
	markdown?: { codeBlockIndent?: string; mermaid?: MermaidRenderingMode };
	transport?: TransportSetting;
	httpProxy?: string;
	httpIdleTimeoutMs?: number | string;
	websocketConnectTimeoutMs?: number | string;
	retry?: RetrySettingsFile;
	shellPath?: string;
	shellCommandPrefix?: string;
	npmCommand?: string[];
	selfUpdateCommand?: string[];
	collapseChangelog?: boolean;
	enableInstallTelemetry?: boolean;
	enableAnalytics?: boolean;
	warnings?: { anthropicExtraUsage?: boolean; [key: string]: unknown };
	packages?: PackageSource[];
	extensions?: string[];
	skills?: string[];
	prompts?: string[];
	themes?: string[];
	enableSkillCommands?: boolean;
	lastChangelogVersion?: string;
	extensionChangelogVersions?: Record<string, string>;
	deviceId?: string;
	trackingId?: string;
	[key: string]: unknown;
}

export type SettingsScope = "global" | "project";

/** A settings file that could not be read, parsed or written. */
export interface SettingsError {
	scope: SettingsScope;
	path?: string;
	error: Error;
}

/** A model as far as settings care: per-model keys are `provider/id`. */
export interface ModelKey {
	provider: string;
	id: string;
}

/**
 * Automatic compaction settings: whether it is on, how many tokens to keep free for the answer and how many recent
 * tokens to keep verbatim.
 */
export interface CompactionSettings {
	enabled: boolean;
	reserveTokens: number;
	keepRecentTokens: number;
}

/** Automatic retry settings: whether failed model requests are retried, how often, and the base and longest delays. */
export interface RetrySettings {
	enabled: boolean;
	maxRetries: number;
	baseDelayMs: number;
	maxAgentDelayMs: number;
}

export interface ProviderRetrySettings {
	timeoutMs?: number;
	maxRetries?: number;
	maxRetryDelayMs: number;
}

export interface TerminalCapabilityOverrides {
	images?: "kitty" | "iterm2" | null;
	trueColor?: boolean;
	hyperlinks?: boolean;
}
