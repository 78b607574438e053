/**
 * The dependency check of `npm run lint` (docs/architecture.md, "Layers"): no cycles between
 * modules or between folders, and each layer imports only the layers below it.
 * @type {import('dependency-cruiser').IConfiguration}
 */
const layer = (name, comment, from, to) => ({ name, comment, severity: 'error', from: { path: from }, to: { path: to } });

module.exports = {
  forbidden: [
    { name: 'no-folder-cycle', comment: 'folders form layers: no two folders import each other, even through others', severity: 'error', scope: 'folder', from: { path: '^src' }, to: { circular: true } },
    { name: 'no-module-cycle', comment: 'no module imports itself through others', severity: 'error', from: { path: '^src' }, to: { circular: true } },
    layer('util-is-the-floor', 'util/ holds helpers with no knowledge of Refrain: it imports nothing else of src/', '^src/util/', '^src/(?!util/)'),
    layer('http-knows-only-http', 'http/ is the transport: uWS, the route layer, connection rules; the routes that use it are mounted by app.ts', '^src/http/', '^src/(?!http/|util/|errors\\.ts|log\\.ts)'),
    layer('stores-below-the-api', 'the catalog, its stores, the index and the feeds never import the API, auth, OAuth, the CLI or the composition root', '^src/(catalog|works|contributions|feeds|index|generate)/', '^src/(api|auth|oauth|cli|app\\.ts)'),
    layer('auth-below-the-api', 'keys, usage and hits (auth/) and the OAuth server (oauth/) never import the API, the CLI or the composition root', '^src/(auth|oauth)/', '^src/(api|cli|app\\.ts)'),
    layer('api-below-the-root', 'the API never imports the CLI or the composition root', '^src/api/', '^src/(cli|app\\.ts)'),
    layer('one-way-into-the-kernel', 'the index kernel is reached through its interface (index/kernel/kernel.ts) only, so another implementation can replace it', '^src/(?!index/kernel/)', '^src/index/kernel/(?!kernel\\.ts$)'),
    layer('loadtest-is-a-client', 'loadtest/ talks to a server over HTTP only: it knows nothing of the server\'s code', '^src/loadtest/', '^src/(?!loadtest/|util/|errors\\.ts|generate/(prng|distributions)\\.ts)'),
    layer('cli-is-the-top', 'only the CLI runs commands: nothing imports it', '^src/(?!cli/)', '^src/cli/'),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
};
