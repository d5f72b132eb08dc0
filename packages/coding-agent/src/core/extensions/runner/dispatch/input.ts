import type { ImageContent } from "@tau/ai";
import type { InputEvent, InputEventResult } from "../../api/events.js";
import type { DispatchHost } from "./dispatch-host.js";

/**
 * `input`: transforms chain (each handler sees the text so far); the first `handled` stops the
 * dispatch. Fail-open: a throwing handler is reported and the current text continues.
 */
export async function dispatchInput(host: DispatchHost, input: Omit<InputEvent, "type">): Promise<InputEventResult> {
	const handlers = host.handlers("input");
	if (handlers.length === 0) return { action: "continue" };
	const event: InputEvent = { type: "input", ...input };
	const originalText = event.text;
	const originalImages = event.images;
	const ctx = host.context();
	for (const { extensionPath, handler } of handlers) {
		let result: InputEventResult | undefined;
		try {
			result = (await handler(event, ctx)) as InputEventResult | undefined;
		} catch (error) {
			host.report(extensionPath, "input", error);
			continue;
		}
		if (result?.action === "handled") return { action: "handled" };
		if (result?.action === "transform") {
			event.text = result.text;
			if (result.images !== undefined) event.images = result.images;
		}
	}
	if (event.text === originalText && event.images === originalImages) return { action: "continue" };
	const transformed: { action: "transform"; text: string; images?: ImageContent[] } = {
		action: "transform",
		text: event.text,
	};
	if (event.images !== undefined) transformed.images = event.images;
	return transformed;
}
