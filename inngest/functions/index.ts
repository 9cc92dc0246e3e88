import { deliverWebhooks } from './deliver-webhooks';
import { sweepRotatedKeys } from './sweep-rotated-keys';

export const functions = [deliverWebhooks, sweepRotatedKeys];
