// The streamed answers of the TUI benchmark, as exact delta pieces (one piece ≈ one token).

/** Printed after the streamed content; its appearance on screen means the frame caught up. */
export const END_MARKER = "bench-end-of-answer";

/** A word and the whitespace after it, so the pieces join back to the text. */
function pieces(text: string): string[] {
	return text.match(/\s*\S+\s*/g) ?? [];
}

/** A `lines`-line Python module: classes, functions, strings, numbers and comments. */
function pythonModule(lines: number): string {
	const out: string[] = ["import math", "from dataclasses import dataclass", ""];
	let n = 0;
	while (out.length < lines) {
		out.push(
			"@dataclass",
			`class Shape${n}:`,
			`    """A shape with an area and a label, number ${n}."""`,
			"    width: float = 1.5",
			`    height: float = ${n}.25`,
			"",
			"    def area(self) -> float:",
			"        # Area of the rectangle, scaled by a constant factor.",
			`        return self.width * self.height * ${(n % 7) + 1}`,
			"",
			`def describe_${n}(shapes: list[Shape${n}], prefix: str = "shape") -> str:`,
			`    total = sum(s.area() for s in shapes if s.width > 0.5)`,
			`    return f"{prefix} {len(shapes)}: {total:.2f} ({math.sqrt(total):.3f})"`,
			"",
		);
		n++;
	}
	return out.slice(0, lines).join("\n");
}

/** A paragraph of `words` words without line breaks, with some inline Markdown. */
function longParagraph(words: number): string {
	const vocabulary = ["the", "renderer", "keeps", "**every**", "frame", "`small`", "while", "a", "long", "answer"];
	const out: string[] = [];
	for (let i = 0; i < words; i++) out.push(`${vocabulary[i % vocabulary.length]}${i % 17 === 0 ? "," : ""}`);
	return `${out.join(" ")}.`;
}

export interface StreamedAnswer {
	name: string;
	/** One word naming the answer in the benchmark's scenario filter (TAU_TUI_BENCH). */
	tag: string;
	pieces: string[];
}

/** A 250-line Python code block in one Markdown answer. */
export function codeBlockAnswer(): StreamedAnswer {
	const text = `Here is the module:\n\n\`\`\`python\n${pythonModule(250)}\n\`\`\`\n\n${END_MARKER}\n`;
	return { name: "250-line code block", tag: "code", pieces: pieces(text) };
}

/** One paragraph of 1,500 words. */
export function paragraphAnswer(): StreamedAnswer {
	return {
		name: "1,500-word paragraph",
		tag: "paragraph",
		pieces: pieces(`${longParagraph(1500)}\n\n${END_MARKER}\n`),
	};
}
