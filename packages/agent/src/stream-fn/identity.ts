import { type ClientIdentity, TAU_ATTRIBUTION } from "@tau/ai";

/** Requests made through the agent loop are attributed to tau unless the host overrides it. */
export const DEFAULT_AGENT_IDENTITY: ClientIdentity = { attribution: TAU_ATTRIBUTION };
