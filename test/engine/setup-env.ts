// n8n-core writes its instance settings (an encryption key) under N8N_USER_FOLDER: keep them in the project.
import path from 'node:path';

process.env.N8N_USER_FOLDER ??= path.resolve(__dirname, '../../.n8n-test');
process.env.N8N_LOG_LEVEL ??= 'silent';
