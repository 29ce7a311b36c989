// Loading a large .side project through POST /project, beside JSON.parse of its text alone.
import { createIde } from "../index.ts";
import { parseSideProject } from "../services/side/index.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtInt, fmtMB, fmtMs, fmtRatio, heading, heapAfterGc, median, medianTimeAsync, now, printTable } from "./support.ts";

const TESTS = 200;
const COMMANDS_PER_TEST = 500;
const REPS = 5;
const SENDER = { id: "bench-loader" };

function largeProject(name: string) {
  const tests = [];
  for (let t = 0; t < TESTS; t++) {
    const commands = [];
    for (let c = 0; c < COMMANDS_PER_TEST; c++) {
      commands.push({
        id: `t${t}-c${c}`,
        comment: "",
        command: c % 4 === 0 ? "click" : c % 4 === 1 ? "type" : c % 4 === 2 ? "assertText" : "waitForElementVisible",
        target: `css=#item-${c} > .add`,
        targets: [],
        value: c % 4 === 1 ? `qty ${c}` : "",
      });
    }
    tests.push({ id: `test-${t}`, name: `test case ${t}`, commands });
  }
  return {
    id: "bench-large-project",
    version: "2.0",
    name,
    url: "http://127.0.0.1:8080",
    tests,
    suites: [{ id: "suite-all", name: "all", tests: tests.map((t) => t.id) }],
    urls: ["http://127.0.0.1:8080"],
    plugins: [],
  };
}

/** Median of `REPS` timed runs after one warm-up, each after a full collection. */
function timed(what: () => void): number {
  what();
  const times: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    heapAfterGc();
    const t0 = now();
    what();
    times.push(now() - t0);
  }
  return median(times);
}

const timedAsync = (what: () => Promise<void>) => medianTimeAsync(what, REPS);

async function run(): Promise<SummaryLine[]> {
  heading(
    "project: loading a large .side project",
    [
      `POST /project with ${TESTS} tests × ${COMMANDS_PER_TEST} commands (the project as an object, as a plugin hands it`,
      `to the transport), against JSON.parse of the project's text alone. Median of ${REPS}, after gc().`,
    ].join("\n"),
  );

  const project = largeProject("Large benchmark project");
  const textOfProject = JSON.stringify(project);
  const message = { uri: "/project", verb: "post", project };
  const bytes = Buffer.byteLength(textOfProject);

  const ide = createIde({ limits: { requestsPerSecond: 1e9, requestBurst: 1e9 } });
  try {
    const registered = await ide.handle({ uri: "/register", verb: "post", name: "Bench loader", version: "1.0.0" }, SENDER);
    check(registered === true, `registering the loader answered true (got ${JSON.stringify(registered)})`);

    let loads = 0;
    const load = async () => {
      const reply = await ide.handle(message, SENDER);
      if (reply !== true) throw new Error(`Benchmark self-check failed: POST /project answered ${JSON.stringify(reply)}`);
      loads += 1;
    };
    let parsed: unknown;
    const parseOnly = () => {
      parsed = JSON.parse(textOfProject);
    };

    // Alternate, so drift does not favour either.
    const parseMs = timed(parseOnly);
    const handleMs = await timedAsync(load);
    const parseMs2 = timed(parseOnly);
    const baseMs = Math.min(parseMs, parseMs2);
    check((parsed as { tests: unknown[] }).tests.length === TESTS, "JSON.parse read every test");

    // Where the time goes (informative): the parts of POST /project that are not the machine.
    const stringifyMs = timed(() => {
      JSON.stringify(message);
    });
    const sideMs = timed(() => {
      const result = parseSideProject(project);
      if (!result.ok) throw new Error(`Benchmark self-check failed: parseSideProject: ${result.problem}`);
    });

    const view = ide.getSnapshot();
    check(view.project.id === project.id && view.project.name === project.name, "the view shows the loaded project");
    check(view.project.unsaved === false, "the loaded project has no unsaved changes");
    const loaded = ide.getProject();
    check(loaded.tests.length === TESTS, "the loaded project has every test");
    check(
      loaded.tests.reduce((n, t) => n + t.commands.length, 0) === TESTS * COMMANDS_PER_TEST,
      "the loaded project has every command",
    );
    check(loads === REPS + 1, "every load answered true");

    printTable(
      ["figure", "time", "÷ JSON.parse"],
      [
        [`JSON.parse of the text (${fmtMB(bytes)}, baseline)`, fmtMs(baseMs), fmtRatio(1)],
        ["POST /project through handle()", fmtMs(handleMs), fmtRatio(handleMs / baseMs)],
        ["  of which: JSON.stringify(message) (size check)", fmtMs(stringifyMs), fmtRatio(stringifyMs / baseMs)],
        ["  of which: parseSideProject(project)", fmtMs(sideMs), fmtRatio(sideMs / baseMs)],
      ],
    );
    console.log("");
    console.log(
      `  ${fmtInt(TESTS * COMMANDS_PER_TEST)} commands; the "of which" rows are timed alone (informative).`,
    );
    console.log(`  Self-checks passed: every load answered true; the loaded project has all ${TESTS} tests and their commands.`);

    return [
      {
        benchmark: "project",
        figure: `POST /project, ${fmtMB(bytes)}`,
        value: fmtMs(handleMs),
        ratio: `${fmtRatio(handleMs / baseMs)} JSON.parse`,
        target: "",
        met: null,
      },
    ];
  } finally {
    ide.stop();
  }
}

export const projectBenchmark: Benchmark = {
  name: "project",
  description: "POST /project of a 200 × 500 .side project against JSON.parse of its text",
  run,
};
