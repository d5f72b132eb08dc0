const STOP_WORDS = new Set("a an and are as at be by for from in is it of on or that the this to with".split(" "));
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_WORD = /^[a-z0-9]+$/;

let segmenter: Intl.Segmenter | undefined;

/** Light English stemming so `issues` and `issue` meet; only for ASCII alphanumeric tokens. */
function stem(token: string): string {
	if (!ASCII_WORD.test(token)) return token;
	if (token.length > 4 && token.endsWith("ies")) return `${token.slice(0, -3)}y`;
	if (token.length > 4 && /(ches|shes|sses|xes|zes)$/.test(token)) return token.slice(0, -2);
	if (token.length > 3 && token.endsWith("s") && !token.endsWith("ss")) return token.slice(0, -1);
	return token;
}

/**
 * Search terms of a text: camelCase and acronym boundaries split, lowercased, punctuation removed,
 * words segmented with `Intl.Segmenter` when the text is not ASCII (so CJK without spaces works),
 * stop words dropped, then stemmed.
 */
export function tokenize(text: string): string[] {
	const spaced = text
		.normalize("NFC")
		.replace(/([\p{Ll}\p{Nd}])(\p{Lu})/gu, "$1 $2")
		.replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2")
		.toLowerCase()
		.replace(/[^\p{L}\p{M}\p{N}]+/gu, " ");
	let words: string[];
	if (ASCII.test(spaced)) {
		words = spaced.split(" ");
	} else {
		segmenter ??= new Intl.Segmenter(undefined, { granularity: "word" });
		words = [...segmenter.segment(spaced)].filter((s) => s.isWordLike).map((s) => s.segment);
	}
	return words.filter((w) => w !== "" && !STOP_WORDS.has(w)).map(stem);
}
