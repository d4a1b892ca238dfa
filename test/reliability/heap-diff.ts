/**
 * Compares two V8 heap snapshots (worker-leak.ts writes them): objects grouped by type and
 * constructor name, with their count and self size in each, the groups that grew most first.
 *
 *   node --max-old-space-size=4096 --import tsx test/reliability/heap-diff.ts early.heapsnapshot late.heapsnapshot
 */
import { readFile } from 'node:fs/promises';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

interface Group {
  count: number;
  bytes: number;
}

/** Node groups of one snapshot: `type name` for objects and closures, the bare type for the rest (strings, code, arrays…). */
async function groups(path: string): Promise<{ groups: Map<string, Group>; total: Group }> {
  const snap = JSON.parse(await readFile(path, 'utf8')) as Snapshot;
  const fields = snap.snapshot.meta.node_fields;
  const types = snap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const out = new Map<string, Group>();
  const total = { count: 0, bytes: 0 };
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const type = types[snap.nodes[i + typeAt]!]!;
    const named = type === 'object' || type === 'closure' || type === 'native';
    const key = named ? `${type} ${snap.strings[snap.nodes[i + nameAt]!]!.slice(0, 80)}` : type;
    const g = out.get(key) ?? { count: 0, bytes: 0 };
    g.count++;
    g.bytes += snap.nodes[i + sizeAt]!;
    out.set(key, g);
    total.count++;
    total.bytes += snap.nodes[i + sizeAt]!;
  }
  return { groups: out, total };
}

const [earlyPath, latePath, topArg] = process.argv.slice(2);
if (!earlyPath || !latePath) {
  process.stderr.write('usage: heap-diff.ts <early.heapsnapshot> <late.heapsnapshot> [top=25]\n');
  process.exit(2);
}
const early = await groups(earlyPath);
const late = await groups(latePath);
const kb = (b: number) => Math.round(b / 1024);
const rows = [...new Set([...early.groups.keys(), ...late.groups.keys()])].map((key) => {
  const a = early.groups.get(key) ?? { count: 0, bytes: 0 };
  const b = late.groups.get(key) ?? { count: 0, bytes: 0 };
  return { key, count: `${a.count} → ${b.count}`, kb: `${kb(a.bytes)} → ${kb(b.bytes)}`, grew: b.bytes - a.bytes, grewCount: b.count - a.count };
});
rows.sort((x, y) => y.grew - x.grew);
console.log(`total: ${early.total.count} → ${late.total.count} nodes, ${kb(early.total.bytes)} → ${kb(late.total.bytes)} kB self size`);
for (const r of rows.slice(0, Number(topArg ?? 25)))
  console.log(
    `${String(r.grew >= 0 ? `+${kb(r.grew)}` : kb(r.grew)).padStart(8)} kB ${String(r.grewCount >= 0 ? `+${r.grewCount}` : r.grewCount).padStart(8)}  ${r.key}  (${r.count}; ${r.kb} kB)`,
  );
