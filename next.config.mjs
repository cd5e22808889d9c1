/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native or WebAssembly packages are loaded by Node at run time, not bundled; prom-client once, shared
  // with the custom server.
  serverExternalPackages: ['@node-rs/argon2', '@electric-sql/pglite', '@electric-sql/pglite-socket', '@prisma/schema-engine-wasm', 'pg', 'prom-client'],
  poweredByHeader: false,
  // GitLab answers /api/v4/ itself (404 JSON); no redirect to the slash-less path.
  skipTrailingSlashRedirect: true,
  reactStrictMode: true,
  typedRoutes: false,
  devIndicators: false,
  // Rendered pages are cached in memory, never written into the build folder: a packaged Runway's files are
  // read-only to it (the image's /app, ProtectSystem=strict) and it writes only to its data folder.
  experimental: { isrFlushToDisk: false },
  // This folder, a checkout or a packaged Runway: a dist/ inside a checkout would otherwise see two lock
  // files and warn about which one is the root.
  turbopack: { root: import.meta.dirname },
  // Parallel builds (several checkouts or test runs) can each use their own output folder.
  distDir: process.env.RUNWAY_DIST_DIR || '.next',
  // GitLab's sign-in address, for bookmarks and scripts written for GitLab.
  async redirects() {
    return [{ source: '/users/sign_in', destination: '/sign-in', permanent: false }];
  },
};

export default nextConfig;
