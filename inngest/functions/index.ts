import { deliverWebhook } from './deliver-webhook';
import { minuteJobs } from './minute-jobs';
import { sweepDeliveries } from './sweep-deliveries';

export const functions = [deliverWebhook, sweepDeliveries, ...minuteJobs];
