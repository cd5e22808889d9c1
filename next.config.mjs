/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native or WebAssembly packages are loaded by Node at run time, not bundled.
  serverExternalPackages: ['@node-rs/argon2', '@electric-sql/pglite', '@electric-sql/pglite-socket', '@prisma/schema-engine-wasm', 'pg'],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
  devIndicators: false,
};

export default nextConfig;
