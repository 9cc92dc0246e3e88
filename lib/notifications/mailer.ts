import nodemailer, { type Transporter } from 'nodemailer';
import { rememberedPerProcess } from '../context/per-process';
import { settings } from '../settings/settings';

/** Whether owners get emails at all: only with SMTP_URL (e.g. `smtp://user:pass@mail.example:587`). */
export function emailConfigured(): boolean {
  return !!settings().SMTP_URL;
}

/** Who the emails come from (SMTP_FROM). */
export function emailSender(): string {
  return settings().SMTP_FROM;
}

const transport = rememberedPerProcess<{ url: string; transporter: Transporter }>('SmtpTransport');

/** One pooled SMTP transport per process for the configured SMTP_URL (a changed URL gets a new one). */
export async function smtpTransport(): Promise<Transporter> {
  const url = settings().SMTP_URL!;
  let held = await transport.get(async () => ({ url, transporter: nodemailer.createTransport(url) }));
  if (held.url !== url) {
    held.transporter.close();
    transport.forget();
    held = await transport.get(async () => ({ url, transporter: nodemailer.createTransport(url) }));
  }
  return held.transporter;
}
