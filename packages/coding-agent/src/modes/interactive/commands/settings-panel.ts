import type { CommandHost } from "./command-host.js";
import { type SettingsEffects, settingRows } from "./settings-rows.js";

export type { SettingsEffects } from "./settings-rows.js";

/**
 * `/settings`: pick a row (type to filter) to advance it to its next value; the change is saved to
 * global settings and applied now. Escape closes the panel.
 */
export async function openSettingsPanel(host: CommandHost, effects: SettingsEffects): Promise<void> {
	let selected: string | undefined;
	for (;;) {
		const rows = settingRows(host, effects);
		const chosen = await host.pick(
			"Settings",
			rows.map((row) => ({ value: row.id, label: row.label, description: row.current() })),
			{ hint: "Enter to change · type to filter · Escape to close", ...(selected ? { selected } : {}) },
		);
		if (!chosen) return;
		const row = rows.find((candidate) => candidate.id === chosen.value)!;
		const values = row.values;
		const next = values[(values.indexOf(row.current()) + 1) % values.length]!;
		row.apply(next);
		host.refreshFooter();
		selected = row.id;
	}
}
