import { isPlainObject } from "../fs/json-text.js";
import type { Settings } from "./types.js";

/**
 * Rewrites legacy fields into their current form, in place, and returns the same object.
 * Runs on every load and inside every locked write; it never causes a write by itself.
 */
export function migrateSettings(settings: Record<string, unknown>): Settings {
	if ("queueMode" in settings && !("steeringMode" in settings)) {
		settings.steeringMode = settings.queueMode;
		delete settings.queueMode;
	}
	if (!("transport" in settings) && typeof settings.websockets === "boolean") {
		settings.transport = settings.websockets ? "websocket" : "sse";
		delete settings.websockets;
	}
	const skills = settings.skills;
	if (isPlainObject(skills)) {
		if (skills.enableSkillCommands !== undefined && settings.enableSkillCommands === undefined) {
			settings.enableSkillCommands = skills.enableSkillCommands;
		}
		if (Array.isArray(skills.customDirectories) && skills.customDirectories.length > 0) {
			settings.skills = skills.customDirectories;
		} else {
			delete settings.skills;
		}
	}
	const retry = settings.retry;
	if (isPlainObject(retry)) {
		const provider = isPlainObject(retry.provider) ? retry.provider : undefined;
		if (typeof retry.maxDelayMs === "number" && (provider?.maxRetryDelayMs ?? null) === null) {
			retry.provider = { ...provider, maxRetryDelayMs: retry.maxDelayMs };
		}
		delete retry.maxDelayMs;
	}
	return settings as Settings;
}
