// The host's kept runs as its IDE page reads them (/traces, CONTRACT section 17): a run written
// by the real trace store is listed and its manifest and files served with the token; a wrong
// token, a foreign page, a bad run id, an unknown one, a path that climbs out of a trace's
// folder and a file its manifest does not name are each refused with the reason.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { startHost } from "../../apps/host/host.ts";
import type { Host } from "../../apps/host/host.ts";
import { traceStore } from "../../drivers/host/traceStore.ts";

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

/** A tiny real JPEG's start: what the store writes is what it was given. */
const JPEG = "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQAAAQABAAD/2w==";

async function hostWithOneRun() {
  const dir = mkdtempSync(join(tmpdir(), "ide-core-trace-routes-"));
  const root = join(dir, "traces");
  // A file beside the traces that no route may reach.
  writeFileSync(join(dir, "token"), "secret\n");
  const store = traceStore({ root });
  const at = Date.now();
  store.testStarted({ key: "k1", runId: "run-1", testId: "t1", testName: "checks out", suiteName: null, at });
  const base = { index: 1, commandId: "c1", command: "click", target: "id=buy", value: "", healed: null };
  store.command("k1", { ...base, phase: "start", state: "pending", message: null, at });
  store.attach("run-1", {
    image: Promise.resolve(JPEG),
    failure: Promise.resolve({ details: { url: "http://127.0.0.1/shop", title: "Shop", html: "<h1>Shop</h1><script>parent.x=1</script>" }, consoleErrors: ["down: 503"] }),
  });
  store.command("k1", { ...base, phase: "end", state: "failed", message: "element not found", at: at + 1 });
  store.testEnded("k1", { result: "failed", keep: true, at: at + 2 });
  const { manifest } = await store.finished("run-1", "t1");
  const host = await startHost({ port: 0, tokenFile: null, traceReader: store });
  hosts.push(host);
  const base_ = `http://127.0.0.1:${host.port}`;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base_}${path}`, { headers });
  const withToken = (path: string) => `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(host.token)}`;
  return { host, manifest, get, withToken };
}

describe("the host's kept runs for its IDE page", () => {
  it("lists a kept run and serves its manifest, its picture and its DOM snapshot sandboxed, with the token", async () => {
    const { manifest, get, withToken } = await hostWithOneRun();
    const list = (await (await get(withToken("/traces"))).json()) as { runs: Array<{ traceId: string; testName: string; result: string }> };
    expect(list.runs).toEqual([expect.objectContaining({ traceId: manifest.traceId, testName: "checks out", result: "failed", commands: 1 })]);
    const read = await (await get(withToken(`/traces/${manifest.traceId}`))).json();
    expect(read).toEqual(manifest);
    const step = manifest.steps[0];
    const picture = await get(withToken(`/traces/${manifest.traceId}/${step.screenshot}`));
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/jpeg");
    expect([...new Uint8Array(await picture.arrayBuffer()).subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    const dom = await get(withToken(`/traces/${manifest.traceId}/${step.failure!.dom}`));
    expect(await dom.text()).toContain("<h1>Shop</h1>");
    expect(dom.headers.get("content-security-policy")).toMatch(/^sandbox;/);
  });

  it("refuses a missing token, a foreign page, a bad or unknown run id, a traversal and a file the manifest does not name", async () => {
    const { manifest, get, withToken } = await hostWithOneRun();
    const id = manifest.traceId;
    const noToken = await get(`/traces/${id}`);
    expect(noToken.status).toBe(401);
    expect(await noToken.text()).toContain("no token");
    const foreign = await get(withToken(`/traces/${id}`), { Origin: "http://evil.example" });
    expect(foreign.status).toBe(403);

    const bad = await get(withToken("/traces/not-a-run"));
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(`"not-a-run" is not a run's id`);
    const unknown = await get(withToken("/traces/20990101-000000-000-0001"));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain("No kept run has the id 20990101-000000-000-0001");

    for (const path of [`/traces/${id}/..%2F..%2Ftoken`, `/traces/..%2Ftoken`, `/traces/${id}/%2e%2e%2Ftoken.jpg`]) {
      const climbing = await get(withToken(path));
      expect(climbing.status, path).toBe(400);
      expect(await climbing.text(), path).not.toContain("secret");
    }
    const deeper = await get(withToken(`/traces/${id}/a/b`));
    expect(deeper.status).toBe(400);
    const unnamed = await get(withToken(`/traces/${id}/99999.jpg`));
    expect(unnamed.status).toBe(404);
    expect(await unnamed.text()).toContain(`has no file 99999.jpg`);
  });
});
