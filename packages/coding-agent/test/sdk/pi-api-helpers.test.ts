import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage, fauxProvider } from "@tau/ai";
import {
	AuthStorage,
	CredentialSynchronizationError,
	convertToPng,
	copyToClipboard,
	DefaultPackageManager,
	detectSupportedImageMimeTypeFromFile,
	discoverAndLoadExtensions,
	ExtensionRunner,
	formatDimensionNote,
	generateSummary,
	ModelRuntime,
	resizeImage,
	SettingsManager,
	wrapRegisteredTools,
} from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { png, rgbPng } from "../tools/images.js";

const temp = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** The helpers SDK users and extensions import from @tau/coding-agent under pi's names (docs/sdk.md). */
describe("copyToClipboard", () => {
	it("pipes the text to the platform's clipboard command", async () => {
		const bin = temp("tau-clip-bin-");
		const target = join(bin, "clipboard.txt");
		writeFileSync(join(bin, "xclip"), `#!/bin/sh\ncat > ${JSON.stringify(target)}\n`);
		chmodSync(join(bin, "xclip"), 0o755);
		const env = { DISPLAY: ":0", PATH: `${bin}:${process.env.PATH}` };
		const previous = process.env.PATH;
		process.env.PATH = env.PATH;
		try {
			await copyToClipboard("copied ✓", { platform: "linux", env });
		} finally {
			process.env.PATH = previous;
		}
		expect(readFileSync(target, "utf8")).toBe("copied ✓");
	});

	it("uses the terminal (OSC 52) over SSH or without a display, and rejects when nothing works", async () => {
		const written: string[] = [];
		await copyToClipboard("hi", { platform: "linux", env: {}, write: (data) => written.push(data) });
		await copyToClipboard("hi", {
			platform: "linux",
			env: { SSH_CONNECTION: "1 2 3 4" },
			write: (data) => written.push(data),
		});
		expect(written).toEqual(["\x1b]52;c;aGk=\x07", "\x1b]52;c;aGk=\x07"]);
		await expect(
			copyToClipboard("hi", { platform: "linux", env: { DISPLAY: ":0", PATH: "/nonexistent" } }),
		).rejects.toThrow("Could not copy to the clipboard");
	});
});

describe("image helpers", () => {
	it("resizeImage scales a PNG into the box and notes the coordinate mapping; a fitting image is kept", async () => {
		const big = rgbPng(400, 200, (x, y) => [x % 256, y % 256, 128]);
		const resized = await resizeImage(big, "image/png", { maxWidth: 100, maxHeight: 100 });
		expect(resized).toMatchObject({
			mimeType: "image/png",
			originalWidth: 400,
			originalHeight: 200,
			width: 100,
			height: 50,
			wasResized: true,
		});
		expect(formatDimensionNote(resized!)).toBe(
			"[Image: original 400x200, displayed at 100x50. Multiply coordinates by 4.00 to map to original image.]",
		);
		const kept = await resizeImage(png(), "image/png");
		expect(kept).toMatchObject({ width: 1, height: 1, wasResized: false, data: png().toString("base64") });
		expect(formatDimensionNote(kept!)).toBeUndefined();
	});

	it("resizeImage returns null for a format it cannot decode that does not fit", async () => {
		const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64)]);
		expect(await resizeImage(jpeg, "image/jpeg", { maxBytes: 10 })).toBeNull();
	});

	it("convertToPng passes PNG through and answers null for formats it cannot convert", async () => {
		const data = png().toString("base64");
		expect(await convertToPng(data, "image/png")).toEqual({ data, mimeType: "image/png" });
		expect(await convertToPng("AAAA", "image/webp")).toBeNull();
	});

	it("detectSupportedImageMimeTypeFromFile reads the leading bytes, never the extension", async () => {
		const dir = temp("tau-mime-");
		writeFileSync(join(dir, "picture.txt"), png());
		writeFileSync(join(dir, "notes.png"), "just text");
		expect(await detectSupportedImageMimeTypeFromFile(join(dir, "picture.txt"))).toBe("image/png");
		expect(await detectSupportedImageMimeTypeFromFile(join(dir, "notes.png"))).toBeNull();
	});
});

