// The layer rules `npm run lint` keeps (dependency-cruiser): lib/'s folders import only from their own layer
// and those below (scripts/layers/layers.mjs holds the layers), lib/ never imports the app, the components,
// bin/ or scripts/, and neither files nor lib/ or components/ folders import in a circle. docs/architecture.md draws it.
import { LAYERS } from './scripts/layers/layers.mjs';

const folders = (list) => `^lib/(${list.join('|')})/`;
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const layerRules = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer-${layer.name}`,
  comment: `lib/'s ${layer.name} (${layer.folders.join(', ')}) imports nothing from a layer above it.`,
  severity: 'error',
  from: { path: folders(layer.folders) },
  to: { path: folders(LAYERS.slice(i + 1).flatMap((l) => l.folders)) },
}));

// Two files of lib/ read something above lib/ on purpose: the OpenAPI route index reads the route files'
// declarations (it documents them), and the start message lists the dashboard's menu (plain data).
const READS_ABOVE = {
  'lib/openapi/route-index.generated.ts': '^app/api/v4/.+/route\\.ts$',
  'lib/server/start-message.ts': '^components/dashboard/navigation\\.ts$',
};
const ABOVE_LIB = '^(app|components|bin|scripts)/';

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'lib-folder-in-a-layer',
      comment: 'Every lib/ folder has a layer: a new folder is added to scripts/layers/layers.mjs.',
      severity: 'error',
      from: { path: '^lib/', pathNot: folders(LAYERS.flatMap((l) => l.folders)) },
      to: {},
    },
    ...layerRules,
    {
      name: 'lib-below-the-app',
      comment: 'lib/ imports nothing from app/, components/, bin/ or scripts/ (but the two reads named in READS_ABOVE).',
      severity: 'error',
      from: { path: '^lib/', pathNot: `^(${Object.keys(READS_ABOVE).map(escape).join('|')})$` },
      to: { path: ABOVE_LIB },
    },
    ...Object.entries(READS_ABOVE).map(([file, allowed]) => ({
      name: 'lib-below-the-app',
      comment: `${file} reads only ${allowed} above lib/.`,
      severity: 'error',
      from: { path: `^${escape(file)}$` },
      to: { path: ABOVE_LIB, pathNot: allowed },
    })),
    {
      name: 'no-file-cycles',
      comment: 'No module imports itself through others.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment: 'No lib/ or components/ folder imports itself through others.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^(lib|components)/' },
      to: { circular: true },
    },
    {
      name: 'components-shared-below-domains',
      comment:
        "components/ui (the design system) and components/shared (pieces several domains' pages draw: dates, tags, the commit row) import no domain folder of components/; ui imports nothing from shared.",
      severity: 'error',
      from: { path: '^components/(ui|shared)/' },
      to: { path: '^components/', pathNot: '^components/(ui|shared)/' },
    },
    {
      name: 'components-ui-below-shared',
      comment: 'components/ui imports nothing from components/shared.',
      severity: 'error',
      from: { path: '^components/ui/' },
      to: { path: '^components/shared/' },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    // The fixtures break every rule on purpose (scripts/layers/layers.test.ts runs the rules on them).
    exclude: { path: '(^|/)node_modules/|\\.test\\.tsx?$|^lib/db/generated/|/fixtures/' },
    doNotFollow: { path: 'node_modules' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] },
  },
};
