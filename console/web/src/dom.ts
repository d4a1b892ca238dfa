/** A tiny element builder: enough for a handful of pages, no framework, no virtual DOM. */
export type Child = Node | string | number | null | undefined | false | Child[];
type AttrValue = string | number | boolean | null | undefined | ((ev: Event) => void);
export type Attrs = Record<string, AttrValue>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.appendChild(typeof c === 'object' ? c : document.createTextNode(String(c)));
  }
}

/** A table's head: one row of column headers. */
export function tableHead(columns: readonly string[]): HTMLTableSectionElement {
  return h(
    'thead',
    null,
    h(
      'tr',
      null,
      columns.map((c) => h('th', { scope: 'col' }, c)),
    ),
  );
}

/** Replaces an element's children. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** Sets text only when it changed, so polling does not churn the accessibility tree. */
export function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/**
 * Keyed update of a list of rows: existing rows are updated in place (focus inside them survives a
 * poll), new ones created, vanished ones removed, order follows `items`.
 */
export function syncRows<T, E extends Element>(
  parent: Element,
  items: T[],
  key: (item: T) => string,
  create: (item: T) => E,
  update: (el: E, item: T) => void,
): void {
  const existing = new Map<string, E>();
  for (const child of Array.from(parent.children)) {
    const k = (child as HTMLElement).dataset.key;
    if (k !== undefined) existing.set(k, child as E);
  }
  let cursor: Element | null = parent.firstElementChild;
  for (const item of items) {
    const k = key(item);
    let el = existing.get(k);
    if (el) existing.delete(k);
    else {
      el = create(item);
      (el as unknown as HTMLElement).dataset.key = k;
    }
    update(el, item);
    if (el !== cursor) parent.insertBefore(el, cursor);
    else cursor = cursor.nextElementSibling;
  }
  for (const el of existing.values()) el.remove();
}

/** A progress bar readable by assistive technology (and by the end-to-end test). */
export function progressBar(label: string): { el: HTMLElement; set(percent: number): void } {
  const fillEl = h('span', { class: 'progress-fill' });
  const text = h('span', { class: 'progress-text' });
  const el = h(
    'div',
    { class: 'progress', role: 'progressbar', 'aria-label': label, 'aria-valuemin': 0, 'aria-valuemax': 100 },
    h('span', { class: 'progress-track' }, fillEl),
    text,
  );
  return {
    el,
    set(percent) {
      const p = Math.max(0, Math.min(100, Math.floor(percent)));
      el.setAttribute('aria-valuenow', String(p));
      el.setAttribute('aria-valuetext', `${p} %`);
      fillEl.style.width = `${p}%`;
      setText(text, `${p} %`);
    },
  };
}

/** A status word as a badge; the class picks a colour, the word carries the meaning. */
export function badge(status: string): HTMLElement {
  return h('span', { class: `badge badge-${badgeTone(status)}` }, status.replaceAll('_', ' '));
}

export function badgeTone(status: string): 'ok' | 'bad' | 'warn' | 'busy' | 'plain' {
  if (['ok', 'completed', 'verified', 'not_enforced'].includes(status)) return 'ok';
  if (['degraded', 'error', 'failed', 'blocked', 'unknown'].includes(status)) return 'bad';
  if (['completed_with_failures', 'grace', 'cancelled', 'skipped'].includes(status)) return 'warn';
  if (['processing', 'enumerating', 'queued'].includes(status)) return 'busy';
  return 'plain';
}
