/** One column of a table: a heading and how to read a cell from a row. */
export interface Column<T> {
  header: string;
  value: (row: T) => unknown;
  /** Numbers read best right-aligned. @default 'left' */
  align?: 'left' | 'right';
}

/** Renders rows as a plain-text table with a heading row, columns two spaces apart. */
export function table<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((r) => columns.map((c) => cell(c.value(r))));
  const widths = columns.map((c, i) => Math.max(c.header.length, ...cells.map((row) => row[i]!.length)));
  const line = (values: string[]) =>
    values
      .map((v, i) => (columns[i]!.align === 'right' ? v.padStart(widths[i]!) : v.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n');
}

/** Renders label/value pairs as two aligned columns; null and undefined values read "-". */
export function keyValues(pairs: readonly [string, unknown][]): string {
  const width = Math.max(0, ...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${k.padEnd(width)}  ${cell(v)}`.trimEnd()).join('\n');
}

function cell(v: unknown): string {
  if (v === null || v === undefined || v === '') return '-';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v).replace(/\s+/g, ' ');
}

/** 3725 → "1h 2m"; null → "-". */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '-';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h`;
}

/** An ISO timestamp shortened to "YYYY-MM-DD HH:MM:SS" (UTC); null stays null. */
export function when(iso: string | null | undefined): string | null {
  return iso ? iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '') : null;
}
