/** The profiles as the site sees them: the same files, bundled by Vite at build time. */
import {
  isDataFileName,
  profilesFromFiles,
  REQUEST_DEFAULTS_FILE,
  VALUE_RANGES_FILE,
  type DataFile,
} from './profile-files.ts';
import type { Profiles } from './profiles.ts';

const texts = import.meta.glob(
  [
    '/content/gateways/*.yaml',
    '/content/gateways/*.yml',
    '/content/model-servers/*.yaml',
    '/content/model-servers/*.yml',
    '/content/request-defaults.yaml',
    '/content/kubernetes/value-ranges.yaml',
    '/content/controllers/*.yaml',
    '/content/other-servers/*.yaml',
  ],
  { query: '?raw', import: 'default', eager: true },
) as Record<string, string>;

// Vite needs literal globs; the names they match are then filtered as the CLI filters them.
const filesUnder = (prefix: string): DataFile[] =>
  Object.entries(texts)
    .filter(([path]) => path.startsWith(`/content/${prefix}`) && isDataFileName(path.split('/').pop()!))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([path, text]) => ({ path: path.slice(1), text }));

/** Every profile and the request defaults, validated once per build. */
export const profiles: Profiles = profilesFromFiles(
  filesUnder('gateways/'),
  filesUnder('model-servers/'),
  filesUnder(REQUEST_DEFAULTS_FILE)[0],
  filesUnder(VALUE_RANGES_FILE)[0],
  filesUnder('controllers/'),
  filesUnder('other-servers/'),
);
