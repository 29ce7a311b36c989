// npm run build:extension [-- --out DIR]: builds the MV3 extension (drivers/webextension/)
// into DIR (default dist/extension/) and says how to load it.
import { buildExtension, DEFAULT_OUT_DIR } from "../apps/extension/build.ts";
import { IDE_EXTENSION_ID } from "../drivers/webextension/identity.ts";
import { readArgs, UsageError } from "../apps/cli/usage.ts";
import { messageOf } from "../services/errors.ts";

function usage(): string {
  return "usage: npm run build:extension [-- --out DIR]\n  --out DIR  where to write the unpacked extension (default dist/extension)";
}

/** The folder to write, or null for --help. */
function parse(argv: string[]): { outDir: string } | null {
  const { values } = readArgs({ args: argv, options: { out: { type: "string" }, help: { type: "boolean", short: "h" } } });
  if (values.help) return null;
  if (values.out === "") throw new UsageError("--out needs a folder");
  return { outDir: values.out ?? DEFAULT_OUT_DIR };
}

async function main() {
  let parsed: { outDir: string } | null;
  try {
    parsed = parse(process.argv.slice(2));
  } catch (error) {
    console.error(`build:extension: ${messageOf(error)}\n${usage()}`);
    process.exit(1);
  }
  if (parsed === null) return console.log(usage());
  const { outDir } = parsed;
  console.log("Bundling the worker, the IDE window and the content script…");
  const started = Date.now();
  try {
    const built = await buildExtension({ outDir });
    for (const file of built.files) console.log(`  ${file.name.padEnd(16)} ${(file.bytes / 1024).toFixed(1).padStart(8)} KiB`);
    console.log(`Built ${built.outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    console.log(`Extension id: ${IDE_EXTENSION_ID}`);
    console.log(`Load it: chrome://extensions → Developer mode → Load unpacked → ${built.outDir}`);
  } catch (error) {
    console.error(`build:extension: ${messageOf(error)}`);
    process.exit(1);
  }
}

void main();
