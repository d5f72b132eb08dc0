/** A small LaTeX-math to Unicode text converter for terminal display (common commands only). */

const SYMBOLS: Record<string, string> = {
	alpha: "α",
	beta: "β",
	gamma: "γ",
	delta: "δ",
	epsilon: "ε",
	varepsilon: "ε",
	zeta: "ζ",
	eta: "η",
	theta: "θ",
	vartheta: "ϑ",
	iota: "ι",
	kappa: "κ",
	lambda: "λ",
	mu: "μ",
	nu: "ν",
	xi: "ξ",
	pi: "π",
	rho: "ρ",
	sigma: "σ",
	tau: "τ",
	upsilon: "υ",
	phi: "φ",
	varphi: "φ",
	chi: "χ",
	psi: "ψ",
	omega: "ω",
	Gamma: "Γ",
	Delta: "Δ",
	Theta: "Θ",
	Lambda: "Λ",
	Xi: "Ξ",
	Pi: "Π",
	Sigma: "Σ",
	Phi: "Φ",
	Psi: "Ψ",
	Omega: "Ω",
	times: "×",
	cdot: "·",
	div: "÷",
	pm: "±",
	mp: "∓",
	leq: "≤",
	le: "≤",
	geq: "≥",
	ge: "≥",
	neq: "≠",
	ne: "≠",
	approx: "≈",
	equiv: "≡",
	sim: "∼",
	propto: "∝",
	infty: "∞",
	partial: "∂",
	nabla: "∇",
	sum: "∑",
	prod: "∏",
	int: "∫",
	oint: "∮",
	to: "→",
	rightarrow: "→",
	leftarrow: "←",
	Rightarrow: "⇒",
	Leftarrow: "⇐",
	leftrightarrow: "↔",
	Leftrightarrow: "⇔",
	mapsto: "↦",
	in: "∈",
	notin: "∉",
	subset: "⊂",
	subseteq: "⊆",
	supset: "⊃",
	supseteq: "⊇",
	cup: "∪",
	cap: "∩",
	emptyset: "∅",
	forall: "∀",
	exists: "∃",
	neg: "¬",
	land: "∧",
	lor: "∨",
	ldots: "…",
	cdots: "⋯",
	dots: "…",
	circ: "∘",
	degree: "°",
	angle: "∠",
	perp: "⊥",
	parallel: "∥",
	hbar: "ℏ",
	ell: "ℓ",
	Re: "ℜ",
	Im: "ℑ",
	aleph: "ℵ",
	mathbb: "",
	quad: "  ",
	qquad: "    ",
	",": " ",
	";": " ",
	":": " ",
	"!": "",
	"{": "{",
	"}": "}",
	"%": "%",
	$: "$",
	"#": "#",
	"&": "&",
	_: "_",
	left: "",
	right: "",
	langle: "⟨",
	rangle: "⟩",
	lfloor: "⌊",
	rfloor: "⌋",
	lceil: "⌈",
	rceil: "⌉",
};

const SUPERSCRIPT: Record<string, string> = {
	"0": "⁰",
	"1": "¹",
	"2": "²",
	"3": "³",
	"4": "⁴",
	"5": "⁵",
	"6": "⁶",
	"7": "⁷",
	"8": "⁸",
	"9": "⁹",
	"+": "⁺",
	"-": "⁻",
	"=": "⁼",
	"(": "⁽",
	")": "⁾",
	n: "ⁿ",
	i: "ⁱ",
	T: "ᵀ",
};
const SUBSCRIPT: Record<string, string> = {
	"0": "₀",
	"1": "₁",
	"2": "₂",
	"3": "₃",
	"4": "₄",
	"5": "₅",
	"6": "₆",
	"7": "₇",
	"8": "₈",
	"9": "₉",
	"+": "₊",
	"-": "₋",
	"=": "₌",
	"(": "₍",
	")": "₎",
	a: "ₐ",
	e: "ₑ",
	i: "ᵢ",
	j: "ⱼ",
	k: "ₖ",
	n: "ₙ",
	o: "ₒ",
	x: "ₓ",
};
const BLACKBOARD: Record<string, string> = { R: "ℝ", N: "ℕ", Z: "ℤ", Q: "ℚ", C: "ℂ" };

