import type { Extension, RegisteredCommand } from "../runtime/extension.js";

/**
 * A registered command with the name the user types for it (`name:N` when several extensions register the same
 * name).
 */
export interface ResolvedCommand extends RegisteredCommand {
	/** What the user types after `/`: the name, or `name:N` when several extensions register it. */
	invocationName: string;
}

/**
 * Commands of all extensions in load order. A name registered by several extensions is kept for
 * each of them under `name:1`, `name:2`, … (skipping suffixes that are taken by other commands).
 */
export function resolveCommands(extensions: readonly Extension[]): ResolvedCommand[] {
	const all = extensions.flatMap((extension) => [...extension.commands.values()]);
	const counts = new Map<string, number>();
	for (const command of all) counts.set(command.name, (counts.get(command.name) ?? 0) + 1);
	const taken = new Set(all.filter((command) => counts.get(command.name) === 1).map((command) => command.name));
	const next = new Map<string, number>();
	return all.map((command) => {
		if (counts.get(command.name) === 1) return { ...command, invocationName: command.name };
		let index = next.get(command.name) ?? 1;
		while (taken.has(`${command.name}:${index}`)) index++;
		const invocationName = `${command.name}:${index}`;
		next.set(command.name, index + 1);
		taken.add(invocationName);
		return { ...command, invocationName };
	});
}
