import type { SystemMessage } from "../types/messages.js";
import { contentText } from "../utils/content-text.js";

/** The prompt text of a system message: content, then each non-null section, empty parts dropped. */
export function getSystemMessageText(message: SystemMessage | undefined): string {
	if (!message) return "";
	const parts = [contentText(message.content)];
	for (const value of Object.values(message.sections ?? {})) if (value !== null) parts.push(value);
	return parts.filter((part) => part.length > 0).join("\n\n");
}

/** Request-time framing of a later system message sent in place; never persisted. */
export function renderSystemMessageUpdate(message: SystemMessage): string {
	const parts: string[] = [];
	const text = contentText(message.content);
	if (text.length > 0) parts.push(text);
	for (const [name, value] of Object.entries(message.sections ?? {})) {
		parts.push(
			value === null
				? `Removed system prompt section "${name}".`
				: `Updated system prompt section "${name}":\n\n${value}`,
		);
	}
	return parts.join("\n\n");
}
