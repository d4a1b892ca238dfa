import { describe, expect, it } from 'vitest';
import { ApiError, ERROR_IDS, ERROR_STATUS, isErrorId, toApiError } from './errors.js';

describe('errors', () => {
  it('holds every id of spec 7.2 and the private-cloud ids', () => {
    const spec = [
      'bad_request',
      'destination_uri_too_long',
      'unauthorized',
      'forbidden',
      'job_finalized',
      'conflict',
      'not_found',
      'data_source_not_found',
      'data_source_access_denied',
      'format_not_ready',
      'unsupported_format',
      'quota_exceeded',
      'storage_throttled',
      'http_max_requests',
      'sys_request_too_large',
      'image_download_error',
      'image_decode_error',
      'sys_exception',
      'pdf_download_error',
      'pdf_page_limit_exceeded',
      'cnv_unknown_id',
      'math_confidence',
      'opts_section_numbering',
      'opts_unknown_data_option',
      'opts_bad_page_range',
      'content_too_large',
      'license_unverified',
      'input_folder_required',
      'input_folder_or_files',
      'input_folder_unreadable',
      'output_folder_unwritable',
      'invalid_layout',
      'invalid_options',
      'invalid_policy',
      'invalid_callback',
      'unsupported_uri_scheme',
      'job_not_found',
      'job_not_retryable',
      'pdf_content_type',
      'cancelled',
    ];
    for (const id of spec) expect(isErrorId(id), id).toBe(true);
    expect(isErrorId('made_up')).toBe(false);
  });

  it('maps the ids with a stated HTTP status to it', () => {
    expect(ERROR_STATUS.unauthorized).toBe(401);
    expect(ERROR_STATUS.job_not_found).toBe(404);
    expect(ERROR_STATUS.job_not_retryable).toBe(409);
    expect(ERROR_STATUS.license_unverified).toBe(503);
    expect(ERROR_STATUS.http_max_requests).toBe(429);
    expect(ERROR_STATUS.unsupported_format).toBe(415);
    expect(ERROR_IDS.length).toBe(Object.keys(ERROR_STATUS).length);
  });

  it('builds the envelope with id equal to error and extras inside error_info', () => {
    const e = new ApiError('pdf_page_limit_exceeded', 'too many pages', { max_limit: 5000, id: 'spoofed' });
    expect(e.toBody()).toEqual({ error: 'pdf_page_limit_exceeded', error_info: { id: 'pdf_page_limit_exceeded', message: 'too many pages', max_limit: 5000 } });
  });

  it('turns unknown errors into sys_exception without their message', () => {
    const e = toApiError(new Error('ECONNREFUSED 10.0.0.5:5432 password=hunter2'));
    expect(e.id).toBe('sys_exception');
    expect(JSON.stringify(e.toBody())).not.toContain('hunter2');
  });
});
