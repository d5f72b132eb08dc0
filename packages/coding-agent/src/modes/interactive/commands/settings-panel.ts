import type { CommandHost } from "./command-host.js";

/** Live effects the panel cannot apply through settings alone. */
export interface SettingsEffects {
	setHideThinking(hide: boolean): void;
	setTuiMode(mode: "fullscreen" | "regular"): void;
	/** The renderer in use (may differ from the setting after `--tui-mode`). */
	tuiMode(): "fullscreen" | "regular";
}

interface SettingRow {
	id: string;
	label: string;
	values: readonly string[];
	current(host: CommandHost, effects: SettingsEffects): string;
	apply(host: CommandHost, value: string, effects: SettingsEffects): void;
}

const onOff = ["on", "off"] as const;
const flag = (value: boolean) => (value ? "on" : "off");

/** The settings the panel offers; each change is saved to global settings and applied now. */
const ROWS: readonly SettingRow[] = [
	{
		id: "autoCompaction",
		label: "Auto-compaction",
		values: onOff,
		current: (host) => flag(host.session.autoCompactionEnabled),
		apply: (host, value) => host.session.setAutoCompactionEnabled(value === "on"),
	},
	{
		id: "steeringMode",
		label: "Steering mode",
		values: ["one-at-a-time", "all"],
		current: (host) => host.session.steeringMode,
		apply: (host, value) => host.session.setSteeringMode(value as "all" | "one-at-a-time"),
	},
	{
		id: "followUpMode",
		label: "Follow-up mode",
		values: ["one-at-a-time", "all"],
		current: (host) => host.session.followUpMode,
		apply: (host, value) => host.session.setFollowUpMode(value as "all" | "one-at-a-time"),
	},
	{
		id: "hideThinkingBlock",
		label: "Hide thinking",
		values: onOff,
		current: (host) => flag(host.session.settingsManager.getHideThinkingBlock()),
		apply: (host, value, effects) => {
			host.session.settingsManager.setHideThinkingBlock(value === "on");
			effects.setHideThinking(value === "on");
		},
	},
	{
		id: "quietStartup",
		label: "Quiet startup",
		values: onOff,
		current: (host) => flag(host.session.settingsManager.getQuietStartup() === true),
		apply: (host, value) => host.session.settingsManager.setQuietStartup(value === "on"),
	},
	{
		id: "doubleEscapeAction",
		label: "Double-Escape action",
		values: ["tree", "fork", "none"],
		current: (host) => host.session.settingsManager.getDoubleEscapeAction(),
		apply: (host, value) => host.session.settingsManager.setDoubleEscapeAction(value as "tree" | "fork" | "none"),
	},
	{
		id: "tuiMode",
		label: "TUI mode",
		values: ["fullscreen", "regular"],
		current: (_host, effects) => effects.tuiMode(),
		apply: (host, value, effects) => {
			host.session.settingsManager.setTuiMode(value as "fullscreen" | "regular");
			effects.setTuiMode(value as "fullscreen" | "regular");
		},
	},
];

/** `/settings`: pick a row to advance it to its next value; Escape closes the panel. */
export async function openSettingsPanel(host: CommandHost, effects: SettingsEffects): Promise<void> {
	let selected: string | undefined;
	for (;;) {
		const chosen = await host.pick(
			"Settings",
			ROWS.map((row) => ({ value: row.id, label: row.label, description: row.current(host, effects) })),
			{ hint: "Enter to change · Escape to close", ...(selected ? { selected } : {}) },
		);
		if (!chosen) return;
		const row = ROWS.find((candidate) => candidate.id === chosen.value)!;
		const values = row.values;
		const next = values[(values.indexOf(row.current(host, effects)) + 1) % values.length]!;
		row.apply(host, next, effects);
		host.refreshFooter();
		selected = row.id;
	}
}
