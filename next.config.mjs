/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // The service is reached by API clients; no image optimisation or telemetry needed.
  images: { unoptimized: true },
  // A native addon (libsodium signs receipts): loaded by Node at run time, never bundled.
  serverExternalPackages: ['sodium-native'],
  experimental: {
    // Next would load every app module when a process starts. /v1 is the API router's
    // (app/api-router.ts): its route modules must never be loaded here, and pages load on first use.
    preloadEntriesOnStart: false,
    // Turbopack's build cache makes a checkout's next build 16 s instead of 43, and writing it
    // costs the first build 13 of its 97 core-seconds: CI builds a fresh clone once and throws
    // it away (.ci/run sets CI).
    turbopackFileSystemCacheForBuild: !process.env.CI,
  },
};

export default nextConfig;
