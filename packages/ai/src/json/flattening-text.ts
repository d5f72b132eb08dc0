/** Appends tolerated before the first flatten, so short texts are never copied. */
const MIN_APPENDS_BETWEEN_FLATTENS = 1024;
/** A flatten waits for at least length / this many appends, which keeps the copying amortized linear. */
const LENGTH_PER_APPEND_BEFORE_FLATTEN = 64;

/**
 * Text that grows by appends and stays cheap to read at any time. `+=` builds a rope node of roughly
 * 30 bytes per append, so a text streamed one character at a time costs ~30 bytes per character. The
 * rope is copied into one flat string whenever the appends since the last copy reach a fraction of
 * the length: each copy is paid for by those appends, and at most length / 64 rope nodes stay alive.
 */
export class FlatteningText {
	private text = "";
	private appendsSinceFlatten = 0;

	get value(): string {
		return this.text;
	}

	/** Returns whether this append copied the rope into a flat string. */
	append(piece: string): boolean {
		this.text += piece;
		this.appendsSinceFlatten++;
		const due = Math.max(MIN_APPENDS_BETWEEN_FLATTENS, this.text.length / LENGTH_PER_APPEND_BEFORE_FLATTEN);
		if (this.appendsSinceFlatten < due) return false;
		// Slicing a rope makes V8 copy it into one flat string first; the rope nodes become garbage.
		// (Array#join or String#concat would keep the rope: they return a lone string unchanged.)
		this.text = `${this.text} `.slice(0, -1);
		this.appendsSinceFlatten = 0;
		return true;
	}
}
