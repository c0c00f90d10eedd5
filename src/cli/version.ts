/** The CLI's version: written into the package by its build, read from package.json in a checkout. */
import { MODEL_VERSION } from '../model/plan.ts';

declare const HITLESS_PACKAGE_VERSION: string | undefined;

/** The package version, such as `0.1.0`. */
export function packageVersion(): string {
  if (typeof HITLESS_PACKAGE_VERSION === 'string') return HITLESS_PACKAGE_VERSION;
  // node:fs is fetched here, not imported: in the package's bundles a static import of it would make every command
  // build node:fs's ES module namespace at startup, which loads Node's file streams (~15 ms) for nothing.
  const { readFileSync } = process.getBuiltinModule('node:fs');
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string })
    .version;
}

/** What `hitless --version` prints: the version and the drain model it implements. */
export function versionLine(): string {
  return `hitless ${packageVersion()} (drain model v${MODEL_VERSION})`;
}
