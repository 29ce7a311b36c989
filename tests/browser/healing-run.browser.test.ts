// Healing end to end (CONTRACT section 18): a click recorded by the real recorder on one release
// of a page keeps its element's fingerprint; on the next release (the id renamed, its text
// edited, a wrapper and a sibling added) no locator of the command finds the button, and the host's one player
// relocates it by similarity: the command passes healed, with the locator and score in the view
// and a warn log; "Accept" (user.acceptHealed) makes that locator the target, refreshes the
// fingerprint and leaves the project unsaved. With heal off the same command fails naming the locator.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIde } from "../../index.ts";
import type { Ide } from "../../index.ts";
import { browserPage } from "../../drivers/host/browserPage.ts";
import type { BrowserPage } from "../../drivers/host/browserPage.ts";
import { servePages } from "../support/browserPages.ts";
import { recorderInPages } from "../support/recorderPage.ts";

const RELEASE_1 = `<!doctype html><html><body><main><h1>Cart</h1><p class="row"><span>Total 3</span>
<button id="buy" class="primary" type="button" onclick="document.getElementById('done').textContent = 'bought'">Buy now</button></p><p id="done"></p></main></body></html>`;
const RELEASE_2 = `<!doctype html><html><body><main><h1>Cart</h1><div class="promo"><button type="button" id="help">Help</button></div>
<section><p class="row"><span>Total 3</span><button id="purchase" class="primary btn" type="button" onclick="document.getElementById('done').textContent = 'bought'">Buy it now</button></p></section><p id="done"></p></main></body></html>`;

const recorder = recorderInPages({ "/cart": RELEASE_1 }, "/cart");
let site: Awaited<ReturnType<typeof servePages>>;
let page: BrowserPage;

beforeAll(async () => {
  site = await servePages({ "/cart": RELEASE_2 });
  page = browserPage({ baseUrl: site.origin, implicitWaitMs: 500 });
}, 60_000);

afterAll(async () => {
  await page?.close();
  await site?.close();
});

async function played(ide: Ide) {
  ide.send({ type: "user.startPlayback", testId: "t" });
  const deadline = Date.now() + 30_000;
  while (ide.getSnapshot().playback?.status !== "ended" && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  return ide.getSnapshot().playback!;
}

describe("a test recorded on one release of a page, played on the next", () => {
  it("heals the click by similarity, shows it healed, and Accept makes the working locator the target", async () => {
    await recorder.page().click("#buy");
    const [click] = await recorder.recorded();
    expect(click).toMatchObject({ command: "click", target: "id=buy", fingerprint: { tag: "button", id: "buy", text: "Buy now" } });

    const commands = [
      { id: "c1", command: "open", target: "/cart", targets: [], value: "" },
      { id: "c2", command: "click", target: click.target, targets: click.targets, value: "", fingerprint: click.fingerprint },
      { id: "c3", command: "assertText", target: "id=done", targets: [], value: "bought" },
    ];
    const ide = createIde({ executor: page, project: { id: "p", name: "heal", url: site.origin, tests: [{ id: "t", name: "buys", commands }] } });
    const run = await played(ide);
    expect(run.result).toBe("passed");
    const healed = run.commands[1].healed!;
    expect(healed.score).toBeGreaterThan(0.6);
    expect(healed.score).toBeLessThan(1);
    expect(ide.getSnapshot().logs.some((log) => log.level === "warn" && log.message.includes(`Healed #2 click id=buy`) && log.message.includes(healed.locator))).toBe(true);

    ide.send({ type: "user.acceptHealed", commandId: "c2" });
    const accepted = ide.getProject().tests[0].commands[1];
    expect(accepted.target).toBe(healed.locator);
    // The fingerprint is the element's as the player found it on this release.
    expect(accepted).toMatchObject({ fingerprint: { tag: "button", id: "purchase", text: "Buy it now" } });
    expect(ide.getSnapshot().project.unsaved).toBe(true);
    // The accepted locator plays without healing.
    const again = await played(ide);
    expect(again.result).toBe("passed");
    expect(again.commands[1].healed).toBeUndefined();
    ide.stop();
  });

  it("fails the same command with heal off, naming the locator that would have worked", async () => {
    await recorder.page().click("#buy");
    const [click] = await recorder.recorded();
    const commands = [
      { id: "c1", command: "open", target: "/cart", targets: [], value: "" },
      { id: "c2", command: "click", target: click.target, targets: click.targets, value: "", fingerprint: click.fingerprint },
    ];
    const ide = createIde({ executor: page, heal: false, project: { id: "p", name: "heal", url: site.origin, tests: [{ id: "t", name: "buys", commands }] } });
    const run = await played(ide);
    expect(run.result).toBe("failed");
    expect(run.commands[1]).toMatchObject({ state: "failed", message: expect.stringMatching(/^click: id=buy found nothing; .* would have found the element \(score 0\.\d\d\), but healing is off\.$/) });
    ide.stop();
  });
});
