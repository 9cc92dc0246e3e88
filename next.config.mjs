/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // The service is reached by API clients; no image optimisation or telemetry needed.
  images: { unoptimized: true },
  // A native addon (libsodium signs receipts): loaded by Node at run time, never bundled.
  serverExternalPackages: ['sodium-native'],
};

export default nextConfig;
