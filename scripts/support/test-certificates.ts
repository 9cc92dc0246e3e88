import { writeFileSync } from 'node:fs';
import path from 'node:path';
import selfsigned from 'selfsigned';

/**
 * A throwaway CA and a loopback certificate it signs, for the tests' HTTPS webhook receivers.
 * The service trusts the CA through NODE_EXTRA_CA_CERTS (read by Node at process start).
 */
export async function writeTestCertificates(dir: string) {
  const notAfterDate = new Date(Date.now() + 7 * 24 * 3600_000);
  const ca = await selfsigned.generate([{ name: 'commonName', value: 'Quote Service Test CA' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate,
    extensions: [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }],
  });
  const leaf = await selfsigned.generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
    ],
  });
  const files = { caFile: path.join(dir, 'test-ca.pem'), certFile: path.join(dir, 'receiver.pem'), keyFile: path.join(dir, 'receiver-key.pem') };
  writeFileSync(files.caFile, ca.cert);
  writeFileSync(files.certFile, leaf.cert);
  writeFileSync(files.keyFile, leaf.private);
  return files;
}
