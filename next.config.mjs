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
  },
};

export default nextConfig;
