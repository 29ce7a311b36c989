// Code export of a 1,000-command test against Selenium's packages alone on the same test
// (languageFromOpts' emit.test, as Selenium IDE calls it): ide.exportCode without a plugin
// (the export machine, isolated hooks and emitter, the layout), then with a plugin that owns
// 100 of the commands, in process and over the plugin bridge (its 100 command answers and 8
// hooks, each a delivery). Target: ≤ 1.2× the packages alone without a plugin.
import type { TestShape } from "@seleniumhq/side-model";
import { connectPlugin } from "../client/index.ts";
import { startHost } from "../apps/host/host.ts";
import { createIde } from "../index.ts";
import type { Ide } from "../index.ts";
import { loadLanguage } from "../services/export/languages.ts";
import { packageOptions } from "../services/export/index.ts";
import type { ExportLanguage } from "../services/export/index.ts";
import { parseSideProject } from "../services/side/index.ts";
import type { SideProject } from "../services/side/index.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtMs, fmtRatio, heading, median, now, printTable, verdict } from "./support.ts";

const COMMANDS = 1_000;
const PLUGIN_EVERY = 10; // 100 of the 1,000 commands are the plugin's
const ROUNDS = 30;
const BLOCK = 5;
const WARMUP = 4;
const LANGUAGES: ExportLanguage[] = ["javascript-mocha", "python-pytest"];
const TARGET = 1.2;

const SELENIUM_ROWS: Array<[string, string, string]> = [
  ["open", "/shop", ""],
  ["type", "id=user", "alice"],
  ["click", "css=button[type=submit]", ""],
  ["assertText", "css=.cart-count", "1"],
  ["store", "value", "name"],
  ["echo", "${name}", ""],
  ["sendKeys", "id=user", "${KEY_ENTER}"],
  ["select", "id=size", "label=M"],
  ["verifyTitle", "Shop", ""],
];

function project(withPluginCommands: boolean): SideProject {
  const commands = Array.from({ length: COMMANDS }, (_, i) => {
    if (withPluginCommands && i % PLUGIN_EVERY === PLUGIN_EVERY - 1) return { id: `c${i}`, command: "benchCheck", target: `region ${i}`, value: "" };
    const [command, target, value] = SELENIUM_ROWS[i % SELENIUM_ROWS.length];
    return { id: `c${i}`, command, target, value };
  });
  const parsed = parseSideProject({ id: "p-bench", name: "Export bench", url: "http://127.0.0.1:8080", tests: [{ id: "t-big", name: "big test", commands }] });
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.project;
}

const PLUGIN = { name: "Bench checks", version: "1", commands: [{ id: "benchCheck", name: "check" }] };

/** A plugin's answer to an export message: code for its command, a line for each hook. */
function answer(message: { action?: string; entity?: string; command?: { target: string } }): unknown {
  if (message.action !== "export") return true;
  return message.entity === "command" ? `await bench.check(${JSON.stringify(message.command?.target)})` : `// bench ${message.entity}`;
}

/**
 * Median time of each contender, their rounds interleaved (and their order turned each round)
 * so that none gains from going later. Each sample is the mean of BLOCK exports in a row:
 * a garbage collection then falls on the contender whose garbage it collects, instead of on
 * whichever export it happened to interrupt. (No forced collection between samples: V8 then
 * drops the compiled code of whatever ran least recently, which charges a recompile to the
 * contender with more code.)
 */
async function timeRounds(contenders: Array<() => Promise<unknown>>): Promise<number[]> {
  for (let i = 0; i < WARMUP; i++) for (const run of contenders) for (let j = 0; j < BLOCK; j++) await run();
  const samples = contenders.map(() => [] as number[]);
  for (let i = 0; i < ROUNDS; i++) {
    const order = [...contenders.entries()];
    if (i % 2 === 1) order.reverse();
    for (const [index, run] of order) {
      const t0 = now();
      for (let j = 0; j < BLOCK; j++) await run();
      samples[index].push((now() - t0) / BLOCK);
    }
  }
  return samples.map(median);
}

/** The export, as the timed rounds run it: an answer that is not a file stops the benchmark. */
async function exported(ide: Ide, language: ExportLanguage, testId: string) {
  const reply = await ide.exportCode({ language, testId });
  if ("error" in reply) throw new Error(`Benchmark self-check failed: ${reply.error}`);
  return reply.body;
}

