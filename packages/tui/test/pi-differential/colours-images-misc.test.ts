import { expectSameAnswersAsPi, type OracleCall, oracleTitle, piOracle, seededRandom } from "@tau/testkit";
import * as tau from "@tau/tui";
import { describe, it } from "vitest";

const oracle = piOracle();
const PI_TUI = "@earendil-works/pi-tui";

/** Floats computed by two independent implementations agree to this many decimal places. */
const DIGITS = 9;

function rounded(value: unknown): unknown {
	if (typeof value === "number") return Number(value.toFixed(DIGITS));
	if (Array.isArray(value)) return value.map(rounded);
	if (value && typeof value === "object") {
		return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, rounded(item)]));
	}
	return value;
}

function colourCalls(): OracleCall[] {
	const random = seededRandom(31);
	const channel = () => random.int(0, 255);
	const unit = () => Math.round(random.next() * 1000) / 1000;
	const specs: (string | number)[] = [
		0,
		7,
		8,
		15,
		16,
		231,
		232,
		255,
		256,
		-1,
		1.5,
		"#fff",
		"#000000",
		"#12ab9F",
		"#12ab9",
		"oklch(50% 0.1 120)",
		"oklch(0.7 0.2 400deg)",
		"oklch(1 0.3 150)",
		"oklch(120% 0.1 10)",
		"okhsl(264 100% 40%)",
		"okhsl(0 0% 0%)",
		"okhsl(90deg 50% 100%)",
		"okhsl(30 0.5 0.5)",
		"okhsl(30 150% 50%)",
		"red",
		"",
	];
	for (let i = 0; i < 150; i++) {
		specs.push(`#${[channel(), channel(), channel()].map((c) => c.toString(16).padStart(2, "0")).join("")}`);
		specs.push(`oklch(${unit()} ${Math.round(random.next() * 400) / 1000} ${random.int(-30, 400)})`);
		specs.push(`okhsl(${random.int(0, 359)} ${unit()} ${unit()})`);
		specs.push(random.int(0, 255));
	}
	const calls: OracleCall[] = [];
	for (const spec of specs) calls.push({ fn: "parseColor", args: [spec] });
	const colours = specs.filter((spec) => {
		try {
			tau.parseColor(spec);
			return true;
		} catch {
			return false;
		}
	});
	for (const spec of colours) {
		const color = tau.parseColor(spec);
		for (const fn of ["colorToRgb", "colorToHex", "colorToOklch", "colorToOkhsl"]) calls.push({ fn, args: [color] });
		for (const mode of ["truecolor", "256color"]) {
			calls.push({ fn: "foregroundAnsi", args: [color, mode] });
			calls.push({ fn: "backgroundAnsi", args: [color, mode] });
		}
		const other = tau.parseColor(random.pick(colours));
		const amount = random.pick([0, 0.25, 0.5, 1, 1.5, unit()]);
		calls.push({ fn: "mixColors", args: [color, other, amount] });
		calls.push({ fn: "mixColors", args: [color, other, amount, "srgb"] });
		const attributes = { bold: random.next() < 0.5, dim: random.next() < 0.3, italic: random.next() < 0.3 };
		calls.push({
			fn: "styleText",
			args: ["x", { fg: color, bg: other, ...attributes }, random.pick(["truecolor", "256color"])],
		});
		calls.push({ fn: "styleTextWithAnsi", args: ["y", "\x1b[31m", undefined, { underline: true, inverse: true }] });
	}
	for (let i = 0; i < 60; i++) {
		calls.push({ fn: "rgbColor", args: [random.int(-5, 260), channel(), channel()] });
		calls.push({
			fn: "oklchColor",
			args: [random.pick([unit(), 1.2, -0.1]), random.pick([unit(), -1]), random.int(-720, 720)],
		});
		calls.push({ fn: "okhslColor", args: [random.int(-720, 720), random.pick([unit(), 2]), unit()] });
		calls.push({ fn: "indexedColor", args: [random.int(-2, 260)] });
		calls.push({ fn: "oklabToOkhslLightness", args: [unit()] });
	}
	return calls;
}

