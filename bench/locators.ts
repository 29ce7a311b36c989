// Locator resolution inside Chromium (drivers/host/pages.ts) against a baseline that does the
// least a resolver must: document.querySelector for the element and a minimal xpath (the id
// when it has one, else positions up to the nearest id), with no check that the xpath is unique.
// The project's resolver tries the readable forms in order and checks each with
// document.evaluate, so it costs more; the ratio says how much, in the page and end to end.
import { pathToFileURL } from "node:url";
import { EXAMPLE_PAGE_PATH, openLivePage, PAGE_GLOBAL } from "../drivers/host/pages.ts";
import type { LivePage } from "../drivers/host/pages.ts";
import type { Benchmark, SummaryLine } from "./support.ts";
import { check, fmtInt, fmtNum, fmtRatio, heading, median, now, printTable, quantile } from "./support.ts";

/** Every strategy against examples/shop-page.html, with a CSS selector for the same element (the baseline's lookup). */
const TABLE: Array<{ location: string; css: string }> = [
  { location: "id=user", css: "#user" },
  { location: "name=password", css: "input[name=password]" },
  { location: "css=button[type=submit]", css: "button[type=submit]" },
  { location: "xpath=//form/input[2]", css: "form input:nth-of-type(2)" },
  { location: "linkText=Help and support", css: "header a:nth-of-type(3)" },
  { location: "partialLinkText=cart", css: ".product a" },
  { location: "css=.product a", css: ".product a" },
  { location: "css=button[data-sku='hat-3']", css: "button[data-sku='hat-3']" },
  { location: "css=.cart-count", css: ".cart-count" },
  { location: "css=footer p", css: "footer p" },
];

const ROUNDS = 5;
const ROW_ROUNDS = 3;
const MIN_MS = 50; // per timed run in the page; Chromium coarsens performance.now(), so runs are long
const ROW_MIN_MS = 15;
const CALLS = 200; // end-to-end calls per contender per round
const WARMUP_CALLS = 50;

// Page code is passed as a string: page.evaluate serialises a function's source, and under tsx
// that source calls the __name helper, which the page does not have.
const PAGE_HELPERS = `
  const lib = globalThis.${PAGE_GLOBAL};
  function minimalXPath(el) {
    const steps = [];
    for (let node = el; node; node = node.parentElement) {
      if (node.id) return "//" + node.localName + "[@id='" + node.id + "']" + (steps.length ? "/" + steps.join("/") : "");
      let i = 1;
      for (let s = node.previousElementSibling; s; s = s.previousElementSibling) if (s.localName === node.localName) i++;
      steps.unshift(node.localName + "[" + i + "]");
    }
    return "/" + steps.join("/");
  }
  function selectsOnly(xpath, el) {
    const r = document.evaluate(xpath, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    return r.snapshotLength === 1 && r.snapshotItem(0) === el;
  }
  function timeRows(rows, minMs, one) {
    let n = 0, sink = 0;
    const t0 = performance.now();
    let elapsed = 0;
    do {
      for (const row of rows) sink += one(row).length;
      n += rows.length;
      elapsed = performance.now() - t0;
    } while (elapsed < minMs);
    if (sink === 0) throw new Error("nothing resolved");
    return (elapsed * 1000) / n;
  }
  const project = (row) => lib.resolveInDocument(document, row.location);
  const baseline = (row) => minimalXPath(document.querySelector(row.css));
`;

interface InPage {
  problems: string[];
  mix: { project: number[]; baseline: number[] };
  rows: Array<{ project: number[]; baseline: number[] }>;
}

/** The in-page measurement: per-resolution µs for the mix and for each row, contenders alternating. */
function inPageScript(): string {
  return `(() => {
    ${PAGE_HELPERS}
    const table = ${JSON.stringify(TABLE)};
    const problems = [];
    for (const row of table) {
      const el = document.querySelector(row.css);
      if (!el) { problems.push(row.css + " matches nothing"); continue; }
      const a = project(row), b = baseline(row);
      if (!selectsOnly(a, el)) problems.push(row.location + " gave " + a + ", which does not select only its element");
      if (!selectsOnly(b, el)) problems.push("the baseline's " + b + " does not select only " + row.css);
    }
    timeRows(table, ${MIN_MS}, project);
    timeRows(table, ${MIN_MS}, baseline);
    const mix = { project: [], baseline: [] };
    for (let round = 0; round < ${ROUNDS}; round++) {
      const order = round % 2 ? ["project", "baseline"] : ["baseline", "project"];
      for (const which of order) mix[which].push(timeRows(table, ${MIN_MS}, which === "project" ? project : baseline));
    }
    const rows = table.map((row) => {
      const times = { project: [], baseline: [] };
      for (let round = 0; round < ${ROW_ROUNDS}; round++) {
        times.project.push(timeRows([row], ${ROW_MIN_MS}, project));
        times.baseline.push(timeRows([row], ${ROW_MIN_MS}, baseline));
      }
      return times;
    });
    return { problems, mix, rows };
  })()`;
}

const baselineCall = (css: string) => `(() => { ${PAGE_HELPERS} return baseline({ css: ${JSON.stringify(css)} }); })()`;

interface EndToEnd {
  perCall: number[];
  samples: Float64Array;
  count: number;
}

