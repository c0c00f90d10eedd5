/** Read the profile data files from disk (Node only): the CLI, the lab and the tests use this. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDataFileName, profilesFromFiles, REQUEST_DEFAULTS_FILE, type DataFile } from './profile-files.ts';
import type { Profiles } from './profiles.ts';

/** The repository's content folder. */
export const CONTENT_DIR = fileURLToPath(new URL('../../content/', import.meta.url));

function readDir(dir: string): DataFile[] {
  return readdirSync(dir)
    .filter(isDataFileName)
    .sort()
    .map((name) => ({ path: join(dir, name), text: readFileSync(join(dir, name), 'utf8') }));
}

/** Load and validate every profile and the request defaults under `contentDir` (default: the repository's `content/`). */
export function readProfiles(contentDir: string = CONTENT_DIR): Profiles {
  const defaultsPath = join(contentDir, REQUEST_DEFAULTS_FILE);
  return profilesFromFiles(readDir(join(contentDir, 'gateways')), readDir(join(contentDir, 'model-servers')), {
    path: defaultsPath,
    text: readFileSync(defaultsPath, 'utf8'),
  });
}
