// "Find" in a page that embeds the IDE itself (drivers/view/localTransport.ts): the transport asks the
// IDE in the same page, as a plugin would ask GET /playback/location, and the editor reads
// the answer (ui/locatorAnswer.ts).
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { createIde } from "../../index.ts";
import { readLocatorReply } from "../../ui/locatorAnswer.ts";
import { localTransport } from "../../drivers/view/localTransport.ts";

const document = new JSDOM('<!doctype html><form><input id="user" name="user"><input name="password" type="password"></form>').window.document;

describe("Find through the local transport", () => {
  it("gives the element's xpath for a locator that matches", async () => {
    const ide = createIde({ document });
    try {
      const reply = await localTransport(ide).resolveLocator!("name=password");
      expect(readLocatorReply(reply)).toEqual({ ok: true, xpath: "//input[@name='password']" });
    } finally {
      ide.stop();
    }
  });

  it("gives the IDE's error and code for a locator that matches nothing or is not a locator", async () => {
    const ide = createIde({ document });
    try {
      const transport = localTransport(ide);
      expect(readLocatorReply(await transport.resolveLocator!("css=.nothing"))).toMatchObject({ ok: false, code: "ElementNotFound" });
      expect(readLocatorReply(await transport.resolveLocator!("nonsense=1"))).toMatchObject({ ok: false, code: "InvalidLocator" });
    } finally {
      ide.stop();
    }
  });
});
