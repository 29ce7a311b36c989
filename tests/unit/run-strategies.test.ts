// CONTRACT section 23 in a run: a page command's declared locators reach the executor as the
// css=/xpath= every player knows, and what the executor says back names them as written
// (services/playback/strategies.ts). Healing by a declared `targets` entry, in jsdom; the
// strategies relocation may build from go to the page with the command.
import { createRequire } from "node:module";
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { heal } from "../../services/healing/index.ts";
import { strategyTable } from "../../services/locators/index.ts";
import { asWritten, declaredCommand, LOCATOR_TARGET_COMMANDS, runStrategies } from "../../services/playback/strategies.ts";
import type { SideCommand } from "../../services/side/index.ts";
import { inPageRequest } from "../../drivers/player/request.ts";

const qa = { name: "qa", css: '[data-qa="{value}"]', attribute: "data-qa" };
const label = { name: "label", xpath: "//*[@aria-label='{value}']" };
const declared = runStrategies(strategyTable([qa, label]));
const command = (fields: Partial<SideCommand> & { targets?: unknown }): SideCommand => ({ id: "c", command: "click", target: "", value: "", ...fields }) as SideCommand;

function expanded(c: SideCommand, variables = {}) {
  const result = declaredCommand(c, variables, declared);
  if (!result.ok) throw new Error(result.message);
  return result;
}

describe("a page command handed to the executor", () => {
  it("carries its declared target and targets as css= and xpath=, their shape kept", () => {
    const { command: sent, written } = expanded(command({ target: "qa=buy", targets: [["qa=buy", "qa"], ["label=Buy now", "label"], ["id=buy", "id"]] }));
    expect(sent.target).toBe('css=[data-qa="buy"]');
    expect((sent as { targets?: unknown }).targets).toEqual([['css=[data-qa="buy"]', "qa"], ["xpath=//*[@aria-label='Buy now']", "label"], ["id=buy", "id"]]);
    expect(written.get('css=[data-qa="buy"]')).toBe("qa=buy");
    expect(written.get("xpath=//*[@aria-label='Buy now']")).toBe("label=Buy now");
  });

  it("puts variables in before it expands, so a value with quotes stays inside the template's", () => {
    const { command: sent, written } = expanded(command({ target: "qa=${item}" }), { item: 'say "hi"' });
    expect(sent.target).toBe('css=[data-qa="say \\"hi\\""]');
    expect(written.get(sent.target)).toBe('qa=say "hi"');
  });

  it("expands a drag's destination and storeAttribute's element, keeping its @attribute", () => {
    const drag = expanded(command({ command: "dragAndDropToObject", target: "qa=card", value: "label=Done" })).command;
    expect([drag.target, drag.value]).toEqual(['css=[data-qa="card"]', "xpath=//*[@aria-label='Done']"]);
    const store = expanded(command({ command: "storeAttribute", target: "label=Logo@src", value: "src" })).command;
    expect(store.target).toBe("xpath=//*[@aria-label='Logo']@src");
  });

  it("leaves a command with only built-in locators, and a target that is no locator, as it was", () => {
    const builtIn = command({ target: "id=buy", targets: [["css=.buy", "css:finder"]] });
    expect(expanded(builtIn).command).toBe(builtIn);
    for (const notLocator of [command({ command: "assertTitle", target: "qa=buy" }), command({ command: "open", target: "qa=buy" }), command({ command: "selectFrame", target: "index=0" })]) {
      expect(expanded(notLocator).command).toBe(notLocator);
    }
  });

  it("fails a target whose strategy nobody declared, naming it, before the executor sees it", () => {
    const result = declaredCommand(command({ target: "nope=buy" }), {}, declared);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(/unknown strategy "nope".*no plugin has declared it/);
    // With no table at all (a project that carries none) the same words.
    const bare = declaredCommand(command({ target: "qa=buy" }), {}, undefined);
    expect(!bare.ok && bare.message).toMatch(/unknown strategy "qa"/);
  });

  it("covers every command Selenium IDE's reference gives a locator", () => {
    const commands = createRequire(import.meta.url)("@seleniumhq/side-model/dist/Commands.js").default as Record<string, { target?: { name: string }; value?: { name: string } }>;
    const withLocator = Object.entries(commands).filter(([, c]) => /locator/.test(c.target?.name ?? "") || /locator/.test(c.value?.name ?? "")).map(([name]) => name);
    expect(withLocator.length).toBeGreaterThan(40);
    expect(withLocator.filter((name) => !LOCATOR_TARGET_COMMANDS.has(name))).toEqual([]);
  });
});

describe("what the executor says back", () => {
  const written = new Map([['css=[data-qa="buy"]', "qa=buy"], ["xpath=//*[@aria-label='Buy now']", "label=Buy now"]]);

  it("names the locator it healed by as written", () => {
    const outcome = asWritten({ state: "passed" as const, healed: { locator: "xpath=//*[@aria-label='Buy now']", score: 1 } }, written);
    expect(outcome.healed).toEqual({ locator: "label=Buy now", score: 1 });
  });

  it("keeps a locator it built by relocation, and puts the written locator in a failure's message", () => {
    expect(asWritten({ state: "passed" as const, healed: { locator: "id=purchase", score: 0.8 } }, written).healed!.locator).toBe("id=purchase");
    expect(asWritten({ state: "failed" as const, message: 'Element css=[data-qa="buy"] not found' }, written).message).toBe("Element qa=buy not found");
  });
});

describe("healing a declared command in the page", () => {
  it("finds the element by a declared targets entry when the declared target is stale, and the run shows that entry as written", () => {
    const doc = new JSDOM(`<main><button aria-label="Buy now" data-qa="purchase">Buy</button></main>`).window.document;
    const { command: sent, written } = expanded(command({ target: "qa=buy", targets: [["qa=buy", "qa"], ["label=Buy now", "label"]] }));
    const targets = ((sent as { targets?: unknown }).targets as string[][]).map((t) => t[0]);
    const healed = heal(doc, { target: sent.target, targets });
    expect(healed).toMatchObject({ found: true, via: "targets", locator: "xpath=//*[@aria-label='Buy now']" });
    const outcome = asWritten({ state: "passed" as const, healed: { locator: healed.found ? healed.locator : "", score: 1 } }, written);
    expect(outcome.healed!.locator).toBe("label=Buy now");
  });
});

describe("the run's strategies in the request for the page", () => {
  const fingerprint = { recorded: true };

  it("go with a command that has a fingerprint to relocate by, only those naming an attribute a locator can be built from", () => {
    const built = inPageRequest(command({ target: "id=buy", fingerprint } as Partial<SideCommand>), {}, {}, 0, declared);
    expect(built.ok && built.request.strategies).toEqual([qa]);
  });

  it("stay out of a request with nothing to relocate, and of one when no strategy names an attribute", () => {
    const plain = inPageRequest(command({ target: "id=buy" }), {}, {}, 0, declared);
    expect(plain.ok && "strategies" in plain.request).toBe(false);
    const unbuildable = inPageRequest(command({ target: "id=buy", fingerprint } as Partial<SideCommand>), {}, {}, 0, [label]);
    expect(unbuildable.ok && "strategies" in unbuildable.request).toBe(false);
  });
});
