// The Export dialog's messages through the view relay and the in-page transport: a page asks
// `export.request`, the relay answers `export.answered` with ide.exportCode's reply.
import { describe, expect, it } from "vitest";
import { createIde } from "../../index.ts";
import { ViewRelay } from "../../drivers/view/relay.ts";
import { localTransport } from "../../drivers/view/localTransport.ts";
import type { HostMessage } from "../../drivers/view/messages.ts";
import { shopProject } from "./support.ts";

function relayOf() {
  const ide = createIde({ project: shopProject() });
  const sent: HostMessage[] = [];
  const relay = new ViewRelay(ide, { send: (message) => sent.push(message) });
  const answers = () => sent.filter((m) => m.type === "export.answered");
  return { ide, relay, answers };
}

describe("the view relay's export messages", () => {
  it("answers export.request with ide.exportCode's reply under the page's id", async () => {
    const { ide, relay, answers } = relayOf();
    relay.receive(JSON.stringify({ type: "export.request", id: 4, language: "ruby-rspec", testId: "t-cart" }));
    await expect.poll(answers).toHaveLength(1);
    expect(answers()[0]).toEqual({ type: "export.answered", id: 4, reply: await ide.exportCode({ language: "ruby-rspec", testId: "t-cart" }) });
    relay.stop();
  });

  it("answers a suite's export, and passes on the IDE's failure as it is", async () => {
    const { relay, answers } = relayOf();
    relay.receive({ type: "export.request", id: 5, language: "java-junit", suiteId: "s-plugins" });
    await expect.poll(answers).toHaveLength(1);
    expect(answers()[0]).toMatchObject({ id: 5, reply: { errorCode: "ExportFailed", error: "Test 'logs in' has a problem: Invalid command 'eyesCheckWindow'" } });
    relay.stop();
  });

  it("ignores a request without an id, a language, or a test or suite", async () => {
    const { relay, answers } = relayOf();
    relay.receive({ type: "export.request", language: "java-junit", testId: "t-cart" });
    relay.receive({ type: "export.request", id: 1, testId: "t-cart" });
    relay.receive({ type: "export.request", id: 2, language: "java-junit" });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(answers()).toEqual([]);
    relay.stop();
  });

  it("gives an in-page UI ide.exportCode itself", async () => {
    const ide = createIde({ project: shopProject() });
    const reply = await localTransport(ide).exportCode!({ language: "csharp-xunit", testId: "t-cart" });
    expect(reply).toMatchObject({ filename: "AddstocartTest.cs" });
  });
});
