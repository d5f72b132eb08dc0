// Types of the probe file the differential tests share with the pi runner (plain JavaScript).
export declare function generateSettings(seed: number, count: number): Record<string, unknown>[];
export declare const REJECTED_SETTINGS: Record<string, unknown>[];
export declare const PROBES: Record<string, (api: unknown, input: unknown) => Promise<unknown>>;
