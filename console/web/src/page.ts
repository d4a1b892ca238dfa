import { ConsoleApiError } from './api.js';
import { h } from './dom.js';

/** What a page gets from the router: its params and a lifetime that ends when the operator navigates away. */
export interface PageContext {
  params: Record<string, string>;
  /** Runs `fn` now and then every `ms` after each run settles, until the page is left; pauses while the tab is hidden. */
  every(ms: number, fn: () => Promise<void> | void): void;
  onLeave(fn: () => void): void;
  /** False once the operator has navigated away: late answers must not touch the new page. */
  readonly alive: boolean;
}

export type Page = (main: HTMLElement, ctx: PageContext) => void | Promise<void>;

export function createPageContext(params: Record<string, string>): PageContext & { leave(): void } {
  const cleanups: (() => void)[] = [];
  let alive = true;
  return {
    params,
    get alive() {
      return alive;
    },
    onLeave: (fn) => cleanups.push(fn),
    every(ms, fn) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const tick = async () => {
        timer = undefined;
        if (!alive) return;
        if (!document.hidden) {
          try {
            await fn();
          } catch (err) {
            console.warn('poll failed', err);
          }
        }
        if (alive) timer = setTimeout(tick, ms);
      };
      void tick();
      cleanups.push(() => timer && clearTimeout(timer));
    },
    leave() {
      alive = false;
      for (const fn of cleanups.splice(0)) fn();
    },
  };
}

/** A visible, announced error message for a failed call. */
export function errorNote(err: unknown): HTMLElement {
  const text = err instanceof ConsoleApiError ? `${err.message} (${err.id}${err.status ? `, HTTP ${err.status}` : ''})` : String(err);
  return h('p', { class: 'note note-bad', role: 'alert' }, text);
}

/** A section with a heading whose id labels it. */
export function section(id: string, title: string, ...body: (Node | string | null | false)[]): HTMLElement {
  return h('section', { class: 'panel', 'aria-labelledby': `${id}-h` }, h('h2', { id: `${id}-h` }, title), ...body);
}
