// For scripts run outside Next (CLIs, worker): load .env files the way `next start` does.
import nextEnv from '@next/env';

nextEnv.loadEnvConfig(process.cwd(), process.env.NODE_ENV !== 'production');
