import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('applies the embedded defaults', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(8080);
    expect(c.REDIS_URL).toBeUndefined();
    expect(c.storageUri).toMatch(/^file:\/\/\/.*\/data\/storage\/$/);
    expect(c.gpuWorkersExpected).toBe(1);
    expect(c.FOLIO_LICENSE_MODE).toBe('air_gapped');
  });

  it('names the variable of a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ FOLIO_INFERENCE_WORKERS: '-1' })).toThrow(/FOLIO_INFERENCE_WORKERS/);
    expect(() => loadConfig({ REDIS_URL: 'not a url' })).toThrow(/REDIS_URL/);
    expect(() => loadConfig({ FOLIO_SPAWN_WORKERS: 'maybe' })).toThrow(/FOLIO_SPAWN_WORKERS/);
  });

  it('derives expected worker counts from the started ones unless set', () => {
    expect(loadConfig({ FOLIO_INFERENCE_WORKERS: '3' }).gpuWorkersExpected).toBe(3);
    expect(loadConfig({ FOLIO_INFERENCE_WORKERS: '0', FOLIO_GPU_WORKERS_EXPECTED: '4' }).gpuWorkersExpected).toBe(4);
    expect(loadConfig({ FOLIO_SPAWN_WORKERS: 'false' }).FOLIO_SPAWN_WORKERS).toBe(false);
  });
});
