// A process that replaces a file with `size` bytes through tau's atomic write and is killed midway
// by the test. Usage: node atomic-write-child.mjs <path> <size-bytes>
import { createJiti } from "jiti";

const [path, size] = process.argv.slice(2);
const jiti = createJiti(import.meta.url);
const { writeFileAtomic } = await jiti.import("../../src/core/fs/atomic-write.ts");

const content = Buffer.alloc(Number(size), "n");
process.stdout.write("writing\n");
await writeFileAtomic(path, content);
process.stdout.write("done\n");
