import { deleteKittyImage } from "../images/encoders.js";

const KITTY_ID = /\x1b_G[^;\x1b]*\bi=(\d+)/;

/** Which frame rows hold Kitty images, so removed or rewritten images can be deleted. */
export class KittyPlacements {
	private rows = new Map<number, number>();
	private pending: number[] = [];

	/** Re-reads rows [first, last] and drops rows at or beyond `length`; replaced images are queued for deletion. */
	update(lines: readonly string[], first: number, last: number, oldLength: number): void {
		if (this.rows.size === 0 && first < 0) return;
		const drop = (row: number) => {
			const id = this.rows.get(row);
			if (id === undefined) return;
			this.rows.delete(row);
			this.pending.push(id);
		};
		if (first >= 0) {
			for (let row = first; row <= last; row++) {
				drop(row);
				const m = KITTY_ID.exec(lines[row] ?? "");
				if (m) this.rows.set(row, Number(m[1]));
			}
		}
		for (let row = lines.length; row < oldLength; row++) drop(row);
		// An image that is still placed elsewhere in the frame is not deleted.
		const live = new Set(this.rows.values());
		this.pending = this.pending.filter((id) => !live.has(id));
	}

	/** Delete commands for images that left the frame since the last call. */
	takeDeletions(): string {
		const out = [...new Set(this.pending)].map(deleteKittyImage).join("");
		this.pending = [];
		return out;
	}

	/** Delete commands for every known image (full redraw with clearing). */
	deleteAll(): string {
		const ids = new Set([...this.rows.values(), ...this.pending]);
		this.pending = [];
		return [...ids].map(deleteKittyImage).join("");
	}

	clear(): void {
		this.rows.clear();
		this.pending = [];
	}
}
