/**
 * The gateway and model server a plan starts from when none is chosen. The data files must hold a profile for each
 * (profile-files.ts refuses them otherwise), so the ids live here, below the model that uses them.
 */
export const DEFAULT_GATEWAY = 'gke';
export const DEFAULT_MODEL_SERVER = 'vllm';
