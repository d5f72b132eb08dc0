import { fauxAssistantMessage } from "@tau/ai";
import type { ExtensionAPI, ModelRouteRequest } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { createHarness, type HarnessOptions } from "./harness.js";

type Route = Parameters<ExtensionAPI["registerVirtualModel"]>[0]["route"];

/** A session whose default model is the virtual model `router/<id>`, which an extension registers with `route`. */
function routerHarness(id: string, route: Route, options: HarnessOptions = {}) {
	return createHarness({
		...options,
		settings: { defaultProvider: "router", defaultModel: id, ...options.settings },
		session: { model: undefined },
		loader: {
			extensionFactories: [
				(pi: ExtensionAPI) => pi.registerVirtualModel({ provider: "router", id, name: id, route }),
			],
		},
	});
}

describe("virtual models", () => {
	it("route each request to a physical model; the selection names the virtual one; state follows the branch", async () => {
		const requests: ModelRouteRequest<unknown>[] = [];
		const h = await routerHarness(
			"auto",
			(request, ctx) => {
				requests.push(request);
				const count = ((request.state as { count?: number } | undefined)?.count ?? 0) + 1;
				const big = JSON.stringify(request.messages).includes("hard");
				const model = ctx.modelRegistry.find("faux", big ? "large" : "small")!;
				return { model, thinkingLevel: "off", state: { count } };
			},
			{ models: [{ id: "small" }, { id: "large" }] },
		);
		expect(`${h.session.model?.provider}/${h.session.model?.id}`).toBe("router/auto");
		h.faux.setResponses([fauxAssistantMessage("easy answer"), fauxAssistantMessage("hard answer")]);
		await h.session.prompt("an easy one");
		await h.session.prompt("a hard one");
		const answers = h.session.messages.flatMap((message) => (message.role === "assistant" ? [message.model] : []));
		expect(answers).toEqual(["small", "large"]);
		expect(requests.map((request) => request.reason)).toEqual(["user", "user"]);
		expect(requests[1]!.state).toEqual({ count: 1 });
		expect(requests[1]!.previous?.model.id).toBe("small");
		expect(h.session.routedModel?.model.id).toBe("large");
		const changes = h.sessionManager
			.getEntries()
			.flatMap((entry) => (entry.type === "model_change" ? [entry.modelId] : []));
		expect(changes).toEqual(["auto"]);
	});

	it("a throwing router ends the request with an error response attributed to the virtual model", async () => {
		const h = await routerHarness(
			"broken",
			() => {
				throw new Error("no route today");
			},
			{ settings: { retry: { enabled: false } } },
		);
		await h.session.prompt("hi");
		const last = h.session.messages.at(-1);
		expect(last).toMatchObject({ role: "assistant", stopReason: "error", provider: "router", model: "broken" });
		expect(h.faux.state.callCount).toBe(0);
	});

	it("a retry after a failure is routed with reason retry and the failed response", async () => {
		const reasons: string[] = [];
		const h = await routerHarness("auto", (request, ctx) => {
			reasons.push(`${request.reason}:${request.failed?.message.errorMessage ?? "-"}`);
			return { model: ctx.modelRegistry.find("faux", "faux-1")!, thinkingLevel: "off" };
		});
		h.faux.setResponses([
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "503 Service Unavailable" }),
			fauxAssistantMessage("ok"),
		]);
		await h.session.prompt("hi");
		expect(reasons).toEqual(["user:-", "retry:503 Service Unavailable"]);
		expect(h.session.getLastAssistantText()).toBe("ok");
	});
});
