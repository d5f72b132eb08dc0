import type { Message } from "@tau/ai";

/**
 * Empty on purpose: applications add their own transcript roles by declaration merging
 * (`declare module "@tau/agent" { interface CustomAgentMessages { … } }`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: extension point for module augmentation
export interface CustomAgentMessages {}

/** Anything that can live in an agent transcript: the four LLM roles plus application roles. */
export type AgentMessage = Message | CustomAgentMessages[keyof CustomAgentMessages];

/** How much the model should reason before answering; `off` disables reasoning where the model allows it. */
export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";
/** How queued steering or follow-up messages are delivered: all at once, or one per turn. */
export type QueueMode = "all" | "one-at-a-time";
