import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headingAndParagraphsPdf } from '../../test/support/pdf-fixtures.js';
import { type V3TestApp, v3TestApp } from '../../test/support/v3-test-app.js';
import { getDelivery } from '../webhooks/deliveries.js';
import { v3NotificationHandlers } from './v3-notifications.js';

describe('v3NotificationHandlers', () => {
  let t: V3TestApp;
  let handle: NonNullable<ReturnType<typeof v3NotificationHandlers>['v3.pdf']>;
  const rows = () =>
    t.ctx.db.prepare('SELECT id, scope, event, url, headers, payload, dedupe_key, file_id FROM webhook_deliveries ORDER BY rowid').all() as any[];

  beforeAll(async () => {
    t = await v3TestApp();
    handle = v3NotificationHandlers(t.ctx)['v3.pdf']!;
  });
  afterAll(async () => t?.close());

  const submit = async (extra: Record<string, unknown>, file: Buffer) => {
    const key = await t.newKey();
    const res = await t.call('POST', '/v3/pdf', { headers: key.headers, form: t.form(file, 'a.pdf', extra) });
    await t.runPdf(res.body.pdf_id);
    return { id: res.body.pdf_id as string, appId: key.app_id };
  };

  it("sends file.completed with the 2.12 body, signed with the app's secret, once per fact", async () => {
    const { id, appId } = await submit(
      { callback_url: 'https://hooks.example.com/in', callback_headers: { 'X-Team': 'ops' } },
      await headingAndParagraphsPdf(),
    );
    await handle({ type: 'v3.pdf', eventId: `v3pdf:${id}`, pdfId: id, status: 'completed' });
    await handle({ type: 'v3.pdf', eventId: `v3pdf:${id}`, pdfId: id, status: 'completed' });
    const sent = rows().filter((r) => r.file_id === id);
    expect(sent).toHaveLength(1);
    // Signed with the app's Files API secret, the one GET /files/v1/webhook-config shows (4.12).
    expect(sent[0]).toMatchObject({ scope: `files:${appId}`, event: 'file.completed', url: 'https://hooks.example.com/in', dedupe_key: `v3pdf:${id}` });
    expect(JSON.parse(sent[0].headers)).toEqual({ 'X-Team': 'ops' });
    expect(JSON.parse(sent[0].payload)).toEqual({ event: 'file.completed', file_id: id, status: 'completed', num_pages: 1, num_pages_completed: 1 });
    expect(getDelivery(t.ctx, sent[0].id)?.status).toBe('pending');
  });

  it('sends file.error with error_info, and nothing when the event is not subscribed', async () => {
    const broken = Buffer.from('%PDF-1.4 broken');
    const failed = await submit({ callback_url: 'https://hooks.example.com/in' }, broken);
    await handle({ type: 'v3.pdf', eventId: `v3pdf:${failed.id}`, pdfId: failed.id, status: 'error' });
    const body = JSON.parse(rows().find((r) => r.file_id === failed.id).payload);
    expect(body).toMatchObject({
      event: 'file.error',
      file_id: failed.id,
      custom_id: null,
      job_id: null,
      status: 'error',
      error_info: { id: expect.any(String), message: expect.any(String) },
    });

    const quiet = await submit({ callback_url: 'https://hooks.example.com/in', callback_events: ['file.completed'] }, broken);
    await handle({ type: 'v3.pdf', eventId: `v3pdf:${quiet.id}`, pdfId: quiet.id, status: 'error' });
    const none = await submit({}, broken);
    await handle({ type: 'v3.pdf', eventId: `v3pdf:${none.id}`, pdfId: none.id, status: 'error' });
    await handle({ type: 'v3.pdf', eventId: 'v3pdf:gone', pdfId: '2025_06_01_bbbbbbbbbbbbbbbbbbbb', status: 'completed' });
    expect(rows().filter((r) => [quiet.id, none.id].includes(r.file_id))).toEqual([]);
  });
});
