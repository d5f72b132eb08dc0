const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Removes unpaired UTF-16 surrogates, which providers reject; valid pairs (emoji) stay. */
export function sanitizeSurrogates(text: string): string {
	return text.replace(UNPAIRED_SURROGATE, "");
}
