import { expectSameAnswersAsPi, type OracleCall, oracleTitle, piOracle, seededRandom } from "@tau/testkit";
import * as tau from "@tau/tui";
import { describe, it } from "vitest";
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
});
