/** Read the profile data files from disk (Node only): the CLI, the lab and the tests use this. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  isDataFileName,
  profilesFromFiles,
  REQUEST_DEFAULTS_FILE,
  VALUE_RANGES_FILE,
  type DataFile,
} from './profile-files.ts';
import type { Profiles } from './profiles.ts';

/** The repository's content folder. */
export const CONTENT_DIR = fileURLToPath(new URL('../../content/', import.meta.url));

function readDir(dir: string): DataFile[] {
  return readdirSync(dir)
    .filter(isDataFileName)
    .sort()
    .map((name) => ({ path: join(dir, name), text: readFileSync(join(dir, name), 'utf8') }));
}

/** Load and validate every profile, the request defaults and the value ranges under `contentDir` (default: the repository's `content/`). */
export function readProfiles(contentDir: string = CONTENT_DIR): Profiles {
  const file = (name: string): DataFile => ({
    path: join(contentDir, name),
    text: readFileSync(join(contentDir, name), 'utf8'),
  });
  return profilesFromFiles(
    readDir(join(contentDir, 'gateways')),
    readDir(join(contentDir, 'model-servers')),
    file(REQUEST_DEFAULTS_FILE),
    file(VALUE_RANGES_FILE),
    readDir(join(contentDir, 'controllers')),
    readDir(join(contentDir, 'other-servers')),
  );
}
