import type { Command } from 'commander';
import type { Health, License, Status } from '../api-types.js';
import { contextOf } from '../context.js';
import { duration, keyValues, when } from '../table.js';

const connected = (ok: boolean) => (ok ? 'connected' : 'NOT CONNECTED');

/** `folio status`, `folio health`, `folio license` and the `folio keys` placeholders (spec 4.14). */
export function opsCommands(program: Command): void {
  program
    .command('status')
    .description('versions, workers, queues, licence and metering of the appliance')
    .action(async (_opts, cmd: Command) => {
      const ctx = contextOf(cmd);
      const s = (await ctx.client.call<Status>('GET', '/pco/v1/status')).body;
      if (ctx.json) return ctx.printJson(s);
      const w = s.workers;
      const m = s.metering;
      ctx.print(
        keyValues([
          ['appliance', ctx.client.base],
          ['build', `${s.build_id} (ocr ${s.ocr_version}, pdf ${s.pdf_version}, api v${s.api_version})`],
          ['customer', s.customer],
          ['deployment', s.deployment_id],
          ['uptime', duration(s.uptime_seconds)],
          ['redis', connected(s.redis_connected)],
          ['storage', connected(s.storage_connected)],
          ['gpu workers', `${w.gpu_alive}/${w.gpu_expected} alive`],
          ['doc workers', `${w.document_alive}/${w.document_expected} alive`],
          ['queues', `documents ${s.queue_depths.documents}, pages ${s.queue_depths.pages}, jobs ${s.queue_depths.jobs}`],
          ['text requests', `${s.text_requests.in_flight}/${s.text_requests.max} in flight`],
          ['licence', `${s.license.status} (mode ${s.license_mode}, last verified ${when(s.license.last_verified_at) ?? 'never'})`],
          ['metering', `${m.mode}, last report ${when(m.last_report_at) ?? 'never'}, ${m.days_pending ?? 0} day(s) pending`],
          ...(m.last_report_error ? [['report error', m.last_report_error] as [string, unknown]] : []),
        ]),
      );
    });

  program
    .command('health')
    .description('is the appliance healthy? (exit 0 ok, 1 degraded)')
    .action(async (_opts, cmd: Command) => {
      const ctx = contextOf(cmd);
      // 503 with the same body is the degraded answer, not a failure of the call.
      const h = (await ctx.client.call<Health>('GET', '/health', { accept: [503] })).body;
      process.exitCode = h.status === 'ok' ? 0 : 1;
      if (ctx.json) return ctx.printJson(h);
      const reasons = [
        ...(h.redis_connected ? [] : ['state store (Redis) does not answer']),
        ...(h.storage_connected ? [] : ['storage does not answer']),
        ...(h.gpu_workers_alive > 0 ? [] : ['no GPU worker is alive']),
      ];
      ctx.print(h.status === 'ok' ? 'ok' : `degraded: ${reasons.join('; ') || 'see --json'}`);
      ctx.print(
        keyValues([
          ['redis', connected(h.redis_connected)],
          ['storage', connected(h.storage_connected)],
          ['gpu workers', `${h.gpu_workers_alive}/${h.gpu_workers_expected} alive`],
          ['doc workers', `${h.document_workers_alive}/${h.document_workers_expected} alive`],
          ['text requests', `${h.text_requests_in_flight}/${h.text_requests_max} in flight`],
          ['licence', `${h.license.status} (last verified ${when(h.license.last_verified_at) ?? 'never'})`],
        ]),
      );
    });

  program
    .command('license')
    .description('licence state: verified, grace, blocked or not_enforced, and why')
    .action(async (_opts, cmd: Command) => {
      const ctx = contextOf(cmd);
      const l = (await ctx.client.call<License>('GET', '/pco/v1/license')).body;
      if (ctx.json) return ctx.printJson(l);
      ctx.print(
        keyValues([
          ['status', l.status],
          ['mode', l.license_mode],
          ['deployment', l.deployment_id],
          ['last verified', when(l.last_verified_at) ?? 'never'],
          ['last checked', when(l.last_checked_at) ?? 'never'],
          ['failures', l.consecutive_failures],
          ['grace ends', when(l.grace_ends_at)],
          ['expires', when(l.expires_at)],
          ['last error', l.last_error],
        ]),
      );
      const advice = LICENSE_ADVICE[l.status];
      if (advice) ctx.print(advice);
    });
}

const LICENSE_ADVICE: Record<string, string> = {
  grace: 'processing continues until "grace ends"; the appliance must reach the licence server before then (see "last error")',
  blocked: 'new jobs, documents and text requests are refused (license_unverified) until a check succeeds; see "last error"',
  unknown: 'the state store does not answer, so the licence state cannot be read; run `folio health`',
};
