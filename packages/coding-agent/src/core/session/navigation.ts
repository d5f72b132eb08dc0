import type { Usage } from "@tau/ai";
import type { SessionManager } from "./manager.js";
import { contentText } from "./messages.js";
import type { ModelSelection, SessionEntry } from "./types.js";

export interface NavigationSummary {
	summary: string;
	details?: unknown;
	usage?: Usage;
	/** True when an extension produced the summary. */
	fromHook?: boolean;
}

export interface TreeNavigationResult {
	oldLeafId: string | null;
	newLeafId: string | null;
	/** Text of a user or custom message target, handed back for editing and re-sending. */
	editorText?: string;
	summaryEntryId?: string;
}

/**
 * Where the leaf goes when the user picks `target` in the tree: a user or custom message is re-asked, so
 * the leaf goes to its parent and its text comes back for the editor; anything else becomes the leaf.
 */
export function navigationTarget(target: SessionEntry): { leafId: string | null; editorText?: string } {
	if (target.type === "message" && target.message.role === "user") {
		return { leafId: target.parentId, editorText: contentText(target.message.content, "\n") };
	}
	if (target.type === "custom_message")
		return { leafId: target.parentId, editorText: contentText(target.content, "\n") };
	return { leafId: target.id };
}

/**
 * Moves the leaf to `targetId` (tree navigation). With a summary, the summary entry is appended at the new
 * leaf and a requested label goes on it; without, a requested label goes on the target entry.
 */
export function navigateSessionTree(
	manager: SessionManager,
	targetId: string,
	options: { summary?: NavigationSummary; label?: string } = {},
): TreeNavigationResult {
	const oldLeafId = manager.getLeafId();
	if (targetId === oldLeafId) return { oldLeafId, newLeafId: oldLeafId };
	const target = manager.getEntry(targetId);
	if (!target) throw new Error(`Entry ${targetId} not found`);
	const { leafId, editorText } = navigationTarget(target);
	const result: TreeNavigationResult = { oldLeafId, newLeafId: leafId };
	if (editorText !== undefined) result.editorText = editorText;
	if (options.summary) {
		const { summary, details, fromHook, usage } = options.summary;
		const id = manager.branchWithSummary(leafId, summary, details, fromHook, usage);
		result.summaryEntryId = id;
		result.newLeafId = id;
		if (options.label) result.newLeafId = manager.appendLabelChange(id, options.label);
		return result;
	}
	if (leafId === null) manager.resetLeaf();
	else manager.branch(leafId);
	if (options.label) result.newLeafId = manager.appendLabelChange(targetId, options.label);
	return result;
}

/**
 * The model selection a branch implies (newest first): a `model_change`, or the model of an assistant
 * message unless the nearest earlier `model_change` chose a virtual model that routed to it.
 */
export function getBranchSelection(
	branch: readonly SessionEntry[],
	isVirtualModel: (provider: string, modelId: string) => boolean,
): ModelSelection | undefined {
	for (let i = branch.length - 1; i >= 0; i--) {
		const entry = branch[i]!;
		if (entry.type === "model_change") return { provider: entry.provider, modelId: entry.modelId };
		if (entry.type !== "message" || entry.message.role !== "assistant") continue;
		const physical = { provider: entry.message.provider, modelId: entry.message.model };
		if (isVirtualModel(physical.provider, physical.modelId)) return physical;
		for (let j = i - 1; j >= 0; j--) {
			const earlier = branch[j]!;
			if (earlier.type !== "model_change") continue;
			return isVirtualModel(earlier.provider, earlier.modelId)
				? { provider: earlier.provider, modelId: earlier.modelId }
				: physical;
		}
		return physical;
	}
	return undefined;
}