describe("extension helpers", () => {
	it("discoverAndLoadExtensions loads the project's, then the user's, then the configured ones, each once", async () => {
		const cwd = temp("tau-discover-");
		const agentDir = temp("tau-discover-agent-");
		const write = (path: string, name: string) => {
			mkdirSync(join(path, ".."), { recursive: true });
			writeFileSync(
				path,
				`export default function (pi) { pi.registerCommand(${JSON.stringify(name)}, { handler: async () => {} }); }`,
			);
		};
		write(join(cwd, ".tau", "extensions", "project.js"), "project");
		write(join(agentDir, "extensions", "user.js"), "user");
		write(join(cwd, "extra.js"), "extra");
		const result = await discoverAndLoadExtensions(["extra.js", ".tau/extensions/project.js"], cwd, agentDir);
		expect(result.errors).toEqual([]);
		expect(result.extensions.map((extension) => [...extension.commands.keys()])).toEqual([
			["project"],
			["user"],
			["extra"],
		]);
	});

	it("wrapRegisteredTools turns extension tools into agent tools that run with the runner's context", async () => {
		const dir = temp("tau-wrap-");
		writeFileSync(
			join(dir, "tool.js"),
			`export default function (pi) {
	pi.registerTool({ name: "where", label: "Where", description: "cwd", parameters: { type: "object", properties: {} },
		execute: async (_id, _params, _signal, _update, ctx) => ({ content: [{ type: "text", text: ctx.cwd }], details: {} }) });
}`,
		);
		const loaded = await discoverAndLoadExtensions(["tool.js"], dir, temp("tau-wrap-agent-"));
		const runner = new ExtensionRunner({
			extensions: loaded.extensions as never,
			runtime: loaded.runtime as never,
			cwd: dir,
		});
		const [tool] = wrapRegisteredTools(runner.getTools(), runner);
		expect(tool?.name).toBe("where");
		const result = await tool!.execute("call-1", {});
		expect(result.content).toEqual([{ type: "text", text: dir }]);
	});
});

describe("generateSummary", () => {
	it("summarizes the messages with one request through the given stream function", async () => {
		const faux = fauxProvider({ models: [{ id: "summarizer" }] });
		faux.setResponses([fauxAssistantMessage("The user said hello.")]);
		const model = faux.getModel();
		const messages = [{ role: "user" as const, content: "hello", timestamp: 1 }];
		const summary = await generateSummary(
			messages,
			model,
			undefined,
			"key",
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
			(m, context, options) => faux.provider.streamSimple(m, context, options),
		);
		expect(summary).toBe("The user said hello.");
		expect(faux.state.callCount).toBe(1);
	});
});

describe("ModelRuntime credential changes", () => {
	it("reports a change it could not apply to a broken provider as CredentialSynchronizationError", async () => {
		const runtime = new ModelRuntime({
			credentials: AuthStorage.inMemory(),
			builtinProviders: [],
			modelsJsonPath: null,
		});
		runtime.registerProvider("broken", {
			baseUrl: "http://127.0.0.1:9",
			api: "openai-completions",
			models: [{ id: "m" }],
		} as never);
		const failure = await runtime.setRuntimeApiKey("broken", "k").catch((error: unknown) => error);
		expect(failure).toBeInstanceOf(CredentialSynchronizationError);
		expect(failure).toMatchObject({ providerId: "broken", operation: "setRuntimeApiKey" });
	});
});

describe("DefaultPackageManager", () => {
	it("adds and removes settings entries and lists the configured packages", async () => {
		const cwd = temp("tau-packages-");
		const agentDir = temp("tau-packages-agent-");
		mkdirSync(join(cwd, "local-package"));
		const settingsManager = SettingsManager.inMemory({});
		const manager = new DefaultPackageManager({ cwd, agentDir, settingsManager, commandOutput: "capture" });
		expect(manager.addSourceToSettings("npm:some-package@1.0.0")).toBe(true);
		expect(manager.addSourceToSettings("npm:some-package@2.0.0")).toBe(false);
		expect(settingsManager.getGlobalSettings().packages).toEqual(["npm:some-package@1.0.0"]);
		expect(manager.listConfiguredPackages().map((entry) => entry.source)).toEqual(["npm:some-package@1.0.0"]);
		expect(manager.getInstalledPath("npm:some-package", "user")).toBe(
			join(agentDir, "npm", "node_modules", "some-package"),
		);
		expect(manager.getInstalledPath(join(cwd, "local-package"), "user")).toBeUndefined();
		expect(manager.removeSourceFromSettings("npm:some-package")).toBe(true);
		expect(manager.removeSourceFromSettings("npm:some-package")).toBe(false);
		expect(settingsManager.getGlobalSettings().packages).toEqual([]);
	});
});
