import type { Agent, AgentMessage } from "@tau/agent";
import type { ImageContent } from "@tau/ai";
import type { AgentSessionEvent } from "./events.js";

/**
 * Steering and follow-up input: the texts shown to the user (what `pendingMessageCount` counts) and
 * the messages queued in the agent, kept in step with `queue_update` events.
 */
export class MessageQueues {
	private readonly steering: string[] = [];
	private readonly followUp: string[] = [];

	constructor(
		private readonly agent: Agent,
		private readonly emit: (event: AgentSessionEvent) => void,
	) {}

	get count(): number {
		return this.steering.length + this.followUp.length;
	}

	steeringTexts(): readonly string[] {
		return [...this.steering];
	}

	followUpTexts(): readonly string[] {
		return [...this.followUp];
	}

	enqueue(behavior: "steer" | "followUp", text: string, images: ImageContent[] | undefined): void {
		(behavior === "steer" ? this.steering : this.followUp).push(text);
		this.emitUpdate();
		const message: AgentMessage = {
			role: "user",
			content: [{ type: "text", text }, ...(images ?? [])],
			timestamp: Date.now(),
		};
		if (behavior === "steer") this.agent.steer(message);
		else this.agent.followUp(message);
	}

	/** Returns and clears the displayed texts and the agent's queues. */
	clear(): { steering: string[]; followUp: string[] } {
		const cleared = { steering: [...this.steering], followUp: [...this.followUp] };
		this.steering.length = 0;
		this.followUp.length = 0;
		this.agent.clearAllQueues();
		this.emitUpdate();
		return cleared;
	}

	/** A queued user message started: drop its display entry (steering first). */
	delivered(message: AgentMessage): void {
		if (message.role !== "user") return;
		const first = Array.isArray(message.content) ? message.content[0] : undefined;
		const text = typeof message.content === "string" ? message.content : first?.type === "text" ? first.text : "";
		for (const list of [this.steering, this.followUp]) {
			const index = list.indexOf(text);
			if (index >= 0) {
				list.splice(index, 1);
				this.emitUpdate();
				return;
			}
		}
	}

	private emitUpdate(): void {
		this.emit({ type: "queue_update", steering: [...this.steering], followUp: [...this.followUp] });
	}
}
