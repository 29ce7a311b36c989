// npm run build:extension [-- --out DIR]: builds the MV3 extension (drivers/webextension/)
// into DIR (default dist/extension/) and says how to load it.
import { buildExtension, DEFAULT_OUT_DIR } from "../apps/extension/build.ts";
import { IDE_EXTENSION_ID } from "../drivers/webextension/identity.ts";

function usage(): string {
  return "usage: npm run build:extension [-- --out DIR]\n  --out DIR  where to write the unpacked extension (default dist/extension)";
}

function parse(argv: string[]): { outDir: string } {
  let outDir = DEFAULT_OUT_DIR;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") {
      console.log(usage());
      process.exit(0);
    } else if (arg === "--out") {
      const value = argv[++i];
      if (value === undefined || value === "") throw new UsageError("--out needs a folder");
      outDir = value;
    } else if (arg.startsWith("--out=")) {
      outDir = arg.slice("--out=".length);
      if (outDir === "") throw new UsageError("--out needs a folder");
    } else {
      throw new UsageError(`unknown argument ${JSON.stringify(arg)}`);
    }
  }
  return { outDir };
}

class UsageError extends Error {}

async function main() {
  let outDir: string;
  try {
    ({ outDir } = parse(process.argv.slice(2)));
  } catch (error) {
    console.error(`build:extension: ${(error as Error).message}\n${usage()}`);
    process.exit(1);
  }
  console.log("Bundling the worker, the IDE window and the content script…");
  const started = Date.now();
  try {
    const built = await buildExtension({ outDir });
    for (const file of built.files) console.log(`  ${file.name.padEnd(16)} ${(file.bytes / 1024).toFixed(1).padStart(8)} KiB`);
    console.log(`Built ${built.outDir} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    console.log(`Extension id: ${IDE_EXTENSION_ID}`);
    console.log(`Load it: chrome://extensions → Developer mode → Load unpacked → ${built.outDir}`);
  } catch (error) {
    console.error(`build:extension: ${(error as Error).message}`);
    process.exit(1);
  }
}

void main();
