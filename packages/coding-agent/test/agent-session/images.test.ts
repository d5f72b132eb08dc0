import { crc32, deflateSync } from "node:zlib";
import { fauxAssistantMessage, type ImageContent } from "@tau/ai";
import type { ExtensionAPI } from "@tau/coding-agent";
import { describe, expect, it } from "vitest";
import { createHarness, gate, heldResponse, textOfMessage } from "./harness.js";

/** A solid grey RGBA PNG of the given size. */
function png(width: number, height: number): ImageContent {
	const chunk = (type: string, data: Buffer) => {
		const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
		const length = Buffer.alloc(4);
		length.writeUInt32BE(data.length);
		const crc = Buffer.alloc(4);
		crc.writeUInt32BE(crc32(body) >>> 0);
		return Buffer.concat([length, body, crc]);
	};
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header[8] = 8;
	header[9] = 6;
	const rows = Buffer.alloc((width * 4 + 1) * height, 0x80);
	for (let y = 0; y < height; y++) rows[y * (width * 4 + 1)] = 0;
	const data = Buffer.concat([
		Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
		chunk("IHDR", header),
		chunk("IDAT", deflateSync(rows)),
		chunk("IEND", Buffer.alloc(0)),
	]);
	return { type: "image", data: data.toString("base64"), mimeType: "image/png" };
}

function pngSize(image: ImageContent): { width: number; height: number } {
	const bytes = Buffer.from(image.data, "base64");
	return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe("prompt images", () => {
	it("are resized to the limits of the model chosen after before_agent_start, with a coordinate hint", async () => {
		const h = await createHarness({
			models: [
				{ id: "small", inputLimits: { images: { resize: { maxWidth: 400, maxHeight: 400 } } } },
				{ id: "tiny", inputLimits: { images: { resize: { maxWidth: 100, maxHeight: 100 } } } },
			],
			extension: (pi: ExtensionAPI) => {
				pi.on("before_agent_start", async (_event, ctx) => {
					const tiny = ctx.modelRegistry.find("faux", "tiny");
					if (tiny) await pi.setModel(tiny);
					return undefined;
				});
			},
		});
		h.faux.setResponses([fauxAssistantMessage("seen")]);
		await h.session.prompt("what is this?", { images: [png(300, 200)] });
		const user = h.session.messages.find((message) => message.role === "user")!;
		const image = (user.content as (ImageContent | { type: "text" })[]).find(
			(block) => block.type === "image",
		) as ImageContent;
		expect(pngSize(image)).toEqual({ width: 100, height: 66 });
		expect(textOfMessage(user)).toContain("original 300x200, displayed at 100x66");
	});

	it("queued images are normalized when delivered", async () => {
		const h = await createHarness({
			models: [{ id: "tiny", inputLimits: { images: { resize: { maxWidth: 50, maxHeight: 50 } } } }],
		});
		const hold = gate();
		h.faux.setResponses([heldResponse(hold, fauxAssistantMessage("first")), fauxAssistantMessage("second")]);
		const running = h.session.prompt("start");
		await hold.started;
		await h.session.followUp("and this picture", [png(200, 100)]);
		hold.release();
		await running;
		const delivered = h.session.messages.filter((message) => message.role === "user")[1]!;
		const image = (delivered.content as (ImageContent | { type: "text" })[]).find(
			(block) => block.type === "image",
		) as ImageContent;
		expect(pngSize(image)).toEqual({ width: 50, height: 25 });
		expect(textOfMessage(delivered)).toContain("and this picture");
	});

	it("unsupported formats are dropped with a hint instead of failing the request", async () => {
		const h = await createHarness();
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		await h.session.prompt("look", { images: [{ type: "image", data: "AAAA", mimeType: "image/tiff" }] });
		const user = h.session.messages.find((message) => message.role === "user")!;
		expect((user.content as { type: string }[]).some((block) => block.type === "image")).toBe(false);
		expect(textOfMessage(user)).toContain("image/tiff");
	});

	it("images.blockImages replaces images with a placeholder in each request, not in the transcript", async () => {
		const h = await createHarness({ settings: { images: { blockImages: true } } });
		h.faux.setResponses([fauxAssistantMessage("ok")]);
		await h.session.prompt("look", { images: [png(10, 10), png(12, 12)] });
		const sent = h.requests[0]!.messages.find((message) => message.role === "user") as unknown as {
			content: { type: string; text?: string }[];
		};
		expect(sent.content.filter((block) => block.type === "image")).toHaveLength(0);
		expect(sent.content.filter((block) => block.text === "Image reading is disabled.")).toHaveLength(1);
		const stored = h.session.messages.find((message) => message.role === "user")!;
		expect((stored.content as { type: string }[]).filter((block) => block.type === "image")).toHaveLength(2);
	});
});
