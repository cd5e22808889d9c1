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
  // Parallel builds (several checkouts or test runs) can each use their own output folder.
  distDir: process.env.RUNWAY_DIST_DIR || '.next',
};

export default nextConfig;
