import { describe, expect, it } from "vitest";
import { failure, okValue, run, sandbox, tool } from "./helpers.js";

const b64 = (bytes: number[]) => Buffer.from([...bytes, 0, 0, 0, 0]).toString("base64");
const PNG = b64([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = b64([0xff, 0xd8, 0xff, 0xe0]);
const JPEG_LS = b64([0xff, 0xd8, 0xff, 0xf7]);
const GIF = Buffer.from("GIF89a....").toString("base64");
const WEBP = Buffer.from("RIFF\0\0\0\0WEBPVP8 ").toString("base64");
const SVG = Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>").toString("base64");

describe("image()", () => {
	it("accepts PNG, JPEG, GIF and WebP as data URLs and blocks, taking the MIME type from the bytes", async () => {
		const result = await run(`
			image("data:image/png;base64,${PNG}");
			image({ image_url: "data:image/gif;base64,${GIF}" });
			image({ type: "image", data: "${JPEG}", mimeType: "image/png" });
			image({ type: "image", data: "data:image/webp;base64,${WEBP.slice(0, 8)}\\n${WEBP.slice(8)}", mimeType: "image/webp" });
		`);
		expect(result.ok).toBe(true);
		expect(result.output).toEqual([
			{ type: "image", data: PNG, mimeType: "image/png" },
			{ type: "image", data: GIF, mimeType: "image/gif" },
			{ type: "image", data: JPEG, mimeType: "image/jpeg" },
			{ type: "image", data: WEBP, mimeType: "image/webp" },
		]);
	});

	it.each([
		["an https URL", `"https://example.com/a.png"`],
		["a non-base64 data URL", `"data:image/png,${PNG}"`],
		["corrupted base64", `"data:image/png;base64,${PNG.slice(0, -1)}!"`],
		["badly padded base64", `"${PNG.slice(0, -2)}"`],
		["SVG bytes", `"data:image/svg+xml;base64,${SVG}"`],
		["JPEG-LS bytes", `"${JPEG_LS}"`],
		["a text block", `{ type: "text", text: "x" }`],
		["empty data", `{ type: "image", data: "", mimeType: "image/png" }`],
		["a number", "42"],
	])("rejects %s with a TypeError", async (_label, arg) => {
		const value = okValue(await run(`try { image(${arg}); return "accepted" } catch (e) { return e.name }`));
		expect(value).toBe("TypeError");
	});
});

describe("store() and load()", () => {
	it("increments a value from the snapshot and reports writes without touching the caller's object", async () => {
		const s = sandbox();
		const snapshot = { runs: 2 };
		const first = await s.execute(`const runs = load("runs") + 1; store("runs", runs); return runs`, {
			store: snapshot,
		});
		expect(first).toMatchObject({ ok: true, value: 3, storeWrites: { set: { runs: 3 }, delete: [] } });
		expect(snapshot).toEqual({ runs: 2 });
		if (!first.ok) return;
		const committed = { ...snapshot, ...first.storeWrites.set };
		expect(okValue(await s.execute(`return load("runs")`, { store: committed }))).toBe(3);
	});

	it("drops writes of a failing script while its tool side effects happen", async () => {
		const effects: unknown[] = [];
		const result = await sandbox({ tools: [tool("effect", (a) => effects.push(a))] }).execute(
			`store("k", 1); await tools.effect({ n: 1 }); throw new Error("after")`,
		);
		expect(result.ok).toBe(false);
		expect("storeWrites" in result).toBe(false);
		expect(effects).toEqual([{ n: 1 }]);
	});

	it("deletes with undefined, returns copies and sees earlier writes", async () => {
		const result = await sandbox().execute(
			`store("gone", undefined);
			store("obj", { list: [1] });
			const a = load("obj"); a.list.push(2);
			store("last", 1); store("last", 2);
			return [load("obj"), load("gone"), load("keep"), load("last")]`,
			{ store: { gone: 1, keep: "k", skip: undefined } },
		);
		expect(result).toMatchObject({
			ok: true,
			value: [{ list: [1] }, null, "k", 2],
			storeWrites: { set: { obj: { list: [1] }, last: 2 }, delete: ["gone"] },
		});
	});

	it("enforces value and total size limits with RangeError and argument types with TypeError", async () => {
		const value = okValue(
			await run(`
				const names = [];
				const attempt = (f) => { try { f(); names.push("ok") } catch (e) { names.push(e.name) } };
				attempt(() => store("big", "x".repeat(262142)));
				attempt(() => store("tooBig", "x".repeat(262143)));
				attempt(() => store("b", "x".repeat(262142)));
				attempt(() => store("c", "x".repeat(262142)));
				attempt(() => store("d", "x".repeat(262142)));
				attempt(() => store(1, "v"));
				attempt(() => store("n", 10n));
				attempt(() => store("f", () => 1));
				return names;
			`),
		);
		expect(value).toEqual(["ok", "RangeError", "ok", "ok", "RangeError", "TypeError", "TypeError", "TypeError"]);
	});

	it("advises keeping small state when over the limit", async () => {
		const error = failure(await run(`store("x", "y".repeat(300000))`));
		expect(error).toMatchObject({ kind: "script", name: "RangeError" });
		expect(error.message).toMatch(/IDs, cursors/);
	});
});
