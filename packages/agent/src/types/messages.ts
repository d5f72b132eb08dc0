import type { Message } from "@tau/ai";

/**
 * Empty on purpose: applications add their own transcript roles by declaration merging
 * (`declare module "@tau/agent" { interface CustomAgentMessages { … } }`).
 */
// biome-ignore lint/suspicious/noEmptyInterface: extension point for module augmentation
export interface CustomAgentMessages {}

/** Anything that can live in an agent transcript: the four LLM roles plus application roles. */
export type AgentMessage = Message | CustomAgentMessages[keyof CustomAgentMessages];

export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";
export type QueueMode = "all" | "one-at-a-time";
