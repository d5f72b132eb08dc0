import { packageConfig } from "../../vitest.base.js";

export default packageConfig("tui");
