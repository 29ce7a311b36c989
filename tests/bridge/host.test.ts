// The host around the bridge: its token file, "save to computer" to a file, the default
// project and page, and a stop that closes every connection.
import { afterEach, describe, expect, it, vi } from "vitest";
import { mkdtempSync, readFileSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startHost } from "../../apps/host/host.ts";
import type { Host } from "../../apps/host/host.ts";
import { shopProject } from "../support/shared.ts";
import { connectRaw } from "./support.ts";

const hosts: Host[] = [];
const scratch = () => mkdtempSync(join(tmpdir(), "ide-core-host-"));

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function host(options: Parameters<typeof startHost>[0]) {
  const h = await startHost({ port: 0, tokenFile: null, ...options });
  hosts.push(h);
  return h;
}

describe("the IDE host", () => {
  it("writes a fresh token on each start to a file only the user can read", async () => {
    const dir = scratch();
    const tokenFile = join(dir, "nested", "token");
    const first = await host({ tokenFile });
    expect(readFileSync(tokenFile, "utf8").trim()).toBe(first.token);
    expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "nested")).mode & 0o777).toBe(0o700);
    await first.close();
    const second = await host({ tokenFile });
    expect(second.token).not.toBe(first.token);
    expect(readFileSync(tokenFile, "utf8").trim()).toBe(second.token);
  });

  it("saves the project to the file the host names, whole, and only then counts it saved", async () => {
    const dir = scratch();
    const target = join(dir, "saved", "shop.side");
    const h = await host({ project: shopProject(), saveFile: () => target });
    h.ide.send({ type: "user.editProject" });
    h.ide.send({ type: "user.saveProject" });
    await vi.waitFor(() => expect(h.ide.getSnapshot().project.unsaved).toBe(false));
    expect(JSON.parse(readFileSync(target, "utf8"))).toMatchObject({ id: shopProject().id, name: shopProject().name });
    expect(readdirSync(join(dir, "saved"))).toEqual(["shop.side"]); // no partial file left behind
  });

  it("keeps the changes unsaved, with an error log, when the file cannot be written", async () => {
    const dir = scratch();
    const h = await host({ project: shopProject(), saveFile: () => join(dir, "no-such-dir-\0", "x.side") });
    h.ide.send({ type: "user.editProject" });
    h.ide.send({ type: "user.saveProject" });
    await vi.waitFor(() => expect(h.ide.getSnapshot().logs.at(-1)?.level).toBe("error"));
    expect(h.ide.getSnapshot().project.unsaved).toBe(true);
  });

  it("starts with an untitled project and resolves locators against the example page", async () => {
    const h = await host({});
    const p = await connectRaw(h, "ext-page");
    expect(await p.request({ uri: "/playback/location", verb: "get", location: "link=Help and support" })).toBe(
      "//a[contains(text(),'Help and support')]",
    );
    expect(h.ide.getSnapshot().project.name).toMatch(/untitled/i);
    await p.close();
  });

  it("closes every plugin connection when it stops", async () => {
    const h = await host({});
    const p = await connectRaw(h, "ext-closing");
    const closed = new Promise<number>((resolve) => p.socket.once("close", (code) => resolve(code)));
    await h.close();
    expect(await closed).toBe(1001);
  });
});