/** Self-check, outside the timing (reading a whole file is not the export's cost): the plugin's code is in it. */
async function checkExported(ide: Ide, language: ExportLanguage, testId: string, pluginCommands: number) {
  const checks = (await exported(ide, language, testId)).split("bench.check(").length - 1;
  check(checks === pluginCommands, `the file holds ${pluginCommands} plugin commands' code (found ${checks})`);
}

async function run(): Promise<SummaryLine[]> {
  heading("export", `ide.exportCode of a ${COMMANDS.toLocaleString("en")}-command test against Selenium's packages alone on it.`);
  const plain = project(false);
  const mixed = project(true);
  const inProcess = createIde({ project: mixed, deliver: async (_to, message) => answer(message as never) });
  check((await inProcess.handle({ uri: "/register", verb: "post", ...PLUGIN, exports: { languages: LANGUAGES } }, { id: "bench" })) === true, "the in-process plugin registered");
  const alone = createIde({ project: plain });
  const host = await startHost({ port: 0, tokenFile: null, project: mixed });
  const client = await connectPlugin({ url: host.urls.plugins, id: "bench-bridge", token: host.token });
  client.onMessage((message) => answer(message as never));
  check((await client.register({ ...PLUGIN, exports: { languages: LANGUAGES } } as never)) === true, "the bridge plugin registered");

  const lines: SummaryLine[] = [];
  try {
    for (const language of LANGUAGES) {
      const packages = await loadLanguage(language);
      const direct = () => packages.emit.test({ ...packageOptions(plain), test: plain.tests[0] as unknown as TestShape });
      await checkExported(alone, language, "t-big", 0);
      await checkExported(inProcess, language, "t-big", COMMANDS / PLUGIN_EVERY);
      await checkExported(host.ide, language, "t-big", COMMANDS / PLUGIN_EVERY);
      // The bridge's sockets make garbage of their own: it is timed apart, beside its own baseline.
      const [baseMs, aloneMs, inProcessMs] = await timeRounds([
        direct,
        () => exported(alone, language, "t-big"),
        () => exported(inProcess, language, "t-big"),
      ]);
      const [bridgeBaseMs, bridgeRawMs] = await timeRounds([direct, () => exported(host.ide, language, "t-big")]);
      const bridgeMs = (bridgeRawMs / bridgeBaseMs) * baseMs;
      const ratio = aloneMs / baseMs;
      console.log("");
      console.log(`  ${language}, median of ${ROUNDS} rounds:`);
      printTable(
        ["figure", "time", "÷ packages alone"],
        [
          ["the packages alone (emit.test, baseline)", fmtMs(baseMs), fmtRatio(1)],
          ["ide.exportCode, no plugin", fmtMs(aloneMs), `${fmtRatio(ratio)} (target ≤ ${TARGET}×: ${verdict(ratio <= TARGET)})`],
          ["ide.exportCode, a plugin owning 100 commands, in process", fmtMs(inProcessMs), fmtRatio(inProcessMs / baseMs)],
          ["ide.exportCode, the same plugin over the bridge (timed apart, scaled)", fmtMs(bridgeMs), fmtRatio(bridgeMs / baseMs)],
        ],
      );
      lines.push(
        { benchmark: "export", figure: `${language}, no plugin`, value: fmtMs(aloneMs), ratio: `${fmtRatio(ratio)} packages alone`, target: `≤ ${TARGET}×`, met: ratio <= TARGET },
        { benchmark: "export", figure: `${language}, plugin in process`, value: fmtMs(inProcessMs), ratio: `${fmtRatio(inProcessMs / baseMs)} packages alone`, target: "", met: null },
        { benchmark: "export", figure: `${language}, plugin over the bridge`, value: fmtMs(bridgeMs), ratio: `${fmtRatio(bridgeMs / baseMs)} packages alone`, target: "", met: null },
      );
    }
    console.log("");
    console.log(`  Self-checks passed: every export wrote a file, with the plugin's code for its ${COMMANDS / PLUGIN_EVERY} commands where it was registered.`);
  } finally {
    await client.disconnect().catch(() => {});
    await host.close();
    inProcess.stop();
    alone.stop();
  }
  return lines;
}

export const exportBenchmark: Benchmark = {
  name: "export",
  description: "ide.exportCode of a 1,000-command test (with and without a plugin) against Selenium's packages alone",
  run,
};
