// Replays every conversation in ../shared/scenarios/*.json through createIde(), following
// ../shared/scenarios/README.md. A file added there is picked up with no change here.
import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createIde } from "../../index.ts";
import { fixtureDocument, SHARED_DIR, sharedJson } from "../support/shared.ts";
import { mismatch } from "../support/match.ts";

/** How deliver() answers one plugin: a word for every message, or an answer per message. */
type DeliverRule = "reject" | "hang" | "error" | Record<string, unknown>;

interface Scenario {
  name: string;
  options: {
    project?: string;
    document?: string;
    window?: "open" | "closed";
    deliver?: Record<string, DeliverRule>;
    limits?: Record<string, number>;
  };
  steps: Array<Record<string, any>>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const settle = () => sleep(5);
const never = new Promise<never>(() => {});

/** The answer a rule gives a message: `execute:COMMAND`, `event:EVENT`, else `default`. */
function answerFor(rule: DeliverRule | undefined, to: string, message: any): Promise<unknown> {
  if (rule === undefined) return Promise.resolve(true);
  if (rule === "reject") return Promise.reject(new Error(`${to} is unreachable`));
  if (rule === "hang") return never;
  if (rule === "error") return Promise.resolve({ error: "disk full" });
  const key = message.action === "execute" ? `execute:${message.command?.command}` : `event:${message.event}`;
  const answer = Object.hasOwn(rule, key) ? rule[key] : Object.hasOwn(rule, "default") ? rule.default : true;
  if (answer === "$hang") return never;
  if (answer === "$reject") return Promise.reject(new Error(`${to} is unreachable`));
  if (answer === "$undefined") return Promise.resolve(undefined);
  return Promise.resolve(structuredClone(answer));
}

/** "fixtures/NAME.side" becomes the parsed file, "$big70k" 71,680 x's, anywhere in a message. */
function expand(value: unknown): unknown {
  if (typeof value === "string") {
    if (/^fixtures\/[^/]+\.side$/.test(value)) return sharedJson(value);
    if (value === "$big70k") return "x".repeat(71_680);
    return value;
  }
  if (Array.isArray(value)) return value.map(expand);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expand(v)]));
  }
  return value;
}

function evaluateXPath(doc: Document, xpath: string): Node[] {
  const result = doc.evaluate(xpath, doc, null, 7 /* ORDERED_NODE_SNAPSHOT_TYPE */, null);
  return Array.from({ length: result.snapshotLength }, (_, i) => result.snapshotItem(i)!);
}

const files = readdirSync(`${SHARED_DIR}scenarios`)
  .filter((f) => f.endsWith(".json"))
  .sort();

describe("shared scenarios", () => {
  it("finds scenario files to replay", () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const file of files) {
    const scenario = sharedJson(`scenarios/${file}`) as Scenario;
    it(`${file}: ${scenario.name}`, async () => {
      const document = scenario.options.document ? fixtureDocument(scenario.options.document) : undefined;
      const delivered: Array<{ to: string; message: unknown }> = [];
      const prototypeKeys = Object.getOwnPropertyNames(Object.prototype);
      const ide = createIde({
        project: scenario.options.project ? sharedJson(scenario.options.project) : undefined,
        window: scenario.options.window,
        document,
        deliver: (to, message) => {
          delivered.push({ to, message });
          return answerFor(scenario.options.deliver?.[to], to, message);
        },
        limits: scenario.options.limits,
      });
      const pending = new Map<string, Promise<unknown>>();
      try {
        for (const [index, step] of scenario.steps.entries()) {
          const where = `step ${index + 1} of ${file}`;
          if ("send" in step) {
            const reply = ide.handle(expand(step.send), { id: step.from });
            if (step.as) {
              pending.set(step.as, reply);
              await settle();
              continue;
            }
            const answer = await reply;
            expect(mismatch(step.reply, answer), `${where}: ${JSON.stringify(answer)}`).toBeNull();
            if (typeof step.check === "string" && step.check.startsWith("xpathSelectsSameAs:css=")) {
              const nodes = evaluateXPath(document!, answer as string);
              expect(nodes, where).toHaveLength(1);
              expect(nodes[0], where).toBe(document!.querySelector(step.check.slice("xpathSelectsSameAs:css=".length)));
            }
          } else if ("await" in step) {
            expect(pending.has(step.await), `${where}: nothing pending as ${step.await}`).toBe(true);
            const answer = await pending.get(step.await);
            expect(mismatch(step.reply, answer), `${where}: ${JSON.stringify(answer)}`).toBeNull();
          } else if ("user" in step) {
            ide.send(step.user);
            await settle();
          } else if ("view" in step) {
            await settle();
            const view = ide.getSnapshot();
            expect(mismatch(step.view, view), `${where}: ${JSON.stringify(view)}`).toBeNull();
          } else if ("delivered" in step) {
            await settle();
            expect(mismatch(step.delivered, delivered), `${where}: ${JSON.stringify(delivered)}`).toBeNull();
          } else if ("eventually" in step) {
            const within = typeof step.within === "number" ? step.within : 3_000;
            const deadline = Date.now() + within;
            let problem = mismatch(step.eventually, ide.getSnapshot());
            while (problem !== null && Date.now() < deadline) {
              await sleep(5);
              problem = mismatch(step.eventually, ide.getSnapshot());
            }
            expect(problem, `${where}: not so within ${within} ms: ${JSON.stringify(ide.getSnapshot().playback)}`).toBeNull();
          } else if ("deliveredCount" in step) {
            await settle();
            const { match, count } = step.deliveredCount;
            const matching = delivered.filter((d) => mismatch(match, d) === null);
            expect(matching.length, `${where}: ${JSON.stringify(delivered)}`).toBe(count);
          } else if ("wait" in step) {
            await sleep(step.wait);
          } else if (step.check === "noPrototypePollution") {
            expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeKeys);
          } else {
            throw new Error(`${where}: a step this replayer does not know: ${JSON.stringify(step)}`);
          }
        }
      } finally {
        ide.stop();
      }
    });
  }
});
