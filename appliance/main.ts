import { ConfigError, loadConfig } from '../core/config.js';
import { createLogger } from '../core/logging.js';
import { startAppliance } from './appliance.js';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`folio: ${err.message}\n`);
    process.exit(2);
  }
  throw err;
}
const logger = createLogger({ name: 'appliance', level: config.FOLIO_LOG_LEVEL });
let appliance;
try {
  appliance = await startAppliance(config, logger);
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`folio: ${err.message}\n`);
    process.exit(2);
  }
  throw err;
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'stopping');
    appliance.stop().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err: String(err) }, 'stop failed');
        process.exit(1);
      },
    );
  });
}
