import { createIde } from "../index.ts";
const N = 10000;
const commands = Array.from({ length: N }, (_, i) => ({ id: `p-${i}`, comment: "", command: "benchStep", target: `t ${i}`, targets: [], value: "" }));
const project = { id: "b", version: "2.0", name: "B", url: "http://127.0.0.1:8080", tests: [{ id: "t", name: "t", commands }], suites: [], urls: [], plugins: [] };
async function once(listen: boolean) {
  const ide = createIde({ project, deliver: async () => true, limits: { requestsPerSecond: 1e9, requestBurst: 1e9 } as never });
  await ide.handle({ uri: "/register", verb: "post", name: "P", version: "1", commands: [{ id: "benchStep", name: "benchStep" }] }, { id: "p" });
  let views = 0;
  const sub = listen ? ide.subscribe((v) => { views++; void v.playback?.commands.length; }) : null;
  const t0 = performance.now();
  ide.send({ type: "user.startPlayback", testId: "t" } as never);
  await new Promise<void>((resolve) => { const tick = () => (ide.getSnapshot().playback?.status === "ended" ? resolve() : setTimeout(tick, 5)); tick(); });
  const ms = performance.now() - t0;
  sub?.unsubscribe(); ide.stop();
  return { ms, views };
}
const mode = process.argv[2] ?? "both";
for (let r = 0; r < 2; r++) {
  if (mode !== "watched") { const a = await once(false); console.log("unwatched", Math.round(N / (a.ms / 1000)), "cmd/s"); }
  if (mode !== "unwatched") { const b = await once(true); console.log("watched  ", Math.round(N / (b.ms / 1000)), "cmd/s", b.views, "views"); }
}
