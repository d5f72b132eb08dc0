import * as tau from "@tau/ai";
import {
	expectSameAnswersAsPi,
	type OracleCall,
	type OracleNormalizer,
	oracleTitle,
	piOracle,
	type SeededRandom,
	seededRandom,
} from "@tau/testkit";
import { describe, it } from "vitest";

const oracle = piOracle();

/**
 * Not differences of tau: pi runs on Node 22, whose `JSON.parse` messages add "(line L column C)". On
 * purpose (docs/pi-compatibility.md): tau's error for arguments that are not an object names what they are.
 */
const normalize: OracleNormalizer = (json, side) => {
	const withoutPosition = json.replace(/ \(line \d+ column \d+\)/g, "");
	return side === "tau"
		? withoutPosition.replace(/(must be a JSON object), got (?:null|an array|boolean|number|string)/g, "$1")
		: withoutPosition;
};

/** A random JSON value of bounded depth, with the strings and numbers models tend to produce. */
function jsonValue(random: SeededRandom, depth: number): unknown {
	const kind = random.int(0, depth > 2 ? 4 : 6);
	switch (kind) {
		case 0:
			return random.pick([
				"",
				"a",
				"path/to/file.ts",
				'quo"te',
				"back\\slash",
				"line\nbreak",
				"tab\t",
				"é中😀",
				"\u0000",
			]);
		case 1:
			return random.pick([0, -1, 3.5, 1e21, -0.001, 42, 2 ** 60]);
		case 2:
			return random.pick([true, false, null]);
		case 3:
			return random.string(["x", "y", " ", "{", "}", "[", "]", ":", ",", '"'], random.int(0, 6));
		case 4:
			return random.int(-100, 100);
		case 5:
			return Array.from({ length: random.int(0, 4) }, () => jsonValue(random, depth + 1));
		default:
			return Object.fromEntries(
				Array.from({ length: random.int(0, 4) }, (_, i) => [
					random.pick(["path", "content", "old", "new", `k${i}`, "é"]),
					jsonValue(random, depth + 1),
				]),
			);
	}
}

/** Model-style damage: trailing commas, raw newlines and tabs in strings, single quotes, unquoted keys. */
function damaged(random: SeededRandom, text: string): string {
	switch (random.int(0, 6)) {
		case 0:
			return text.replace(/([}\]])/, ",$1");
		case 1:
			return text.replace(/\\n/g, "\n").replace(/\\t/g, "\t");
		case 2:
			return text.replace(/"/g, "'");
		case 3:
			return text.replace(/"(\w+)":/g, "$1:");
		case 4:
			return `${text}\n`;
		case 5:
			return text.replace(/\\\\/g, "\\");
		default:
			return `\`\`\`json\n${text}\n\`\`\``;
	}
}

function jsonCalls(): OracleCall[] {
	const random = seededRandom(101);
	const calls: OracleCall[] = [];
	const edges = [
		"",
		" ",
		"{",
		"[",
		'{"a":',
		'{"a": "unterminated',
		'{"a": 1,}',
		"{'a': 'b'}",
		"null",
		"true",
		"1",
		'"s"',
		"{}}",
		'{"a":1} trailing',
		"[1,2",
		'{"a":[1,{"b":',
	];
	for (const text of edges) calls.push(...callsFor(text));
	for (let i = 0; i < 250; i++) {
		const value = { [random.pick(["path", "command", "edits"])]: jsonValue(random, 0) };
		const text = JSON.stringify(value, null, random.next() < 0.3 ? 2 : undefined);
		calls.push(...callsFor(text));
		calls.push(...callsFor(damaged(random, text)));
		// Every prefix a stream would deliver, thinned out.
		for (let end = 1; end < text.length; end += random.int(1, 7)) {
			calls.push({ fn: "parseStreamingJson", args: [text.slice(0, end)] });
		}
	}
	return calls;
}

function callsFor(text: string): OracleCall[] {
	return [
		{ fn: "parseStreamingJson", args: [text] },
		{ fn: "parseJsonWithRepair", args: [text] },
		{ fn: "repairJson", args: [text] },
		{ fn: "parseToolCallArguments", args: [text] },
	];
}

describe.skipIf(!oracle.available)(oracleTitle(oracle, "pi-ai JSON parsing against pi 1.6"), () => {
	it("streaming, repairing and tool-argument parsing answer as pi does on generated JSON", async () => {
		await expectSameAnswersAsPi(oracle, "@earendil-works/pi-ai", tau, jsonCalls(), { normalize });
	});
});