/** Reads one argument at `i`: a braced group or a single (possibly escaped) character. */
function readArgument(src: string, i: number): { text: string; end: number } {
	while (src[i] === " ") i++;
	if (src[i] === "{") {
		let depth = 1;
		let j = i + 1;
		while (j < src.length && depth > 0) {
			if (src[j] === "{") depth++;
			else if (src[j] === "}") depth--;
			j++;
		}
		return { text: src.slice(i + 1, j - 1), end: j };
	}
	if (src[i] === "\\") {
		const m = /^\\([A-Za-z]+|.)/.exec(src.slice(i));
		if (m) return { text: m[0], end: i + m[0].length };
	}
	return { text: src[i] ?? "", end: i + 1 };
}

function script(text: string, table: Record<string, string>, marker: string): string {
	const chars = [...text];
	if (chars.every((c) => table[c])) return chars.map((c) => table[c]).join("");
	return chars.length === 1 ? `${marker}${text}` : `${marker}(${text})`;
}

const group = (t: string) => (/^[\p{L}\p{N}.]+$/u.test(t) ? t : `(${t})`);

/** Commands with arguments or meaning beyond a symbol, which `latexToUnicode` understands. */
const STRUCTURAL = new Set([
	"frac",
	"dfrac",
	"tfrac",
	"sqrt",
	"mathbb",
	"text",
	"mathrm",
	"mathbf",
	"mathit",
	"mathsf",
	"mathtt",
	"operatorname",
	"textbf",
	"textit",
	"boldsymbol",
]);

/** Whether every command is known and every brace is closed, so the conversion means what was written. */
function isSupported(src: string): boolean {
	let depth = 0;
	for (let i = 0; i < src.length; i++) {
		const ch = src[i]!;
		if (ch === "{") depth++;
		else if (ch === "}" && --depth < 0) return false;
		else if (ch === "\\") {
			const name = /^\\([A-Za-z]+|.)/.exec(src.slice(i))?.[1];
			if (name === undefined) return false;
			if (name !== "\\" && !(name in SYMBOLS) && !STRUCTURAL.has(name)) return false;
			i += name.length;
		}
	}
	return depth === 0;
}

export interface RenderLatexOptions {
	/** Display math (`$$…$$`); rendered on one line like inline math. */
	display?: boolean;
}

/**
 * A LaTeX math expression as terminal text (Unicode symbols, super- and subscripts, `a/b` fractions),
 * or undefined when it uses a command this converter does not know or leaves a brace unclosed.
 */
export function renderLatex(source: string, _options: RenderLatexOptions = {}): string | undefined {
	if (!isSupported(source)) return undefined;
	return latexToUnicode(source)
		.split("\n")
		.map((line) => line.replace(/ {2,}/g, " ").trim())
		.join("\n");
}

export function latexToUnicode(src: string): string {
	let out = "";
	let i = 0;
	while (i < src.length) {
		const ch = src[i]!;
		if (ch === "\\") {
			if (src[i + 1] === "\\") {
				out += "\n";
				i += 2;
				continue;
			}
			const m = /^\\([A-Za-z]+|.)/.exec(src.slice(i))!;
			const name = m[1]!;
			i += m[0].length;
			if (name === "frac" || name === "dfrac" || name === "tfrac") {
				const a = readArgument(src, i);
				const b = readArgument(src, a.end);
				out += `${group(latexToUnicode(a.text))}/${group(latexToUnicode(b.text))}`;
				i = b.end;
			} else if (name === "sqrt") {
				const a = readArgument(src, i);
				out += `√${group(latexToUnicode(a.text))}`;
				i = a.end;
			} else if (name === "mathbb") {
				const a = readArgument(src, i);
				out += [...a.text].map((c) => BLACKBOARD[c] ?? c).join("");
				i = a.end;
			} else if (/^(text|mathrm|mathbf|mathit|mathsf|mathtt|operatorname|textbf|textit|boldsymbol)$/.test(name)) {
				const a = readArgument(src, i);
				out += name.startsWith("text") || name === "operatorname" ? a.text : latexToUnicode(a.text);
				i = a.end;
			} else out += SYMBOLS[name] ?? name;
			continue;
		}
		if (ch === "^" || ch === "_") {
			const a = readArgument(src, i + 1);
			const inner = latexToUnicode(a.text);
			out += ch === "^" ? script(inner, SUPERSCRIPT, "^") : script(inner, SUBSCRIPT, "_");
			i = a.end;
			continue;
		}
		if (ch === "{" || ch === "}") {
			i++;
			continue;
		}
		out += ch;
		i++;
	}
	return out;
}
