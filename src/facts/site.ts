/** The profiles as the site sees them: the same files, bundled by Vite at build time. */
import { isDataFileName, profilesFromFiles, type DataFile } from './profile-files.ts';
import type { Profiles } from './profiles.ts';

const gatewayTexts = import.meta.glob(['/content/gateways/*.yaml', '/content/gateways/*.yml'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const requestDefaultsText = import.meta.glob('/content/request-defaults.yaml', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const valueRangesText = import.meta.glob('/content/kubernetes/value-ranges.yaml', {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;
const modelServerTexts = import.meta.glob(['/content/model-servers/*.yaml', '/content/model-servers/*.yml'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

// Vite needs literal globs; the names they match are then filtered as the CLI filters them.
const toFiles = (texts: Record<string, string>): DataFile[] =>
  Object.entries(texts)
    .filter(([path]) => isDataFileName(path.split('/').pop()!))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, text]) => ({ path: path.slice(1), text }));

/** Every profile and the request defaults, validated once per build. */
export const profiles: Profiles = profilesFromFiles(
  toFiles(gatewayTexts),
  toFiles(modelServerTexts),
  toFiles(requestDefaultsText)[0],
  toFiles(valueRangesText)[0],
);
