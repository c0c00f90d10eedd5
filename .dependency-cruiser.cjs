/**
 * The rooms of ../shared/ARCHITECTURE.md as dependency-cruiser rules: each room imports only from the rooms below it,
 * and no module imports itself back through others (type-only imports count: `tsPreCompilationDeps`).
 * tests/unit/boundaries.test.ts runs it on every `npm test`; `npx depcruise src pages` prints the same report.
 */

/** Each room and the rooms it may import from (its own files always). Bottom to top. */
const ROOMS = {
  'src/facts': [],
  'src/model': ['src/facts'],
  'src/emit': ['src/model', 'src/facts'],
  // Inside check, bottom to top: read (YAML with positions), fix (edits on that text), workload (what runs here),
  // rules (context, findings, the rule folders), then check's own top level (check.ts runs the registry).
  'src/check/read': ['src/emit', 'src/model', 'src/facts'],
  'src/check/fix': ['src/check/read', 'src/emit', 'src/model', 'src/facts'],
  'src/check/workload': ['src/check/fix', 'src/check/read', 'src/emit', 'src/model', 'src/facts'],
  'src/check/rules': ['src/check/workload', 'src/check/fix', 'src/check/read', 'src/emit', 'src/model', 'src/facts'],
  'src/check': ['src/check/rules', 'src/check/workload', 'src/check/fix', 'src/check/read', 'src/emit', 'src/model', 'src/facts'],
  'src/verify': [],
  'src/lab': ['src/verify', 'src/model', 'src/facts'],
  'src/site': [],
  'src/components': ['src/site', 'src/lab', 'src/check', 'src/emit', 'src/model', 'src/facts'],
  'src/cli': ['src/lab', 'src/verify', 'src/check', 'src/emit', 'src/model', 'src/facts'],
  pages: ['src/components', 'src/site', 'src/lab', 'src/check', 'src/emit', 'src/model', 'src/facts'],
};

/** The room a path is in: the longest room name it starts with. */
const roomNames = Object.keys(ROOMS).sort((a, b) => b.length - a.length);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A path pattern matching the files of `room` but not those of a room nested in it (check/rules in check). */
function filesOf(room) {
  const nested = roomNames.filter((r) => r !== room && r.startsWith(`${room}/`));
  const inside = `^${escape(room)}/`;
  return nested.length === 0 ? inside : `${inside}(?!(${nested.map((r) => escape(r.slice(room.length + 1))).join('|')})/)`;
}

const forbidden = [
  {
    name: 'no-circular',
    severity: 'error',
    comment: 'A module reaches itself again through its imports (type-only imports count too).',
    from: {},
    to: { circular: true },
  },
  ...Object.entries(ROOMS).map(([room, below]) => ({
    name: `room-${room.replace(/^src\//, '').replace(/\//g, '-')}`,
    severity: 'error',
    comment: `${room} imports only from ${below.length ? below.join(', ') : 'nothing else of the project'} (../shared/ARCHITECTURE.md).`,
    from: { path: filesOf(room) },
    to: {
      path: `^(src|pages)/`,
      pathNot: [filesOf(room), ...below.map((r) => `^${escape(r)}/`)],
    },
  })),
];

module.exports = {
  forbidden,
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|\\.astro)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
  },
};
