import { callPi, expectSameAnswersAsPi, type OracleCall, oracleTitle, piOracle, seededRandom } from "@tau/testkit";
import * as tau from "@tau/tui";
import { describe, expect, it } from "vitest";
import { textSamples } from "./inputs.js";

const oracle = piOracle();
const WIDTHS = [0, 1, 2, 3, 4, 5, 7, 10, 16, 40];
const ELLIPSES = ["...", "…", "", "\x1b[2m…\x1b[22m", "中", "👍🏽"];
/** Pieces only wrapping sees across lines, and links closed with BEL. */
const WRAP_PIECES = ["\n", "\r\n", "\x1b]8;;https://example.com/b\x07", "\x1b]8;;\x07", "\x1b[9m", "\x1b[7m"];

function textCalls(): OracleCall[] {
	const random = seededRandom(7);
	const calls: OracleCall[] = [];
	for (const text of textSamples(11, 1200, WRAP_PIECES)) {
		calls.push({ fn: "visibleWidth", args: [text] });
		calls.push({ fn: "stripTerminalSequences", args: [text] });
		calls.push({ fn: "replaceControlCharacters", args: [text] });
		const width = random.pick(WIDTHS);
		calls.push({ fn: "truncateToWidth", args: [text, width] });
		calls.push({ fn: "truncateToWidth", args: [text, width, random.pick(ELLIPSES), random.next() < 0.5] });
		calls.push({ fn: "wrapTextWithAnsi", args: [text, Math.max(1, width)] });
		const start = random.int(0, 6);
		calls.push({ fn: "sliceByColumn", args: [text, start, width] });
		calls.push({ fn: "sliceByColumn", args: [text, start, width, true] });
		calls.push({ fn: "getOsc8LinkAtColumn", args: [text, random.int(0, 8)] });
	}
	return calls;
}

describe.skipIf(!oracle.available)(oracleTitle(oracle, "pi-tui text utilities against pi 1.6"), () => {
	it("width, truncation, wrapping, slicing and link lookup answer as pi does on generated text", async () => {
		await expectSameAnswersAsPi(oracle, "@earendil-works/pi-tui", tau, textCalls());
	});

	// A deliberate difference: pi measures each run between escapes on its own when it cuts, while its
	// visibleWidth (and the terminal) joins marks after an escape to the grapheme before it, so pi's cut
	// can be a column wider than asked. tau cuts such a line narrower; where pi's line fits, both agree.
	it("cuts a line whose marks follow an escape no wider than asked, where pi's cut overflows", () => {
		if (!oracle.available) return;
		const row = "→ \x1b[1m\u0d3c\u1de7\u0a03\u0e98  漢字\x1b[0m…\x1b[0m\x1b[22m";
		const [cut9, cut11] = callPi(oracle, "@earendil-works/pi-tui", [
			{ fn: "truncateToWidth", args: [row, 9, ""] },
			{ fn: "truncateToWidth", args: [row, 11, ""] },
		]).map((result) => ("value" in result ? (result.value as string) : result.error));
		expect(tau.visibleWidth(cut9!)).toBe(10);
		expect(tau.visibleWidth(tau.truncateToWidth(row, 9, ""))).toBeLessThanOrEqual(9);
		expect(tau.truncateToWidth(row, 11, "")).toBe(cut11);
	});
});
