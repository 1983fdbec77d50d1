import nodemailer from 'nodemailer';
import type { MailTransportFactory } from './plugin';

/** The mail transport of production: nodemailer's SMTP transport (the composition root passes it in). */
export const smtpTransport: MailTransportFactory = (options) => nodemailer.createTransport(options);
