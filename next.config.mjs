/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // The service is reached by API clients; no image optimisation or telemetry needed.
  images: { unoptimized: true },
};

export default nextConfig;
