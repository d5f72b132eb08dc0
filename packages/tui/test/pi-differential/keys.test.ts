import { expectSameAnswersAsPi, type OracleCall, oracleTitle, piOracle, seededRandom } from "@tau/testkit";
import * as tau from "@tau/tui";
import { describe, it } from "vitest";

const oracle = piOracle();

const LETTERS = [..."abcdefghijklmnopqrstuvwxyz"];
const SYMBOLS = [..."`-=[]\\;',./!@#$%^&*()_+|~{}:<>?"];
const SPECIAL = [
	"escape",
	"esc",
	"enter",
	"return",
	"tab",
	"space",
	"backspace",
	"delete",
	"insert",
	"clear",
	"home",
	"end",
	"pageUp",
	"pageDown",
	"up",
	"down",
	"left",
	"right",
	...Array.from({ length: 12 }, (_, i) => `f${i + 1}`),
];
const MODIFIERS = ["ctrl", "shift", "alt", "super"];

/** Key ids as bindings spell them: bare keys and modifier combinations in any order. */
function keyIds(random: ReturnType<typeof seededRandom>, count: number): string[] {
	const base = [...LETTERS, ..."0123456789", ...SYMBOLS, ...SPECIAL];
	const ids = [...base];
	for (let i = 0; i < count; i++) {
		const modifiers = MODIFIERS.filter(() => random.next() < 0.4);
		ids.push([...modifiers, random.pick(base)].join("+"));
	}
	return ids;
}

const CODEPOINTS = [97, 99, 65, 49, 32, 13, 9, 27, 127, 8, 1089, 1092, 1094, 945, 12354, 59, 91, 47, 57399, 57414];
const FUNCTIONAL = ["A", "B", "C", "D", "H", "F", "P", "Q", "R", "S", "E"];
const TILDE_CODES = [1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 14, 15, 17, 18, 19, 20, 21, 23, 24, 200, 201];

/** Terminal input: legacy bytes, xterm and rxvt sequences, modifyOtherKeys and Kitty CSI-u. */
function inputs(random: ReturnType<typeof seededRandom>, count: number): string[] {
	const fixed = [
		...LETTERS,
		...LETTERS.map((letter) => letter.toUpperCase()),
		...Array.from({ length: 32 }, (_, code) => String.fromCharCode(code)),
		"\x7f",
		" ",
		...SYMBOLS,
		...LETTERS.map((letter) => `\x1b${letter}`),
		"\x1b\x7f",
		"\x1b\b",
		"\x1b\r",
		"\x1b ",
		"\x1b\x1b",
		"\x1b[Z",
		"\x1bOA",
		"\x1bOP",
		"\x1b[3~",
		"\x1b[3;5~",
		"\x1b[1;5A",
		"\x1b[1;3D",
		"\x1b[1;2H",
		"\x1b[13;2u",
		"\x1b[27;5;99~",
		"\x1b[27;2;13~",
		// Ctrl+C pressed on a Cyrillic layout: the key reports its base-layout letter.
		"\x1b[1089::99;5u",
		"\x1b[1089::99;5:1u",
		"\x1b[1089::99;5:3u",
		"\x1b[1089;5u",
		"\x1b[99;5u",
		"\x1b[99;5:2u",
		"\x1b[97;9u",
		"\x1b[97;2u",
		"\x1b[97:65;2u",
		"\x1b[57399u",
		"\x1b[13u",
		"\x1b[27u",
		"\x1b[127;3u",
		"\x1b[9;2u",
		"中",
		"é",
		"\x1bé",
		"\x1b[200~",
		"\x1b[M abc",
		"\x1b[<0;10;5M",
	];
	const random_ = Array.from({ length: count }, () => {
		const modifiers = random.int(1, 16);
		const event = random.pick(["", ":1", ":2", ":3"]);
		const code = random.pick(CODEPOINTS);
		switch (random.int(0, 3)) {
			case 0: {
				const alternates = random.pick(["", `:${random.pick(CODEPOINTS)}`, `::${random.pick(CODEPOINTS)}`]);
				return `\x1b[${code}${alternates};${modifiers}${event}u`;
			}
			case 1:
				return `\x1b[1;${modifiers}${event}${random.pick(FUNCTIONAL)}`;
			case 2:
				return `\x1b[${random.pick(TILDE_CODES)};${modifiers}${event}~`;
			default:
				return `\x1b[27;${modifiers};${code}~`;
		}
	});
	return [...fixed, ...random_];
}

function keyCalls(kitty: boolean): OracleCall[] {
	const random = seededRandom(kitty ? 23 : 5);
	const ids = keyIds(random, 120);
	const calls: OracleCall[] = [{ fn: "setKittyProtocolActive", args: [kitty] }];
	for (const data of inputs(random, 400)) {
		calls.push({ fn: "parseKey", args: [data] });
		calls.push({ fn: "decodeKittyPrintable", args: [data] });
		calls.push({ fn: "isKeyRelease", args: [data] });
		calls.push({ fn: "isKeyRepeat", args: [data] });
		for (const id of ids) calls.push({ fn: "matchesKey", args: [data, id] });
	}
	return calls;
}

describe.skipIf(!oracle.available)(oracleTitle(oracle, "pi-tui key parsing against pi 1.6"), () => {
	for (const kitty of [false, true]) {
		it(`parseKey and matchesKey answer as pi does with the Kitty protocol ${kitty ? "on" : "off"}`, async () => {
			await expectSameAnswersAsPi(oracle, "@earendil-works/pi-tui", tau, keyCalls(kitty));
		});
	}

	it("Key helpers build the same ids", async () => {
		const helpers = ["ctrl", "shift", "alt", "super", "ctrlShift", "shiftCtrl", "ctrlAlt", "altCtrl", "shiftAlt"];
		const calls = helpers.flatMap((helper) =>
			["c", "enter", "/"].map((key) => ({ fn: `Key.${helper}`, args: [key] })),
		);
		await expectSameAnswersAsPi(oracle, "@earendil-works/pi-tui", tau, calls);
	});
});
