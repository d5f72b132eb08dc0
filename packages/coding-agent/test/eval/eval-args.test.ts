import { describe, expect, it } from "vitest";
import { parseEvalArgs } from "../../src/eval/cli/eval-args.js";
import { parseShard } from "../../src/eval/shard/shard.js";

describe("tau eval options", () => {
	it("parses values in both spellings and repeatable options in order", () => {
		const { args, errors } = parseEvalArgs([
			"suite",
			"-k",
			"5",
			"--model=a/b",
			"-e",
			"x",
			"--extension",
			"y",
			"-j",
			"2",
		]);
		expect(errors).toEqual([]);
		expect(args).toMatchObject({
			positionals: ["suite"],
			k: 5,
			model: "a/b",
			extensions: ["x", "y"],
			concurrency: 2,
		});
	});

	it("names every invalid value instead of running with a guess", () => {
		const { errors } = parseEvalArgs(["-k", "0", "--thinking", "huge", "--backend", "vm", "--frob", "--out"]);
		expect(errors).toEqual([
			'-k expects a positive whole number, got "0"',
			'--thinking expects one of off, minimal, low, medium, high, xhigh, max, got "huge"',
			'--backend expects one of auto, local, docker, got "vm"',
			"Unknown option: --frob",
			"--out needs a value",
		]);
	});

	it("--shard takes i/n counted from 1, or n with a 0-based index from the environment", () => {
		expect(parseShard("2/3", {})).toEqual([1, 3]);
		expect(parseShard("4", { JOB_COMPLETION_INDEX: "3" })).toEqual([3, 4]);
		expect(parseShard("4", { TAU_EVAL_SHARD_INDEX: "0" })).toEqual([0, 4]);
		expect(() => parseShard("4", {})).toThrow("no shard index");
		expect(() => parseShard("4/3", {})).toThrow("expected i/n with 1 <= i <= n");
		expect(() => parseShard("4", { JOB_COMPLETION_INDEX: "4" })).toThrow(
			"JOB_COMPLETION_INDEX=4 is not a shard index below 4",
		);
	});
});
