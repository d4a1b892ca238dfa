import type { AppContext } from '../context.js';

/** Background work of the control plane: enumeration, completion, webhooks, metering. */
export async function startOrchestrator(_ctx: AppContext, _redisUrl: string): Promise<{ stop(): Promise<void> }> {
  const parts: { stop(): Promise<void> }[] = [];
  return {
    async stop() {
      for (const p of parts.reverse()) await p.stop();
    },
  };
}
