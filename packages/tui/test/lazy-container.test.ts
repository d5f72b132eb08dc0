import { LazyContainer } from "@tau/tui";
import { describe, expect, it } from "vitest";
import { Lines, numbered } from "./helpers/components.js";

const nextImmediate = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A history of `count` three-line messages. */
function history(container: LazyContainer, count: number): Lines[] {
	const messages = Array.from({ length: count }, (_, i) => new Lines(numbered(3, `message ${i} line`)));
	for (const message of messages) container.addChild(message);
	return messages;
}

function lazy(reveal: "progressive" | "whole", firstFrameLines = 10) {
	let frames = 0;
	const container = new LazyContainer({
		firstFrameLines: () => firstFrameLines,
		reveal: () => reveal,
		requestRender: () => frames++,
	});
	return { container, frames: () => frames };
}

describe("LazyContainer", () => {
	it("the first frame draws only the end of a long history; the rest is drawn later", async () => {
		const { container, frames } = lazy("progressive");
		const messages = history(container, 2_000);
		const full = messages.flatMap((m) => m.lines);
		container.deferHead();
		const first = container.render(40);
		// Whole messages from the end until 10 lines are filled: four of three lines.
		expect(first).toEqual(full.slice(-12));
		expect(messages[0]!.renders).toBe(0);
		expect(container.headPending).toBe(true);
		let previous = first;
		while (container.headPending) {
			await nextImmediate();
			const lines = container.render(40);
			// Each reveal adds earlier messages and keeps what was shown.
			expect(full.slice(full.length - lines.length)).toEqual(lines);
			expect(lines.length).toBeGreaterThanOrEqual(previous.length);
			previous = lines;
		}
		expect(container.render(40)).toEqual(full);
		expect(frames()).toBeGreaterThan(0);
	});

	it('"whole" reveals every earlier child at once, when all are drawn', async () => {
		const { container, frames } = lazy("whole");
		const messages = history(container, 2_000);
		const full = messages.flatMap((m) => m.lines);
		container.deferHead();
		const tail = container.render(40);
		expect(tail).toEqual(full.slice(-12));
		while (container.headPending) {
			await nextImmediate();
			const lines = container.render(40);
			expect(lines.length === tail.length || lines.length === full.length).toBe(true);
		}
		expect(container.render(40)).toEqual(full);
		expect(frames()).toBe(1);
		// The background slices drew every message before revealing them.
		expect(messages.every((m) => m.renders >= 1)).toBe(true);
	});

	it("appended children are drawn at once; revealAll and clear end the deferral", () => {
		const { container } = lazy("progressive");
		const messages = history(container, 100);
		container.deferHead();
		container.render(40);
		const added = new Lines(["new reply"]);
		container.addChild(added);
		expect(container.render(40).at(-1)).toBe("new reply");
		container.revealAll();
		expect(container.headPending).toBe(false);
		expect(container.render(40)).toEqual([...messages.flatMap((m) => m.lines), "new reply"]);
		container.deferHead();
		container.clear();
		expect(container.headPending).toBe(false);
		expect(container.render(40)).toEqual([]);
	});

	it("a history that fits the first frame is drawn whole, and without options nothing is held back", () => {
		const { container } = lazy("progressive", 100);
		const messages = history(container, 5);
		container.deferHead();
		expect(container.render(40)).toEqual(messages.flatMap((m) => m.lines));
		expect(container.headPending).toBe(false);
		const plain = new LazyContainer();
		const many = history(plain, 50);
		plain.deferHead();
		expect(plain.render(40)).toEqual(many.flatMap((m) => m.lines));
	});

	describe("deferEarlier: children built only when drawn", () => {
		/** `count` three-line messages handed out in batches of `size`, latest first, counting what was built. */
		function batches(count: number, size: number) {
			const messages = Array.from({ length: count }, (_, i) => new Lines(numbered(3, `message ${i} line`)));
			let end = count;
			let built = 0;
			const next = () => {
				const start = Math.max(0, end - size);
				const batch = messages.slice(start, end);
				end = start;
				built += batch.length;
				return batch;
			};
			return { messages, next, built: () => built, full: messages.flatMap((m) => m.lines) };
		}

		it("the first frame builds only the batches it draws; the rest are built and revealed in order", async () => {
			const { container } = lazy("progressive");
			const history = batches(2_000, 32);
			const tail = new Lines(["after"]);
			container.addChild(tail);
			container.deferEarlier(history.next);
			expect(container.headPending).toBe(true);
			expect(history.built()).toBe(0);
			const first = container.render(40);
			expect(first).toEqual([...history.full.slice(-9), "after"]);
			expect(history.built()).toBe(32);
			while (container.headPending) {
				await nextImmediate();
				const lines = container.render(40);
				expect([...history.full, "after"].slice(-lines.length)).toEqual(lines);
			}
			expect(history.built()).toBe(2_000);
			expect(container.render(40)).toEqual([...history.full, "after"]);
		});

		it('"whole" reveals the built history at once', async () => {
			const { container, frames } = lazy("whole");
			const history = batches(500, 32);
			container.deferEarlier(history.next);
			expect(container.render(40)).toEqual(history.full.slice(-12));
			while (container.headPending) {
				await nextImmediate();
				const lines = container.render(40);
				expect(lines.length === 12 || lines.length === history.full.length).toBe(true);
			}
			expect(container.render(40)).toEqual(history.full);
			expect(frames()).toBe(1);
		});

		it("revealAll builds every batch; clear drops the unbuilt ones; without options all are built at once", () => {
			const { container } = lazy("progressive");
			const history = batches(300, 32);
			container.deferEarlier(history.next);
			container.render(40);
			container.revealAll();
			expect(history.built()).toBe(300);
			expect(container.headPending).toBe(false);
			expect(container.render(40)).toEqual(history.full);

			const dropped = batches(300, 32);
			container.deferEarlier(dropped.next);
			container.clear();
			expect(dropped.built()).toBe(0);
			expect(container.headPending).toBe(false);
			expect(container.render(40)).toEqual([]);

			const plain = new LazyContainer();
			const eager = batches(100, 32);
			plain.deferEarlier(eager.next);
			expect(eager.built()).toBe(100);
			expect(plain.render(40)).toEqual(eager.full);
		});
	});
});
