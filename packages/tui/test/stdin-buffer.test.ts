import { StdinBuffer } from "@tau/tui";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

function collect(buffer: StdinBuffer) {
	const events: string[] = [];
	buffer.on("data", (d) => events.push(d));
	buffer.on("paste", (p) => events.push(`PASTE:${p}`));
	return events;
}

beforeEach(() => {
	vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
});
afterEach(() => {
	vi.useRealTimers();
});

describe("StdinBuffer", () => {
	it("splits text per code point, keeping surrogate pairs", () => {
		const b = new StdinBuffer();
		const events = collect(b);
		b.process("a😀日");
		expect(events).toEqual(["a", "😀", "日"]);
	});

	it("emits complete escape sequences", () => {
		const b = new StdinBuffer();
		const events = collect(b);
		b.process("\x1b[A\x1b[1;5D\x1bOP\x1b]11;rgb:0/0/0\x07\x1b[<0;3;4M");
		expect(events).toEqual(["\x1b[A", "\x1b[1;5D", "\x1bOP", "\x1b]11;rgb:0/0/0\x07", "\x1b[<0;3;4M"]);
	});

	it("delivers a lone ESC after the escape timeout", () => {
		const b = new StdinBuffer({ escapeTimeout: 10 });
		const events = collect(b);
		b.process("\x1b");
		vi.advanceTimersByTime(9);
		expect(events).toEqual([]);
		vi.advanceTimersByTime(1);
		expect(events).toEqual(["\x1b"]);
	});

	it("reads ESC + x in one chunk as Alt+x", () => {
		const b = new StdinBuffer();
		const events = collect(b);
		b.process("\x1bx");
		expect(events).toEqual(["\x1bx"]);
	});

	it("joins a sequence split across chunks", () => {
		const b = new StdinBuffer();
		const events = collect(b);
		b.process("\x1b[1;");
		b.process("5D");
		expect(events).toEqual(["\x1b[1;5D"]);
	});

	it("collects a bracketed paste split across five chunks into one event", () => {
		const b = new StdinBuffer();
		const events = collect(b);
		for (const chunk of ["x\x1b[20", "0~hello ", "wor", "ld:3u\x1b[2", "01~y"]) b.process(chunk);
		expect(events).toEqual(["x", "PASTE:hello world:3u", "y"]);
	});

	it("splits ESC ESC [ into a lone Escape and a sequence", () => {
		const b = new StdinBuffer();
		const events = collect(b);
		b.process("\x1b\x1b[27;1:3u");
		expect(events).toEqual(["\x1b", "\x1b[27;1:3u"]);
	});

	it("drops a Kitty duplicate of a printable key", () => {
		const b = new StdinBuffer();
		const events = collect(b);
		b.process("\x1b[97ua");
		expect(events).toEqual(["\x1b[97u"]);
	});

	it("re-reads an unterminated control string as Alt+key after the timeout", () => {
		const b = new StdinBuffer();
		const events = collect(b);
		b.process("\x1b]abc");
		vi.advanceTimersByTime(50);
		expect(events).toEqual(["\x1b]", "a", "b", "c"]);
	});

	it("waits without timeout for a recognised terminal reply", () => {
		const b = new StdinBuffer();
		const events = collect(b);
		b.process("\x1b]11;rgb:1");
		vi.advanceTimersByTime(1000);
		expect(events).toEqual([]);
		b.process("/2/3\x1b\\");
		expect(events).toEqual(["\x1b]11;rgb:1/2/3\x1b\\"]);
	});

	it("converts a single high byte to Alt + key", () => {
		const b = new StdinBuffer();
		const events = collect(b);
		b.process(Buffer.from([0xe1]));
		expect(events).toEqual(["\x1ba"]);
	});

	it("drops a terminal reply interrupted by CAN and keeps what follows", () => {
		const b = new StdinBuffer();
		const events = collect(b);
		b.process("\x1b]11;rgb:00\x18x");
		expect(events).toEqual(["x"]);
	});
});
