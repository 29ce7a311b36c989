import { readFileSync, readdirSync } from "node:fs";
const dir = process.argv[2];
const f = readdirSync(dir).find((x) => x.endsWith(".cpuprofile"));
const p = JSON.parse(readFileSync(dir + "/" + f, "utf8"));
const self = new Map(); const byId = new Map(p.nodes.map((n) => [n.id, n]));
const dt = new Map(); p.samples.forEach((s, i) => dt.set(s, (dt.get(s) ?? 0) + (p.timeDeltas[i] ?? 0)));
let total = 0;
for (const n of p.nodes) { const t = dt.get(n.id) ?? 0; total += t; const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").slice(-2).join("/")}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + t); }
// inclusive
const parent = new Map(); for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const incl = new Map();
for (const n of p.nodes) { const t = dt.get(n.id) ?? 0; if (!t) continue; const seen = new Set(); let id = n.id; while (id !== undefined) { const m = byId.get(id); const k = `${m.callFrame.functionName || "(anon)"} ${m.callFrame.url.split("/").slice(-2).join("/")}:${m.callFrame.lineNumber}`; if (!seen.has(k)) { incl.set(k, (incl.get(k) ?? 0) + t); seen.add(k);} id = parent.get(id); } }
console.log("SELF"); [...self].sort((a, b) => b[1] - a[1]).slice(0, 25).forEach(([k, t]) => console.log((t / total * 100).toFixed(1) + "%", k));
console.log("INCL"); [...incl].sort((a, b) => b[1] - a[1]).slice(0, 45).forEach(([k, t]) => console.log((t / total * 100).toFixed(1) + "%", k));
