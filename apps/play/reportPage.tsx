// The page of `npm run play -- --report DIR` (CONTRACT section 17), as Preact components: a
// summary (passed, failed, flaky, healed, duration), then each test with its commands, their
// states, durations, messages and healed locators; a failed test is open at its failing command
// with the picture of the page after it, the console errors and a link to the page's HTML. One
// file, its own styles, no scripts and nothing from the network: it opens from file://.
import type { ComponentChildren } from "preact";
import type { TestEnded } from "../../core/testEnds.ts";
import type { TraceStep } from "../../services/traces/index.ts";
import type { Verdict } from "./report.ts";

export interface ReportStep extends TraceStep {
  /** The picture and DOM as files under the report's folder (relative), when copied there. */
  picture: string | null;
  domLink: string | null;
}

export interface ReportTry {
  ended: TestEnded;
  /** Its commands from its trace; null when the run kept none (--trace off). */
  steps: ReportStep[] | null;
}

export interface ReportTest {
  verdict: Verdict;
  last: ReportTry;
  failedTries: ReportTry[];
}

export interface ReportModel {
  projectName: string;
  wallMs: number;
  generatedAt: string;
  counts: { tests: number; passed: number; failed: number; flaky: number; fatal: number; stopped: number; healed: number };
  groups: Array<{ name: string; tests: ReportTest[] }>;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const isFailure = (state: string | null) => state === "failed" || state === "fatal";

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #1d1d1f; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 1.5rem; }
.counts span { display: inline-block; margin-right: 1rem; padding: .2rem .5rem; border-radius: 4px; background: #eee; }
.passed { color: #17692b; } .failed, .fatal { color: #b3261e; } .flaky { color: #8a5a00; } .stopped, .undetermined { color: #555; }
details.test { border: 1px solid #ccc; border-radius: 6px; margin: .5rem 0; padding: .4rem .8rem; }
details.test > summary { cursor: pointer; font-weight: 600; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0; }
th, td { text-align: left; padding: .2rem .5rem; border-bottom: 1px solid #eee; vertical-align: top; }
td.msg { white-space: pre-wrap; word-break: break-word; }
tr.failing { background: #fdecea; }
img.shot { max-width: 100%; border: 1px solid #999; }
code { font-size: 12px; }
`;

function Steps({ steps }: { steps: ReportStep[] }) {
  return (
    <table>
      <thead>
        <tr><th>#</th><th>command</th><th>target</th><th>value</th><th>state</th><th>duration</th><th>message</th></tr>
      </thead>
      <tbody>
        {steps.map((step) => (
          <tr class={isFailure(step.state) ? "failing" : undefined}>
            <td>{step.index}</td>
            <td>{step.command}</td>
            <td><code>{step.target}</code></td>
            <td><code>{step.value}</code></td>
            <td class={step.state ?? undefined}>{step.healed ? "passed (healed)" : step.state}</td>
            <td>{step.endedAt === null ? "" : seconds(step.endedAt - step.startedAt)}</td>
            <td class="msg">
              {step.healed ? `healed by ${step.healed.locator} (score ${step.healed.score.toFixed(2)})` : (step.message ?? "")}
              {step.picture && !isFailure(step.state) ? <> <a href={step.picture}>picture</a></> : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Failure({ step }: { step: ReportStep }) {
  const name = `The page after command ${step.index}: ${step.command}`;
  return (
    <details open class="failure">
      <summary class={step.state ?? undefined}>#{step.index} {step.command} {step.target}: {step.message}</summary>
      {step.failure ? <p>{step.failure.title} <code>{step.failure.url}</code>{step.domLink ? <> · <a href={step.domLink}>the page's HTML</a></> : null}</p> : null}
      {step.failure && step.failure.consoleErrors.length > 0 ? (
        <div><p>Console errors since the command before:</p><ul>{step.failure.consoleErrors.map((e) => <li><code>{e}</code></li>)}</ul></div>
      ) : null}
      {step.picture ? <img class="shot" src={step.picture} alt={name} title={name} /> : <p>No picture of the page was kept.</p>}
    </details>
  );
}

function Try({ tried, title }: { tried: ReportTry; title?: string }) {
  const failing = tried.steps?.find((s) => isFailure(s.state)) ?? null;
  const f = tried.ended.failure;
  return (
    <div>
      {title ? <h3>{title}</h3> : null}
      {failing ? <Failure step={failing} /> : f ? <p class={f.state}>#{f.index} {f.command} {f.target}: {f.message}</p> : null}
      {tried.steps ? <Steps steps={tried.steps} /> : <p>No trace was kept of this test's commands (--trace off).</p>}
    </div>
  );
}

function Test({ test }: { test: ReportTest }) {
  const { ended } = test.last;
  const healed = ended.healed.length;
  return (
    <details class="test" open={test.verdict !== "passed" && test.verdict !== "flaky" ? true : undefined}>
      <summary>
        <span class={test.verdict}>{test.verdict}</span> {ended.testName} · {seconds(ended.durationMs)}
        {healed ? ` · ${healed} healed` : ""}
        {test.failedTries.length ? ` · ${test.failedTries.length + 1} tries` : ""}
      </summary>
      {test.failedTries.map((tried, i) => <Try tried={tried} title={`Try ${i + 1}: ${tried.ended.result}`} />)}
      <Try tried={test.last} title={test.failedTries.length ? `Try ${test.failedTries.length + 1}: ${ended.result}` : undefined} />
      {healed ? <ul>{ended.healed.map((h) => <li>healed #{h.index} {h.command}: {h.target} → {h.locator} (score {h.score.toFixed(2)})</li>)}</ul> : null}
    </details>
  );
}

function Count({ n, what, kind }: { n: number; what: string; kind?: string }) {
  return <span class={kind}>{n} {what}</span>;
}

export function ReportPage({ model }: { model: ReportModel }): ComponentChildren {
  const c = model.counts;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>{`${model.projectName}: ${c.failed + c.fatal ? "failed" : "passed"}`}</title>
        <style>{STYLE}</style>
      </head>
      <body>
        <h1>{model.projectName}</h1>
        <p class="counts">
          <Count n={c.tests} what="tests" />
          <Count n={c.passed} what="passed" kind="passed" />
          <Count n={c.failed} what="failed" kind="failed" />
          <Count n={c.flaky} what="flaky" kind="flaky" />
          <Count n={c.fatal} what="fatal" kind="fatal" />
          <Count n={c.healed} what="healed" />
          <span>{seconds(model.wallMs)}</span>
        </p>
        <p>Played {model.generatedAt}.</p>
        {model.groups.map((group) => (
          <section>
            <h2>{group.name}</h2>
            {group.tests.map((test) => <Test test={test} />)}
          </section>
        ))}
      </body>
    </html>
  );
}
