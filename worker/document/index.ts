import type { RoleStarter } from '../context.js';

/** Document role: fetch, split, assemble and write documents of private-cloud jobs. */
export const startDocumentRole: RoleStarter = async () => [];