async function endToEnd(live: LivePage): Promise<{ port: EndToEnd; evaluate: EndToEnd }> {
  const port: EndToEnd = { perCall: [], samples: new Float64Array(ROUNDS * CALLS), count: 0 };
  const evaluate: EndToEnd = { perCall: [], samples: new Float64Array(ROUNDS * CALLS), count: 0 };
  const expected = new Map<string, string>();
  for (const row of TABLE) expected.set(row.location, await live.resolveLocator(row.location));

  const viaPort = async (i: number) => {
    const row = TABLE[i % TABLE.length];
    const xpath = await live.resolveLocator(row.location);
    if (xpath !== expected.get(row.location)) throw new Error(`Benchmark self-check failed: ${row.location} gave ${xpath}`);
  };
  const viaEvaluate = async (i: number) => {
    const xpath = await live.page.evaluate(baselineCall(TABLE[i % TABLE.length].css));
    if (typeof xpath !== "string") throw new Error(`Benchmark self-check failed: the baseline gave ${String(xpath)}`);
  };
  const measure = async (into: EndToEnd, call: (i: number) => Promise<void>) => {
    const t0 = now();
    for (let i = 0; i < CALLS; i++) {
      const t = now();
      await call(i);
      into.samples[into.count++] = (now() - t) * 1000;
    }
    into.perCall.push(((now() - t0) * 1000) / CALLS);
  };

  for (let i = 0; i < WARMUP_CALLS; i++) {
    await viaPort(i);
    await viaEvaluate(i);
  }
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2) {
      await measure(port, viaPort);
      await measure(evaluate, viaEvaluate);
    } else {
      await measure(evaluate, viaEvaluate);
      await measure(port, viaPort);
    }
  }
  return { port, evaluate };
}

async function run(): Promise<SummaryLine[]> {
  heading(
    "locators: resolution inside Chromium",
    [
      `The example page in headless Chromium. In the page: the project's resolver (bundled from services/locators)`,
      `against document.querySelector plus a minimal xpath (id, else positions up to the nearest id, unchecked), on`,
      `${TABLE.length} locators of every strategy; runs of at least ${MIN_MS} ms, median of ${ROUNDS}. End to end: ${CALLS} calls`,
      `from Node through the resolveLocator port against page.evaluate of the baseline, median of ${ROUNDS} rounds.`,
    ].join("\n"),
  );

  const live = await openLivePage(pathToFileURL(EXAMPLE_PAGE_PATH).href);
  try {
    check((await live.resolveLocator("id=user")) === "//input[@id='user']", "id=user resolves to //input[@id='user']");
    const inPage = (await live.page.evaluate(inPageScript())) as InPage;
    check(inPage.problems.length === 0, inPage.problems.join("; "));
    const { port, evaluate } = await endToEnd(live);

    const projectUs = median(inPage.mix.project);
    const baselineUs = median(inPage.mix.baseline);
    const inPageRatio = projectUs / baselineUs;
    printTable(
      ["in the page (µs per resolution)", "project resolver", "baseline", "ratio"],
      [
        ["mix of every strategy", fmtNum(projectUs, 2), fmtNum(baselineUs, 2), fmtRatio(inPageRatio)],
        ...TABLE.map((row, i) => {
          const p = median(inPage.rows[i].project);
          const b = median(inPage.rows[i].baseline);
          return [`  ${row.location}`, fmtNum(p, 2), fmtNum(b, 2), fmtRatio(p / b)];
        }),
      ],
    );
    console.log("");

    const portPerCall = median(port.perCall);
    const evalPerCall = median(evaluate.perCall);
    const portP50 = quantile(port.samples, port.count, 0.5);
    const portP99 = quantile(port.samples, port.count, 0.99);
    const evalP50 = quantile(evaluate.samples, evaluate.count, 0.5);
    const evalP99 = quantile(evaluate.samples, evaluate.count, 0.99);
    printTable(
      ["from Node (µs per call)", "mean", "p50", "p99", "calls/s"],
      [
        ["resolveLocator (the port)", fmtNum(portPerCall, 0), fmtNum(portP50, 0), fmtNum(portP99, 0), fmtInt(1e6 / portPerCall)],
        ["page.evaluate of the baseline", fmtNum(evalPerCall, 0), fmtNum(evalP50, 0), fmtNum(evalP99, 0), fmtInt(1e6 / evalPerCall)],
        ["ratio", fmtRatio(portPerCall / evalPerCall), fmtRatio(portP50 / evalP50), fmtRatio(portP99 / evalP99), ""],
      ],
    );
    console.log("");
    console.log(
      `  Self-checks passed: every xpath of both contenders selects exactly its element in Chromium; ` +
        `${fmtInt(port.count + WARMUP_CALLS)} port calls gave the expected xpath.`,
    );

    return [
      {
        benchmark: "locators",
        figure: "resolution in the page",
        value: `${fmtNum(projectUs, 1)} µs`,
        ratio: `${fmtRatio(inPageRatio)} querySelector + minimal xpath`,
        target: "",
        met: null,
      },
      {
        benchmark: "locators",
        figure: "resolveLocator from Node p50 / p99",
        value: `${fmtNum(portP50, 0)} / ${fmtNum(portP99, 0)} µs`,
        ratio: `${fmtRatio(portP50 / evalP50)} / ${fmtRatio(portP99 / evalP99)} page.evaluate`,
        target: "",
        met: null,
      },
    ];
  } finally {
    await live.close();
  }
}

export const locatorsBenchmark: Benchmark = {
  name: "locators",
  description: "locator resolution inside Chromium against querySelector plus a minimal xpath",
  run,
};
