import { Container } from "@tau/tui";
import { describe, expect, it } from "vitest";
import { Lines } from "./helpers/components.js";

describe("Container", () => {
	it("returns the identical array while children are unchanged", () => {
		const c = new Container();
		const a = new Lines(["a"]);
		const b = new Lines(["b1", "b2"]);
		c.addChild(a);
		c.addChild(b);
		const first = c.render(10);
		expect(first).toEqual(["a", "b1", "b2"]);
		expect(c.render(10)).toBe(first);
		b.set(["b1", "b2"]); // new array, equal content
		expect(c.render(10)).toBe(first);
		b.set(["b1", "changed"]);
		const changed = c.render(10);
		expect(changed).not.toBe(first);
		expect(changed).toEqual(["a", "b1", "changed"]);
		expect(c.render(11)).not.toBe(changed);
	});

	it("routes mouse events to the child under the row", () => {
		const c = new Container();
		const hits: number[] = [];
		const a = new Lines(["a"]);
		const b = Object.assign(new Lines(["b1", "b2"]), {
			handleMouse: (e: { y: number }) => {
				hits.push(e.y);
				return { handled: true };
			},
		});
		c.addChild(a);
		c.addChild(b);
		c.render(10);
		const base = {
			type: "press",
			button: "left",
			x: 0,
			screenX: 0,
			screenY: 0,
			width: 10,
			height: 3,
			shift: false,
			alt: false,
			ctrl: false,
		} as const;
		expect(c.handleMouse({ ...base, y: 2 })).toEqual({ handled: true });
		expect(hits).toEqual([1]);
		expect(c.handleMouse({ ...base, y: 5 })).toBeUndefined();
	});
});
