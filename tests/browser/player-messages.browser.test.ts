// The same failure in the same words through both of the host's players (CONTRACT section 19):
// the one player in the page, and side-runtime's WebDriverExecutor, whose selenium-webdriver
// errors are told in the player's words (drivers/host/playerWording.ts). Each failing command
// runs through both on the same page; the messages must be equal, and say what went wrong.
import { describe, expect, it } from "vitest";
import { browserPageOn } from "../support/browserPageOn.ts";
import type { PageOutcome } from "../../machines/testRunner.types.ts";

const PAGE = `<!doctype html><html><head><title>T</title></head><body><p id="p">hello</p><input id="i" value="v"><input id="d" disabled>
<input type="checkbox" id="c"><select id="s"><option>a</option><option>b</option></select><div id="h" style="display:none">hid</div>
<button id="cov">x</button><div style="position:fixed;top:0;left:0;width:100%;height:100%" id="over"></div></body></html>`;

const CASES: Array<[command: string, target: string, value: string, says: RegExp]> = [
  ["click", "id=missing", "", /^Element id=missing not found$/],
  ["storeText", "id=missing", "x", /^Element id=missing not found$/],
  ["assertElementPresent", "id=nope", "", /^Element id=nope not found$/],
  ["click", "id=h", "", /^Element id=h is not visible, so it cannot be interacted with$/],
  ["click", "id=cov", "", /^Element id=cov is not clickable at point \(\d+, \d+\)\. Other element would receive the click: <div id="over">$/],
  ["type", "id=d", "x", /^Element id=d is not editable/],
  ["select", "id=s", "label=zz", /^Element id=s has no option label=zz$/],
  ["waitForElementVisible", "id=h", "300", /^Waiting for element id=h to be visible: wait timed out after 300ms$/],
  ["clickAt", "id=p", "bad", /^clickAt needs coordinates "x,y"/],
  ["assertText", "id=p", "bye", /^Actual value 'hello' did not match 'bye'$/],
  ["assertChecked", "id=c", "", /^Element is not checked, expected to be checked$/],
  ["assertTitle", "X", "", /^Actual value 'T' did not match 'X'$/],
];

const outcomes: Record<string, PageOutcome[]> = {};
const key = (c: string, t: string, v: string) => `${c} ${t} ${v}`;

describe("a failing command's message through both players", () => {
  for (const player of ["devtools", "webdriver"] as const) {
    const served = browserPageOn({ "/": PAGE }, `messages-${player}`, { player, implicitWaitMs: 300 });
    it(`fails each command through ${player}`, async () => {
      expect(await served.run("open", "/")).toEqual({ state: "passed" });
      for (const [command, target, value] of CASES) (outcomes[key(command, target, value)] ??= []).push(await served.run(command, target, value));
    }, 60_000);
  }

  it.each(CASES)("says the same of %s %s %s through both, in the player's words", (command, target, value, says) => {
    const [player, webdriver] = outcomes[key(command, target, value)];
    expect(player).toMatchObject({ state: "failed", message: expect.stringMatching(says) });
    expect(webdriver).toEqual(player);
  });
});
