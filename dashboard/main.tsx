/** The dashboard's entry: dashboard/index.html loads it as the page's one module. */
import './zod-config.js';
import './styles/dashboard.css';
import { createApi } from './api.js';
import { mountDashboard } from './mount.js';

mountDashboard(document.getElementById('app')!, (csrfToken) => createApi(csrfToken));
