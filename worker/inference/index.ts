import type { RoleStarter } from '../context.js';

/** Inference role: recognises page images. The recognition engine lands with the image issues. */
export const startInferenceRole: RoleStarter = async () => [];
