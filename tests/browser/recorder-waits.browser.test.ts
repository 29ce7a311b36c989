// The recorder records the waits the user made (issue 27; drivers/recorder/waits.ts): in real
// headless Chromium with trusted input, a command on an element that came into the page after
// the user's previous action and after a request that action made is recorded after
// `waitForElementVisible TARGET 30000`; an element that came without a request, or that was
// there before, is not waited for.
import { describe, expect, it } from "vitest";
import type { RecordedAction } from "../../drivers/recorder/recorder.ts";
import { recorderInPages } from "../support/recorderPage.ts";

const APP = `<!doctype html><html><body><main>
<button id="load" type="button">Load</button> <button id="later" type="button">Later</button> <button id="ping" type="button">Ping</button>
<button id="static" type="button">Static</button> <p id="status"></p>
<label for="q">City</label> <input id="q" type="text" autocomplete="off"><ul id="suggestions"></ul>
<div id="results"></div></main>
<script>
  const add = (into, id, text) => { const b = document.createElement("button"); b.type = "button"; b.id = id; b.textContent = text; document.getElementById(into).append(b); };
  document.getElementById("load").onclick = () => fetch("/data").then((r) => r.text()).then((t) => add("results", "result", t.trim()));
  document.getElementById("later").onclick = () => setTimeout(() => add("results", "timed", "Timed"), 50);
  document.getElementById("ping").onclick = () => fetch("/data").then((r) => r.text()).then((t) => (document.getElementById("status").textContent = t.trim()));
  document.getElementById("q").oninput = (event) => fetch("/data?q=" + encodeURIComponent(event.target.value)).then(() => {
    const list = document.getElementById("suggestions");
    list.replaceChildren();
    const item = document.createElement("li");
    list.append(item);
    const b = document.createElement("button"); b.type = "button"; b.className = "suggestion"; b.dataset.q = event.target.value; b.textContent = "Paris"; item.append(b);
  });
</script></body></html>`;

const recorder = recorderInPages({ "/app": APP, "/data": "Fresh data" }, "/app");
const rows = (actions: RecordedAction[]) => actions.map((a) => [a.command, a.target, a.value]);

describe("recording the waits the user made", () => {
  it("records waitForElementVisible before a click on an element a request added after the previous click", async () => {
    const page = recorder.page();
    await page.click("#load");
    await page.waitForSelector("#result");
    await page.click("#result");
    const recorded = await recorder.recorded();
    expect(rows(recorded)).toEqual([
      ["click", "id=load", ""],
      ["waitForElementVisible", "id=result", "30000"],
      ["click", "id=result", ""],
    ]);
    // The wait carries the command's locators and fingerprint, so it plays and heals as the click does.
    expect(recorded[1].targets).toEqual(recorded[2].targets);
    expect(recorded[1].fingerprint).toMatchObject({ tag: "button", id: "result", text: "Fresh data" });
  });

  it("records no wait for an element that came without a request, nor for one that was there before a request", async () => {
    const page = recorder.page();
    await page.click("#later");
    await page.waitForSelector("#timed");
    await page.click("#timed");
    await page.click("#ping");
    await page.waitForFunction(() => document.getElementById("status")?.textContent === "Fresh data");
    await page.click("#static");
    expect(rows(await recorder.recorded())).toEqual([
      ["click", "id=later", ""],
      ["click", "id=timed", ""],
      ["click", "id=ping", ""],
      ["click", "id=static", ""],
    ]);
  });

  it("waits for a suggestion that the typing fetched, after the typing and before the click on it", async () => {
    const page = recorder.page();
    await page.click("#q");
    await page.keyboard.type("Pa");
    // The suggestion for the whole text (the one for "P" is replaced as the user would click it),
    // once the page's resource timing has its request: the recorder sees a request no sooner
    // (its entry comes once the body has; a person is never that quick).
    await page.waitForSelector('.suggestion[data-q="Pa"]');
    await page.waitForFunction(() => performance.getEntriesByType("resource").some((entry) => entry.name.endsWith("/data?q=Pa")));
    await page.click(".suggestion");
    const recorded = rows(await recorder.recorded());
    expect(recorded.map(([command]) => command)).toEqual(["click", "type", "waitForElementVisible", "click"]);
    expect(recorded[1]).toEqual(["type", "id=q", "Pa"]);
    expect(recorded[2][2]).toBe("30000");
    expect(recorded[2][1]).toBe(recorded[3][1]);
    expect(recorded[3][1]).toMatch(/Paris|suggestion/);
  });

  it("waits once for an element the user acts on twice", async () => {
    const page = recorder.page();
    await page.click("#load");
    await page.waitForSelector("#result");
    await page.click("#result");
    await page.click("#result");
    expect(rows(await recorder.recorded()).map(([command]) => command)).toEqual(["click", "waitForElementVisible", "click", "click"]);
  });
});
