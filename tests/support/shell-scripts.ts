// The shell scripts of a YAML text: each container's `sh -c` script (with its shell options and the arguments after
// it) and each ConfigMap value that is a shell script (a `.sh` key or a `#!` line). With `hooks`, the `sh -c` scripts
// of lifecycle hooks and probes too (named after the container's field that holds them).
import { parseAllDocuments } from 'yaml';

export interface ContainerScript {
  name: string;
  options: string[];
  script: string;
  /** `$0` and the arguments after the script. */
  rest: string[];
}

export function shellScripts(
  text: string,
  { hooks = false } = {},
): { containers: ContainerScript[]; configMaps: string[] } {
  const containers: ContainerScript[] = [];
  const configMaps: string[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    const container = typeof record.name === 'string' && typeof record.image === 'string';
    if (container || (hooks && Array.isArray(record.command))) {
      const argv = [
        ...(Array.isArray(record.command) ? record.command : []),
        ...(Array.isArray(record.args) ? record.args : []),
      ].map(String);
      const c = argv.findIndex((a, i) => i > 0 && /^-[a-z]*c[a-z]*$/.test(a));
      if (argv.length > 0 && /(^|\/)(sh|bash|dash)$/.test(argv[0]) && c !== -1 && argv[c + 1] !== undefined)
        containers.push({
          name: typeof record.name === 'string' ? record.name : 'exec',
          options: argv.slice(1, c + 1),
          script: argv[c + 1],
          rest: argv.slice(c + 2),
        });
    }
    if (record.kind === 'ConfigMap' && record.data && typeof record.data === 'object')
      for (const [key, value] of Object.entries(record.data))
        if (typeof value === 'string' && (/\.sh$/.test(key) || value.startsWith('#!'))) configMaps.push(value);
    for (const [key, value] of Object.entries(record)) if (hooks || key !== 'lifecycle') visit(value);
  };
  for (const doc of parseAllDocuments(text, { version: '1.1' })) {
    if (doc.errors.length > 0) continue;
    try {
      visit(doc.toJS());
    } catch {
      // A YAML alias bomb (a fixture of its own): the yaml library refuses to expand it, and it holds no script.
    }
  }
  return { containers, configMaps };
}