function miscCalls(): OracleCall[] {
	const random = seededRandom(3);
	const calls: OracleCall[] = [];
	const words = ["model", "claude-opus-4", "openrouter/anthropic/claude-opus", "gpt-5", "src/tui/main.ts", "README"];
	const queries = ["", "mod", "opus", "opus4", "4opus", "gpt5", "ctm", "xyz", "MODEL", "src main", "a/b"];
	for (const query of queries) for (const word of words) calls.push({ fn: "fuzzyMatch", args: [query, word] });
	for (const report of ["\x1b[?997;1n", "\x1b[?997;2n", "\x1b[?997;1n\x1b[?997;2n", "\x1b[?997;3n", "x"]) {
		calls.push({ fn: "parseTerminalColorSchemeReport", args: [report] });
	}
	calls.push({ fn: "hyperlink", args: ["text", "https://example.com"] });
	calls.push({ fn: "renderFakeCursor", args: ["x"] });
	for (const status of [
		{ state: "working", app: "tau" },
		{ state: "blocked", kind: "permission", message: " run\nrm? " },
		{ state: "idle", app: "bad app name!" },
		{ state: "done", message: "é".repeat(3000) },
		{ state: "clear" },
	]) {
		calls.push({ fn: "formatProgramStatus", args: [status] });
	}
	for (let i = 0; i < 80; i++) {
		const image = { widthPx: random.int(1, 4000), heightPx: random.int(1, 4000) };
		calls.push({ fn: "calculateImageRows", args: [image, random.int(1, 200)] });
		calls.push({ fn: "calculateImageRows", args: [image, random.int(1, 200), { widthPx: 8, heightPx: 17 }] });
	}
	const png = (w: number, h: number) => {
		const header = Buffer.alloc(24);
		header.writeUInt32BE(0x89504e47, 0);
		header.writeUInt32BE(w, 16);
		header.writeUInt32BE(h, 20);
		return header.toString("base64");
	};
	const gif = Buffer.from("GIF89a\x10\x00\x20\x00\x00\x00\x00", "latin1").toString("base64");
	for (const [data, mime] of [
		[png(320, 200), "image/png"],
		[gif, "image/gif"],
		["AAAA", "image/png"],
		["", "image/jpeg"],
	]) {
		calls.push({ fn: "getImageDimensions", args: [data, mime] });
	}
	calls.push({ fn: "getPngDimensions", args: [png(1, 2)] });
	calls.push({ fn: "getGifDimensions", args: [gif] });
	calls.push({ fn: "encodeKitty", args: ["A".repeat(9000), { columns: 3, rows: 2, imageId: 7, moveCursor: false }] });
	calls.push({ fn: "encodeKitty", args: ["AAAA"] });
	calls.push({
		fn: "encodeITerm2",
		args: ["AAAA", { width: 10, height: "auto", name: "a.png", preserveAspectRatio: false }],
	});
	calls.push({ fn: "encodeITerm2", args: ["AAAA", { inline: false }] });
	calls.push({ fn: "deleteKittyImage", args: [9] });
	calls.push({ fn: "deleteAllKittyImages", args: [] });
	for (const images of [null, "kitty", "iterm2"]) {
		calls.push({ fn: "setCapabilities", args: [{ images, trueColor: true, hyperlinks: false }] });
		calls.push({
			fn: "renderImage",
			args: [png(90, 36), { widthPx: 90, heightPx: 36 }, { maxWidthCells: 20, imageId: 5 }],
		});
		calls.push({ fn: "renderImage", args: [png(900, 360), { widthPx: 900, heightPx: 360 }, { maxHeightCells: 3 }] });
		calls.push({ fn: "imageFallback", args: ["image/png", { widthPx: 1, heightPx: 2 }, "/tmp/x.png"] });
	}
	return calls;
}

describe.skipIf(!oracle.available)(
	oracleTitle(oracle, "pi-tui colours, images and small helpers against pi 1.6"),
	() => {
		it("colour parsing, conversion, mixing and SGR output answer as pi does", async () => {
			const normalize = (json: string) => JSON.stringify(rounded(JSON.parse(json)));
			await expectSameAnswersAsPi(oracle, PI_TUI, tau, colourCalls(), { normalize });
		});

		it("fuzzy matching, image sizing and encoding, program status and scheme reports answer as pi does", async () => {
			await expectSameAnswersAsPi(oracle, PI_TUI, tau, miscCalls());
		});
	},
);
