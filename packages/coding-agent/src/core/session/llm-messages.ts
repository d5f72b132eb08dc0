import type { Message, TextContent, UserMessage } from "@tau/ai";
import type { BashExecutionMessage, SessionMessage } from "./messages.js";

const LLM_ROLES = new Set(["system", "user", "assistant", "toolResult"]);

function userText(text: string, timestamp: number): UserMessage {
	return { role: "user", content: [{ type: "text", text }], timestamp };
}

/** The user-message text a `!cmd` run becomes at request time. */
export function bashExecutionText(message: BashExecutionMessage): string {
	let text = `Ran \`${message.command}\`\n`;
	text += message.output ? `\`\`\`\n${message.output.replace(/\n$/, "")}\n\`\`\`` : "(no output)";
	if (message.cancelled) text += "\n\n(command cancelled)";
	else if (message.exitCode !== undefined && message.exitCode !== 0)
		text += `\n\nCommand exited with code ${message.exitCode}`;
	if (message.truncated && message.fullOutputPath)
		text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
	return text;
}

/**
 * Maps the coding agent's transcript to provider messages: the four added roles become user messages
 * (or vanish), the LLM roles pass through, unknown roles are dropped.
 */
export function convertToLlm(messages: readonly SessionMessage[]): Message[] {
	const out: Message[] = [];
	for (const message of messages) {
		switch (message.role) {
			case "bashExecution":
				if (!message.excludeFromContext) out.push(userText(bashExecutionText(message), message.timestamp));
				break;
			case "custom": {
				const content =
					typeof message.content === "string"
						? [{ type: "text", text: message.content } satisfies TextContent]
						: message.content;
				out.push({ role: "user", content, timestamp: message.timestamp });
				break;
			}
			case "branchSummary":
				out.push(
					userText(
						`The conversation came back from another branch; this summarizes what happened there:\n\n<summary>\n${message.summary}</summary>`,
						message.timestamp,
					),
				);
				break;
			case "compactionSummary":
				out.push(
					userText(
						`Earlier conversation history was compacted into the following summary:\n\n<summary>\n${message.summary}\n</summary>`,
						message.timestamp,
					),
				);
				break;
			default:
				if (LLM_ROLES.has(message.role)) out.push(message as Message);
		}
	}
	return out;
}
