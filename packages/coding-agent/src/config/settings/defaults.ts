import { MODEL_THINKING_LEVEL_NAMES } from "../model-resolver/model-reference.js";
import type {
	CacheWarmingMode,
	CompactionSettings,
	DoubleEscapeAction,
	FullscreenExitOutput,
	FullscreenScrollbar,
	MermaidRenderingMode,
	ProjectTrustPolicy,
	QueueMode,
	SettingsThinkingLevel,
	TransportSetting,
	TreeFilterMode,
} from "./types.js";

/** Built-in tools enabled when no layer sets `defaultTools`. */
export const DEFAULT_TOOL_NAMES: readonly string[] = ["read", "bash", "edit", "write"];

/** The values each enumerated setting accepts (anything else falls back to the default). */
export const CACHE_WARMING_MODES: readonly CacheWarmingMode[] = ["off", "streaming", "idle"];
export const QUEUE_MODES: readonly QueueMode[] = ["all", "one-at-a-time"];
export const THINKING_LEVELS: readonly SettingsThinkingLevel[] = MODEL_THINKING_LEVEL_NAMES;
export const DOUBLE_ESCAPE_ACTIONS: readonly DoubleEscapeAction[] = ["tree", "fork", "none"];
export const TREE_FILTER_MODES: readonly TreeFilterMode[] = ["default", "no-tools", "user-only", "labeled-only", "all"];
export const PROJECT_TRUST_POLICIES: readonly ProjectTrustPolicy[] = ["ask", "always", "never"];
export const TRANSPORTS: readonly TransportSetting[] = ["auto", "sse", "websocket", "websocket-cached"];
export const FULLSCREEN_EXIT_OUTPUTS: readonly FullscreenExitOutput[] = ["transcript", "resume-hint"];
export const FULLSCREEN_SCROLLBARS: readonly FullscreenScrollbar[] = ["auto", "always", "hidden"];
export const MERMAID_MODES: readonly MermaidRenderingMode[] = ["off", "final", "streaming"];

/** Compaction when no settings layer configures it. */
export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = {
	enabled: true,
	reserveTokens: 16384,
	keepRecentTokens: 20000,
};

/**
 * Every default in one table. Accessors apply these with `??`; they are never merged into a
 * layer and never written to disk.
 */
export const SETTINGS_DEFAULTS = {
	defaultThinkingLevel: "medium",
	hideThinkingBlock: false,
	showCacheMissNotices: false,
	cacheWarming: "idle",
	steeringMode: "one-at-a-time",
	followUpMode: "one-at-a-time",
	doubleEscapeAction: "tree",
	treeFilterMode: "default",
	defaultProjectTrust: "ask",
	defaultTools: DEFAULT_TOOL_NAMES,
	codemode: { mode: "on", inlineBudget: 3000 },
	sessionShareDestination: "auto",
	compaction: DEFAULT_COMPACTION_SETTINGS,
	branchSummary: { reserveTokens: 16384, skipPrompt: false },
	quietStartup: false,
	tuiMode: "fullscreen",
	fullscreenExitOutput: "transcript",
	fullscreenScrollbar: "auto",
	fullscreenCopyOnSelect: true,
	fullscreenWheelScrollLines: "auto",
	editorPaddingX: 0,
	outputPad: 1,
	autocompleteMaxVisible: 5,
	showHardwareCursor: false,
	terminal: {
		showImages: true,
		imageWidthCells: 60,
		clearOnShrink: false,
		showTerminalProgress: false,
		hyperlinks: "auto",
		images: "auto",
		trueColor: "auto",
	},
	images: { autoResize: true, blockImages: false },
	markdown: { codeBlockIndent: "  ", mermaid: "streaming" },
	transport: "auto",
	httpIdleTimeoutMs: 300000,
	retry: {
		enabled: true,
		maxRetries: 3,
		baseDelayMs: 2000,
		maxAgentDelayMs: 60000,
		provider: { maxRetries: 0, maxRetryDelayMs: 60000 },
	},
	collapseChangelog: false,
	enableInstallTelemetry: true,
	enableAnalytics: false,
	warnings: { anthropicExtraUsage: true },
	enableSkillCommands: true,
} as const;

/** Keys read from the user layer only: needed before trust, define trust, run commands or cost money. */
export const USER_ONLY_KEYS: readonly string[] = [
	"httpProxy",
	"defaultProjectTrust",
	"selfUpdateCommand",
	"cacheWarming",
	"deviceId",
	"lastChangelogVersion",
	"extensionChangelogVersions",
	"trackingId",
];
