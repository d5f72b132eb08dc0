/** A small LaTeX-math to Unicode text converter for terminal display (common commands only). */

export const SYMBOLS: Record<string, string> = {
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

/** Unicode superscript and subscript forms; a script with a character missing here is written `^(…)`. */
const SUPERSCRIPT: Record<string, string> = Object.fromEntries(
	[..."0123456789+-=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVW"].map((char, index) => [
		char,
		[..."⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ"][index]!,
	]),
);
const SUBSCRIPT: Record<string, string> = Object.fromEntries(
	[..."0123456789+-=()aehijklmnoprstuvx"].map((char, index) => [
		char,
		[..."₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"][index]!,
	]),
);
/** Function names, written as their names (an unknown command is written the same way, so only validation needs them). */
export const FUNCTIONS = new Set(
	"sin cos tan cot sec csc sinh cosh tanh coth arcsin arccos arctan log ln lg exp max min sup inf det dim ker deg gcd arg Pr hom lim".split(
		" ",
	),
);
const BLACKBOARD: Record<string, string> = { R: "ℝ", N: "ℕ", Z: "ℤ", Q: "ℚ", C: "ℂ" };

/** Reads one argument at `i`: a braced group or a single (possibly escaped) character. */
export function readArgument(src: string, i: number): { text: string; end: number } {
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

/** A fraction part or root argument is bracketed unless it is one number or one word. */
const group = (t: string) => (/^(?:\p{L}+|[\p{N}.]+)$/u.test(t) ? t : `(${t})`);

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
			} else if (name === "lim" && /^\s*_/.test(src.slice(i))) {
				// Inline limits of `\lim` go in brackets: `lim[x→0]`.
				const below = readArgument(src, src.indexOf("_", i) + 1);
				out += `lim[${latexToUnicode(below.text).replace(/ /g, "")}]`;
				i = below.end;
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
