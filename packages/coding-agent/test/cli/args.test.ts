import { parseArgs } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";

describe("parseArgs: the tokenizer of docs/design/cli.md#tokenizer", () => {
	it("reads messages, @file arguments and everything after --", () => {
		const args = parseArgs(["hello", "@a.txt", "--", "-x", "@b.png", "--model"]);
		expect(args.messages).toEqual(["hello", "-x", "--model"]);
		expect(args.fileArgs).toEqual(["a.txt", "b.png"]);
		expect(args.errors).toEqual([]);
	});

	it("lets a value flag take the next token even when it starts with -", () => {
		const args = parseArgs(["--tools", "-write,+grep", "--model", "sonnet:high"]);
		expect(args.tools).toEqual(["-write", "+grep"]);
		expect(args.model).toBe("sonnet:high");
	});

	it("reports a value flag given last instead of treating it as an extension flag", () => {
		const args = parseArgs(["--model"]);
		expect(args.errors).toEqual(["--model requires a value"]);
		expect(args.unknownFlags.size).toBe(0);
	});

	it("accumulates repeatable flags and keeps the last of the others", () => {
		const args = parseArgs(["-e", "a.ts", "--extension", "b.ts", "--model", "x", "--model", "y"]);
		expect(args.extensions).toEqual(["a.ts", "b.ts"]);
		expect(args.model).toBe("y");
	});

	it("validates --mode", () => {
		expect(parseArgs(["--mode", "json"]).mode).toBe("json");
		expect(parseArgs(["--mode"]).errors).toEqual(["--mode requires text, json, or rpc"]);
		const missing = parseArgs(["--mode", "-p"]);
		expect(missing.errors).toEqual(["--mode requires text, json, or rpc"]);
		expect(missing.print).toBe(true);
		expect(parseArgs(["--mode", "yaml"]).errors).toEqual(['Invalid mode "yaml". Valid values: text, json, rpc']);
	});

	it("lets -p consume a following message unless it is a flag or @file", () => {
		expect(parseArgs(["-p", "hi"]).messages).toEqual(["hi"]);
		expect(parseArgs(["-p", "---dashes"]).messages).toEqual(["---dashes"]);
		const flag = parseArgs(["-p", "--verbose"]);
		expect(flag.messages).toEqual([]);
		expect(flag.verbose).toBe(true);
		expect(parseArgs(["-p", "@f"]).fileArgs).toEqual(["f"]);
	});

	it("-p takes hello as its message; -- and --- let dash-led text through; @f.md stays a file", () => {
		expect(parseArgs(["-p", "hello"])).toMatchObject({ print: true, messages: ["hello"], errors: [] });
		expect(parseArgs(["-p", "--", "- x"])).toMatchObject({ print: true, messages: ["- x"], errors: [] });
		expect(parseArgs(["-p", "---", "x"])).toMatchObject({ print: true, messages: ["---", "x"], errors: [] });
		expect(parseArgs(["-p", "@f.md"])).toMatchObject({ print: true, messages: [], fileArgs: ["f.md"] });
	});

	it("splits list flags and validates the --tools grammar", () => {
		expect(parseArgs(["--models", " a, ,b ,"]).models).toEqual(["a", "b"]);
		expect(parseArgs(["-t", "read,+bash"]).errors).toEqual([
			"-t: tool names cannot be mixed with +name or -name entries",
		]);
		expect(parseArgs(["--tools", "+mcp__*"]).errors).toEqual([
			"--tools: +name and -name entries take exact tool names, not patterns: +mcp__*",
		]);
		expect(parseArgs(["-xt", "write"]).excludeTools).toEqual(["write"]);
	});

	it("warns about and ignores an invalid thinking level", () => {
		const args = parseArgs(["--thinking", "extreme"]);
		expect(args.thinking).toBeUndefined();
		expect(args.warnings).toEqual([
			'Invalid thinking level "extreme". Valid values: off, minimal, low, medium, high, xhigh, max',
		]);
		expect(parseArgs(["--thinking", "max"]).thinking).toBe("max");
	});

	it("collects unknown long flags for extensions, with = and with a value token", () => {
		const args = parseArgs(["--plan", "--depth=3", "--target", "prod", "--flag", "@x"]);
		expect([...args.unknownFlags]).toEqual([
			["plan", true],
			["depth", "3"],
			["target", "prod"],
			["flag", true],
		]);
		expect(args.fileArgs).toEqual(["x"]);
		// The = form is never a built-in option.
		expect(parseArgs(["--model=x"]).unknownFlags.get("model")).toBe("x");
	});

	it("rejects unknown short options", () => {
		expect(parseArgs(["-z"]).errors).toEqual(["Unknown option: -z"]);
	});

	it("handles --list-models, --tui-mode, --use-theme, --name and the approve pair", () => {
		expect(parseArgs(["--list-models"]).listModels).toBe(true);
		expect(parseArgs(["--list-models", "sonnet"]).listModels).toBe("sonnet");
		expect(parseArgs(["--list-models", "@f"]).listModels).toBe(true);
		expect(parseArgs(["--list-models", "-p"])).toMatchObject({ listModels: true, print: true, messages: [] });
		expect(parseArgs(["--tui-mode", "regular"]).tuiMode).toBe("regular");
		expect(parseArgs(["--tui-mode", "big"]).errors).toEqual([
			'Invalid TUI mode "big". Valid values: regular, fullscreen',
		]);
		expect(parseArgs(["--tui-mode"]).errors).toEqual(["--tui-mode requires regular or fullscreen"]);
		expect(parseArgs(["--use-theme", "-x"]).errors[0]).toBe("--use-theme requires a theme name");
		expect(parseArgs(["-n"]).errors).toEqual(["--name requires a value"]);
		expect(parseArgs(["-a", "-na"]).approve).toBe(false);
		expect(parseArgs(["--no-approve", "--approve"]).approve).toBe(true);
	});

	it("sets every boolean switch", () => {
		const args = parseArgs([
			"-c",
			"-r",
			"--no-session",
			"-nt",
			"-nbt",
			"-ne",
			"--no-mcp",
			"-ns",
			"-np",
			"--no-themes",
			"-nc",
			"--verbose",
			"--offline",
			"--offline-demo",
			"--tau-events",
		]);
		expect(args).toMatchObject({
			continue: true,
			resume: true,
			noSession: true,
			noTools: true,
			noBuiltinTools: true,
			noExtensions: true,
			noMcp: true,
			noSkills: true,
			noPromptTemplates: true,
			noThemes: true,
			noContextFiles: true,
			verbose: true,
			offline: true,
			offlineDemo: true,
			tauEvents: true,
		});
	});
});
