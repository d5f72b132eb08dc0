/**
 * A strict checker of the pi 1.6 session shapes: only the entry types pi knows, every required field
 * present with the right type. A tau-written file must pass it to be valid for pi.
 */
const REQUIRED: Record<string, Record<string, string>> = {
	message: { message: "object" },
	model_change: { provider: "string", modelId: "string" },
	thinking_level_change: { thinkingLevel: "string" },
	usage: { kind: "string", provider: "string", model: "string", usage: "object" },
	compaction: { summary: "string", firstKeptEntryId: "string", tokensBefore: "number" },
	branch_summary: { fromId: "string", summary: "string" },
	custom: { customType: "string" },
	custom_message: { customType: "string", display: "boolean" },
	context_edit: { targetId: "string" },
	label: { targetId: "string" },
	session_info: {},
};

const MESSAGE_ROLES = new Set(["system", "user", "assistant", "toolResult", "bashExecution", "custom"]);

export function checkPiSessionFile(content: string): string[] {
	const problems: string[] = [];
	if (!content.endsWith("\n")) problems.push("file does not end with LF");
	if (content.includes("\r")) problems.push("file contains CR");
	const lines = content.split("\n").slice(0, -1);
	const ids = new Set<string>();
	lines.forEach((line, index) => {
		let value: Record<string, unknown>;
		try {
			value = JSON.parse(line);
		} catch {
			problems.push(`line ${index + 1}: not JSON`);
			return;
		}
		if (line !== JSON.stringify(value)) problems.push(`line ${index + 1}: not compact JSON`);
		if (index === 0) {
			if (value.type !== "session" || value.version !== 3 || typeof value.id !== "string")
				problems.push("bad header");
			if (typeof value.timestamp !== "string" || typeof value.cwd !== "string") problems.push("bad header fields");
			return;
		}
		const required = REQUIRED[String(value.type)];
		if (!required) {
			problems.push(`line ${index + 1}: unknown type ${String(value.type)}`);
			return;
		}
		if (typeof value.id !== "string") problems.push(`line ${index + 1}: id`);
		if (!(value.parentId === null || typeof value.parentId === "string"))
			problems.push(`line ${index + 1}: parentId`);
		if (typeof value.parentId === "string" && !ids.has(value.parentId)) {
			problems.push(`line ${index + 1}: parent ${value.parentId} not written before`);
		}
		if (typeof value.timestamp !== "string" || Number.isNaN(Date.parse(value.timestamp))) {
			problems.push(`line ${index + 1}: timestamp`);
		}
		for (const [field, type] of Object.entries(required)) {
			if (typeof value[field] !== type || value[field] === null) problems.push(`line ${index + 1}: ${field}`);
		}
		if (value.type === "message") {
			const role = (value.message as { role?: string }).role;
			if (!MESSAGE_ROLES.has(String(role))) problems.push(`line ${index + 1}: role ${role}`);
		}
		if (value.type === "custom_message" && !(typeof value.content === "string" || Array.isArray(value.content))) {
			problems.push(`line ${index + 1}: content`);
		}
		if (value.type === "context_edit" && value.replacement !== null && typeof value.replacement !== "object") {
			problems.push(`line ${index + 1}: replacement`);
		}
		ids.add(String(value.id));
	});
	return problems;
}
