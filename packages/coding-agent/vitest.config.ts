import { packageConfig } from "../../vitest.base.js";

export default packageConfig("coding-agent", { globalSetup: ["test/support/build-export-viewer.ts"] });
