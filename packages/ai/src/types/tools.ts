/** A tool declaration as sent to a model. `parameters` is any JSON Schema object. */
export interface Tool<TParameters extends object = object> {
	name: string;
	description: string;
	parameters: TParameters;
	constrainedSampling?: false | ConstrainedSamplingConfig;
}

export interface ToolReference {
	name: string;
}

export type ConstrainedSamplingConfig =
	| { type: "json_schema"; strict: "prefer" | "require" }
	| { type: "grammar"; variants: Partial<Record<"openai_lark" | "openai_regex", string>> };

export type ToolChoice = "auto" | "none";
